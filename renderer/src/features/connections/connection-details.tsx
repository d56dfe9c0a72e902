/** The selected connection: effective endpoint and region, status, write mode, sandbox controls. */
import { useState } from 'react';
import type { ConnectionView } from '../../../../shared/contract';
import type { ConnectionsState } from './use-connections';
import { ModeBadge, StateBadge } from './connection-badges';
import { ErrorBox } from '../../components/error-box';
import { AllowWritesDialog } from './allow-writes-dialog';
import { Dialog } from '../../components/dialog';

const REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'eu-west-1',
  'eu-west-2',
  'eu-central-1',
  'eu-north-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-south-1',
  'sa-east-1',
  'ca-central-1',
];

/** Details and controls of one connection. */
export function ConnectionDetails({ state, connection }: { state: ConnectionsState; connection: ConnectionView }) {
  const [askWrites, setAskWrites] = useState(false);
  const regions = REGIONS.includes(connection.region) ? REGIONS : [connection.region, ...REGIONS];
  const sandboxDown = connection.kind === 'sandbox' && state.sandbox?.state !== 'running';
  const endpointText = sandboxDown ? 'none: the sandbox is not running' : (connection.endpoint ?? `AWS default for ${connection.region}`);
  return (
    <div className="panel" data-testid="connection-details">
      <div className="panel-title">
        {/* The list above names the connection; repeating its label here listed the sandbox twice. */}
        <h3>
          Details<span className="visually-hidden"> of {connection.label}</span>
        </h3>
        <StateBadge connection={connection} />
        <ModeBadge connection={connection} />
      </div>
      <dl className="facts">
        <dt>Endpoint</dt>
        <dd className="mono" data-testid="effective-endpoint">
          {endpointText}
          {connection.endpointSource === 'env' ? <span className="badge badge-warn"> from environment</span> : null}
          {connection.endpointSource === 'profile-endpoint_url' ? (
            <span className="badge badge-warn"> from profile endpoint_url</span>
          ) : null}
          {connection.endpointSource === 'profile-services' ? (
            <span className="badge badge-warn"> from profile services section</span>
          ) : null}
        </dd>
        {connection.credentials ? (
          <>
            <dt>Signs with</dt>
            <dd data-testid="credential-source">{signsWith(connection.credentials)}</dd>
          </>
        ) : null}
        <dt>
          <label htmlFor="connection-region">Region</label>
        </dt>
        <dd>
          <select id="connection-region" value={connection.region} onChange={(e) => void state.setRegion(connection.id, e.target.value)}>
            {regions.map((region) => (
              <option key={region} value={region}>
                {region}
              </option>
            ))}
          </select>
        </dd>
      </dl>
      {connection.envOverrides.length > 0 ? (
        <div className="alert alert-warn" role="status">
          Environment variables change this connection: <span className="mono">{connection.envOverrides.join(', ')}</span>
        </div>
      ) : null}
      <ErrorBox error={connection.error} title="This connection failed" />
      <div className="row">
        <button type="button" className="btn btn-small" onClick={() => void state.check(connection.id)}>
          Check
        </button>
        {connection.writable ? (
          <button type="button" className="btn btn-small" onClick={() => void state.setWritable(connection.id, false)}>
            Make read-only
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-small"
            onClick={() =>
              connection.kind === 'profile' || connection.writeConfirm !== undefined
                ? setAskWrites(true)
                : void state.setWritable(connection.id, true)
            }
          >
            Allow writes…
          </button>
        )}
        {connection.kind === 'sandbox' ? <SandboxControls state={state} /> : null}
        {connection.kind === 'endpoint' ? (
          <button type="button" className="btn btn-small" onClick={() => void state.remove(connection.id)}>
            Remove
          </button>
        ) : null}
      </div>
      {askWrites ? <AllowWritesDialog state={state} connection={connection} onClose={() => setAskWrites(false)} /> : null}
    </div>
  );
}

/** The credential source in words: which keys, never their values. */
function signsWith(credentials: NonNullable<ConnectionView['credentials']>): string {
  switch (credentials.source) {
    case 'dummy':
      return 'dummy keys';
    case 'env':
      return "the environment's keys (AWS_ACCESS_KEY_ID)";
    case 'profile':
      return `profile ${credentials.profile}`;
    case 'sandbox':
      return "the sandbox's private key (held by Locksmith)";
  }
}

function SandboxControls({ state }: { state: ConnectionsState }) {
  const [confirming, setConfirming] = useState(false);
  const running = state.sandbox?.state === 'running';
  return running ? (
    <>
      <button type="button" className="btn btn-small" onClick={() => setConfirming(true)} data-testid="sandbox-stop">
        Stop sandbox
      </button>
      {confirming ? (
        <Dialog title="Stop the sandbox?" onClose={() => setConfirming(false)} size="small" testId="sandbox-stop-dialog">
          <p>
            The sandbox keeps its tables in memory: stopping it loses the demo data and every change made to it. Starting it again seeds
            fresh demo tables.
          </p>
          <div className="row">
            <button
              type="button"
              className="btn btn-danger"
              data-testid="sandbox-stop-confirm"
              onClick={() => {
                setConfirming(false);
                void state.stopSandbox();
              }}
            >
              Stop and lose its data
            </button>
            <button type="button" className="btn" onClick={() => setConfirming(false)}>
              Keep it running
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  ) : (
    <button type="button" className="btn btn-small" onClick={() => void state.startSandbox()}>
      Start sandbox
    </button>
  );
}
