/** The header: app name, the current connection (mode, endpoint, region), the table, Lookup and the theme toggle. */
import type { AppInfo } from '../../../shared/contract';
import { ErrorBox } from '../components/error-box';
import { ModeBadge } from '../features/connections/connection-badges';
import { ThemeToggle } from '../features/settings/theme-toggle';
import type { useTheme } from '../features/settings/use-theme';
import { useWorkspace } from '../workspace/workspace-context';

/** Always shows where the app is pointed, so nobody writes to the wrong place. */
export function AppHeader(props: {
  info: AppInfo | undefined;
  theme: ReturnType<typeof useTheme>;
  onLookup: () => void;
  sidebarHidden: boolean;
  onToggleSidebar: () => void;
}) {
  const { info, theme, onLookup, sidebarHidden, onToggleSidebar } = props;
  const { connection, table } = useWorkspace();
  return (
    <header className="app-header">
      <button
        type="button"
        className="btn btn-small"
        onClick={onToggleSidebar}
        aria-expanded={!sidebarHidden}
        aria-controls="app-sidebar"
        title={sidebarHidden ? 'Show the connections and tables' : 'Hide the connections and tables'}
        data-testid="toggle-sidebar"
      >
        <span aria-hidden="true">☰</span>
        <span className="visually-hidden">{sidebarHidden ? 'Show sidebar' : 'Hide sidebar'}</span>
      </button>
      <h1 className="app-title">Locksmith</h1>
      {info ? <span className="app-context">{info.mode === 'browser' ? 'browser mode' : `v${info.version}`}</span> : null}
      {connection ? (
        <span
          className="row app-context header-connection"
          data-testid="header-connection"
          title={`${connection.label} · ${connection.endpoint ?? `AWS ${connection.region}`} · ${connection.region}${table ? ` › ${table}` : ''}`}
        >
          <strong className="header-shrink">{connection.label}</strong>
          <ModeBadge connection={connection} />
          <span className="mono header-endpoint header-shrink">{connection.endpoint ?? `AWS ${connection.region}`}</span>
          <span>{connection.region}</span>
          {table ? (
            <>
              <span aria-hidden="true">›</span>
              <strong className="mono header-shrink">{table}</strong>
            </>
          ) : null}
        </span>
      ) : null}
      <span className="spacer" />
      <button type="button" className="btn btn-small" onClick={onLookup} aria-keyshortcuts="Control+K Meta+K">
        Lookup <span className="kbd">Ctrl/⌘ K</span>
      </button>
      <ThemeToggle theme={theme.theme} onChange={theme.setTheme} />
      {theme.error ? <ErrorBox error={theme.error} title="Theme not saved" /> : null}
    </header>
  );
}
