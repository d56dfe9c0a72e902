/** Adds a DynamoDB Local endpoint; `http://localhost:8000` is suggested as the placeholder, never typed in for the user. */
import { useState, type FormEvent } from 'react';
import type { ConnectionsState } from './use-connections';

/** A small inline form under "Local endpoints". */
export function AddEndpointForm({ state }: { state: ConnectionsState }) {
  const [open, setOpen] = useState(false);
  const [endpoint, setEndpoint] = useState('');
  const [region, setRegion] = useState('');
  if (!open) {
    return (
      <button type="button" className="btn-link" onClick={() => setOpen(true)}>
        Add an endpoint…
      </button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void state.addEndpoint(endpoint.trim(), region.trim() || undefined, undefined).then((result) => result.ok && setOpen(false));
  };
  return (
    <form onSubmit={submit} className="panel" aria-label="Add a local endpoint">
      <div className="field">
        <label htmlFor="endpoint-url">Endpoint URL</label>
        <input id="endpoint-url" value={endpoint} onChange={(e) => setEndpoint(e.target.value)} placeholder={state.view?.suggestedEndpoint ?? 'http://localhost:8000'} required />
      </div>
      <div className="field">
        <label htmlFor="endpoint-region">Region (optional)</label>
        <input id="endpoint-region" value={region} onChange={(e) => setRegion(e.target.value)} placeholder="us-east-1" />
        <span className="field-hint">DynamoDB Local without -sharedDb keeps one database per access key and region.</span>
      </div>
      <div className="row">
        <button type="submit" className="btn btn-primary">
          Add
        </button>
        <button type="button" className="btn" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
