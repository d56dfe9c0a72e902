/** The header: app name, the current connection (mode, endpoint, region), the table, Lookup and the theme toggle. */
import type { AppInfo } from '../../../shared/contract';
import { ErrorBox } from '../components/error-box';
import { ModeBadge } from '../features/connections/connection-badges';
import { ThemeToggle } from '../features/settings/theme-toggle';
import type { useTheme } from '../features/settings/use-theme';
import { useWorkspace } from './workspace';

/** Always shows where the app is pointed, so nobody writes to the wrong place. */
export function AppHeader({ info, theme, onLookup }: { info: AppInfo | undefined; theme: ReturnType<typeof useTheme>; onLookup: () => void }) {
  const { connection, table } = useWorkspace();
  return (
    <header className="app-header">
      <h1 className="app-title">Locksmith</h1>
      {info ? <span className="app-context">{info.mode === 'browser' ? 'browser mode' : `v${info.version}`}</span> : null}
      {connection ? (
        <span className="row app-context" data-testid="header-connection">
          <strong>{connection.label}</strong>
          <ModeBadge connection={connection} />
          <span className="mono">{connection.endpoint ?? `AWS ${connection.region}`}</span>
          <span>{connection.region}</span>
          {table ? (
            <>
              <span aria-hidden="true">›</span>
              <strong className="mono">{table}</strong>
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
