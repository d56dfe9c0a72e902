/** The Connections sidebar section: sandbox, local endpoints, AWS profiles, and the selected one's details. */
import type { ConnectionsState } from './use-connections';
import { KindBadge, ModeBadge, StateBadge } from './connection-badges';
import { ConnectionDetails } from './connection-details';
import { AddEndpointForm } from './add-endpoint-form';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import type { ConnectionView } from '../../../../shared/contract';

const GROUPS: readonly { kind: ConnectionView['kind']; title: string }[] = [
  { kind: 'sandbox', title: 'Sandbox' },
  { kind: 'endpoint', title: 'Local endpoints' },
  { kind: 'profile', title: 'AWS profiles' },
];

/** Lists connections grouped by kind; clicking one selects it (starting the sandbox when needed). */
export function ConnectionsPanel({ state }: { state: ConnectionsState }) {
  const { view, selected } = state;
  return (
    <section aria-labelledby="connections-title" data-testid="connections">
      <h2 id="connections-title" className="section-title">
        Connections
      </h2>
      {state.busy ? (
        <span data-testid="connections-busy">
          <Busy label={state.busy} />
        </span>
      ) : null}
      <ErrorBox error={state.error} title="Connection problem" />
      {view?.warnings.map((warning) => (
        <div key={warning} className="alert alert-warn" role="status">
          {warning}
        </div>
      ))}
      {view && view.envCredentials.length > 0 ? (
        <p className="field-hint">Credential variables set in the environment: {view.envCredentials.join(', ')}</p>
      ) : null}
      {GROUPS.map((group) => {
        const items = view?.connections.filter((c) => c.kind === group.kind) ?? [];
        if (items.length === 0 && group.kind === 'profile' && view) {
          // No profile is not nothing to say: where Locksmith looked, so a misplaced config can be found.
          return (
            <div key={group.kind}>
              <h3 className="field-hint">{group.title}</h3>
              <p className="field-hint" data-testid="no-profiles">
                None found in {view.profileFiles.join(' and ')} (AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE point elsewhere).
              </p>
            </div>
          );
        }
        if (items.length === 0 && group.kind !== 'endpoint') return null;
        return (
          <div key={group.kind}>
            {/* The sandbox's own label names it: a heading above it would say "Sandbox" twice. */}
            {group.kind === 'sandbox' ? null : <h3 className="field-hint">{group.title}</h3>}
            <ul className="list">
              {items.map((connection) => (
                <li key={connection.id}>
                  <button
                    type="button"
                    className="list-item list-item-wrap"
                    aria-current={connection.id === selected?.id}
                    data-testid={`connection-${connection.id}`}
                    onClick={() => void state.select(connection.id)}
                  >
                    <span className="list-item-label">{connection.label}</span>
                    <KindBadge connection={connection} />
                    <ModeBadge connection={connection} />
                    <StateBadge connection={connection} />
                  </button>
                </li>
              ))}
            </ul>
            {group.kind === 'endpoint' ? <AddEndpointForm state={state} /> : null}
          </div>
        );
      })}
      {selected ? <ConnectionDetails state={state} connection={selected} /> : null}
    </section>
  );
}
