/** Adds an endpoint (`http://localhost:8000` is the placeholder, never typed in for the user), signed with dummy keys unless the user picks otherwise. */
import { useState, type FormEvent } from 'react';
import type { CredentialSource } from '../../../../shared/domain';
import type { ConnectionsState } from './use-connections';

/** `dummy`, `env` or `profile:<name>` as the select's value. */
function sourceOf(choice: string): CredentialSource {
  if (choice === 'env') return { source: 'env' };
  if (choice.startsWith('profile:')) return { source: 'profile', profile: choice.slice('profile:'.length) };
  return { source: 'dummy' };
}

/** A small inline form under "Local endpoints". */
export function AddEndpointForm({ state }: { state: ConnectionsState }) {
  const [open, setOpen] = useState(false);
  const [endpoint, setEndpoint] = useState('');
  const [region, setRegion] = useState('');
  const [signsWith, setSignsWith] = useState('dummy');
  if (!open) {
    return (
      <button type="button" className="btn-link" onClick={() => setOpen(true)}>
        Add an endpoint…
      </button>
    );
  }
  const profiles = state.view?.connections.filter((c) => c.kind === 'profile') ?? [];
  const envKeys = state.view?.envCredentials.includes('AWS_ACCESS_KEY_ID') ?? false;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void state
      .addEndpoint(endpoint.trim(), region.trim() || undefined, undefined, sourceOf(signsWith))
      .then((result) => result.ok && setOpen(false));
  };
  return (
    <form onSubmit={submit} className="panel" aria-label="Add a local endpoint">
      <div className="field">
        <label htmlFor="endpoint-url">Endpoint URL</label>
        <input
          id="endpoint-url"
          value={endpoint}
          onChange={(e) => setEndpoint(e.target.value)}
          placeholder={state.view?.suggestedEndpoint ?? 'http://localhost:8000'}
          required
        />
        <span className="field-hint">
          An endpoint on another machine starts read-only and signs with dummy keys; AWS itself (*.amazonaws.com) is reached only through a
          profile.
        </span>
      </div>
      <div className="field">
        <label htmlFor="endpoint-signs-with">Signs requests with</label>
        <select id="endpoint-signs-with" value={signsWith} onChange={(e) => setSignsWith(e.target.value)} data-testid="endpoint-signs-with">
          <option value="dummy">dummy keys (DynamoDB Local)</option>
          <option value="env">the environment&apos;s keys (AWS_ACCESS_KEY_ID{envKeys ? '' : ' — not set'})</option>
          {profiles.map((p) => (
            <option key={p.id} value={`profile:${p.label}`}>
              profile {p.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="endpoint-region">Region (optional)</label>
        <input id="endpoint-region" value={region} onChange={(e) => setRegion(e.target.value)} placeholder="us-east-1" />
        <span className="field-hint">
          DynamoDB Local without -sharedDb keeps one database per access key and region: pick the keys and region the tables were created
          with.
        </span>
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
