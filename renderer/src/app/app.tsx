/** The window: header, sidebar (connections, tables), tabbed main area, and the shared dialogs. */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { StartupHash } from '../../../shared/contract';
import { useQuery } from '../bridge/use-method';
import { ConnectionsPanel } from '../features/connections/connections-panel';
import { MfaDialog } from '../features/connections/mfa-dialog';
import { useConnections } from '../features/connections/use-connections';
import { INSPECTOR_SEARCH_ID } from '../features/inspector/inspector-view';
import { AuditProvider } from '../features/inspector/audit-context';
import { LockFormDialog } from '../features/lock-form/lock-form-dialog';
import { LOOKUP_INPUT_ID } from '../features/lookup/lookup-view';
import { useTheme } from '../features/settings/use-theme';
import { TablesPanel } from '../features/tables/tables-panel';
import { useTables } from '../features/tables/use-tables';
import { AppHeader } from './app-header';
import { MainArea } from './main-area';
import { TabBar } from './tabs';
import { useHotkeys } from './use-hotkeys';
import { WorkspaceProvider, type LockFormSeed, type TabId, type Workspace } from '../workspace/workspace-context';

/** The loaded app; `startup` is what the URL hash asked to open. */
export function App({ startup }: { startup: StartupHash }) {
  const connections = useConnections();
  const theme = useTheme();
  const info = useQuery('app.info', {});
  const connection = connections.selected;
  const tables = useTables(connection?.id);
  // A restarted sandbox holds new tables: the list and the audit of its table are read again, and an
  // audit of a sandbox that is not running describes data that is gone (stale).
  const onSandbox = connection?.kind === 'sandbox';
  const dataEpoch = onSandbox ? connections.sandboxEpoch : 0;
  const stale = onSandbox && connections.sandbox !== undefined && connections.sandbox.state !== 'running';
  const reloadTables = tables.reload;
  useEffect(() => {
    if (dataEpoch > 0) reloadTables();
  }, [dataEpoch, reloadTables]);
  // The table belongs to the connection it was picked on: another connection starts with none.
  const [picked, setPicked] = useState<{ connectionId: string | undefined; table: string | undefined }>({
    connectionId: undefined,
    table: undefined,
  });
  const table = picked.connectionId === connection?.id ? picked.table : undefined;
  const [tab, setTab] = useState<TabId>('inspector');
  const [lookupRequest, setLookupRequest] = useState({ value: '', seq: 0, handed: false });
  const [lockForm, setLockForm] = useState<LockFormSeed>();
  const [started, setStarted] = useState(false);
  const [sidebarHidden, setSidebarHidden] = useState(false);

  // First load: open what the URL or main asked for (first run: the sandbox and `accounts`).
  useEffect(() => {
    if (started || !info.data || !connections.view) return;
    setStarted(true);
    const target = startup.connection ?? info.data.startup?.connectionId;
    const targetTable = startup.table ?? info.data.startup?.table;
    if (!target) return;
    // The table is keyed by its connection, so it shows as soon as that connection is the selected one.
    if (targetTable) setPicked((p) => (p.table ? p : { connectionId: target, table: targetTable }));
    void connections.select(target);
  }, [started, info.data, connections, startup]);

  const ready = info.data !== undefined && connections.view !== undefined && theme.loaded;
  const failed = info.error !== undefined;
  useEffect(() => {
    document.body.dataset.appState = ready ? 'loaded' : failed ? 'error' : 'starting';
  }, [ready, failed]);

  const selectTable = useCallback(
    (name: string | undefined) => {
      setPicked({ connectionId: connection?.id, table: name });
      setTab('inspector');
    },
    [connection?.id],
  );
  const openLookup = useCallback((value?: string) => {
    setLookupRequest((r) => (value === undefined ? { ...r, seq: r.seq + 1, handed: false } : { value, seq: r.seq + 1, handed: true }));
    setTab('lookup');
  }, []);
  const workspace: Workspace = useMemo(
    () => ({
      connection,
      table,
      tab,
      lookupRequest,
      lockForm,
      setTab,
      selectTable,
      openLookup,
      openLockForm: setLockForm,
      closeLockForm: () => setLockForm(undefined),
    }),
    [connection, table, tab, lookupRequest, lockForm, selectTable, openLookup],
  );

  useHotkeys({
    onLookup: () => openLookup(),
    onSearch: () => {
      setTab('inspector');
      // The search box exists once the inspector tab is rendered.
      requestAnimationFrame(() => document.getElementById(INSPECTOR_SEARCH_ID)?.focus());
    },
  });

  useEffect(() => {
    if (tab === 'lookup') document.getElementById(LOOKUP_INPUT_ID)?.focus();
  }, [tab, lookupRequest.seq]);

  return (
    <WorkspaceProvider value={workspace}>
      <AuditProvider connectionId={connection?.id} table={table} epoch={dataEpoch} stale={stale}>
        <div className={`app${sidebarHidden ? ' sidebar-hidden' : ''}`}>
          <AppHeader
            info={info.data}
            theme={theme}
            onLookup={() => openLookup()}
            sidebarHidden={sidebarHidden}
            onToggleSidebar={() => setSidebarHidden((h) => !h)}
          />
          <nav className="sidebar" id="app-sidebar" aria-label="Connections and tables" hidden={sidebarHidden}>
            <ConnectionsPanel state={connections} />
            {connection ? (
              <TablesPanel state={tables} selected={table} onSelect={selectTable} onOverview={() => selectTable(undefined)} />
            ) : null}
          </nav>
          <main className="main">
            <TabBar current={tab} onSelect={setTab} />
            <MainArea connections={connections} tables={tables} />
          </main>
        </div>
        {lockForm && connection && table ? <LockFormDialog seed={lockForm} connectionId={connection.id} table={table} /> : null}
        <MfaDialog />
      </AuditProvider>
    </WorkspaceProvider>
  );
}
