/** The tab panels; each needs a connection (and most a table) and says so when missing. */
import { ActivityView } from '../features/activity/activity-view';
import type { ConnectionsState } from '../features/connections/use-connections';
import { ConventionView } from '../features/convention/convention-view';
import { DecodeView } from '../features/decode/decode-view';
import { InspectorView } from '../features/inspector/inspector-view';
import { LookupView } from '../features/lookup/lookup-view';
import { TableDetailsView } from '../features/tables/table-details';
import { OverviewView } from '../features/tables/overview-view';
import type { TablesState } from '../features/tables/use-tables';
import { Busy } from '../components/busy';
import { useWorkspace } from '../workspace/workspace-context';

/** Renders the selected tab's panel; the inspector's tab without a table is the connection's overview. */
export function MainArea({ connections, tables }: { connections: ConnectionsState; tables: TablesState }) {
  const { tab, connection, table } = useWorkspace();
  const needsTable = tab === 'inspector' || tab === 'table' || tab === 'convention' || tab === 'lookup';
  let body;
  if (tab === 'decode') body = <DecodeView />;
  else if (tab === 'activity') body = <ActivityView />;
  else if (!connection) body = <Welcome connections={connections} />;
  else if (tab === 'inspector' && !table) body = <OverviewView connectionId={connection.id} tables={tables} />;
  else if (needsTable && !table) body = <p className="empty">Pick a table on the left.</p>;
  else if (table && tab === 'inspector') body = <InspectorView table={table} />;
  else if (table && tab === 'table') body = <TableDetailsView connectionId={connection.id} table={table} />;
  else if (table && tab === 'convention') body = <ConventionView connectionId={connection.id} table={table} />;
  else if (table && tab === 'lookup') body = <LookupView connectionId={connection.id} table={table} />;
  return (
    <section
      id={`panel-${tab}`}
      role="tabpanel"
      aria-labelledby={`tab-${tab}`}
      className={`tab-panel${tab === 'inspector' ? ' tab-panel-fill' : ''}`}
    >
      {body}
    </section>
  );
}

function Welcome({ connections }: { connections: ConnectionsState }) {
  return (
    <div className="empty stack" data-testid="welcome">
      <h2>Welcome to Locksmith</h2>
      <p>It shows the lock items that keep values unique in a DynamoDB table, finds the broken ones, and repairs them safely.</p>
      <p>New here? Start the sandbox: a local DynamoDB with demo tables full of typical problems.</p>
      <div>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void connections.select('sandbox')}
          disabled={connections.busy !== undefined}
          data-testid="welcome-sandbox"
        >
          Start the sandbox
        </button>
      </div>
      {connections.busy ? <Busy label={connections.busy} /> : null}
    </div>
  );
}
