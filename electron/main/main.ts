/**
 * The Electron main process: registers the app:// protocol, secures the session, composes the
 * services, wires IPC from the contract and opens one hardened window. Credentials live here only.
 */
import { join } from 'node:path';
import { app, BrowserWindow, protocol, session, shell } from 'electron';
import type { WebContents } from 'electron';
import { formatStartupHash } from '../../shared/contract/startup';
import { composeApp } from '../bridge/compose';
import { useChildLauncher } from '../services/export/run-export-audit';
import { createAppProtocolHandler } from './app-protocol';
import { utilityLauncher } from './export-child';
import { registerIpc } from './ipc';
import { APP_SCHEME, hardenContents, openExternalSafely, secureSession } from './security';
import { appEntryUrl, showWhenReady, windowChrome } from './window';

// Must happen before `ready`: app:// behaves like https (secure context, fetch, CSP 'self').
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

// Only one instance: a second launch focuses the first window instead of starting another sandbox.
if (!app.requestSingleInstanceLock()) app.quit();

const windows = new Set<number>();
const openExternal = (url: string): Promise<void> => shell.openExternal(url);

app.on('web-contents-created', (_event, contents) => hardenContents(contents, openExternal));

async function start(): Promise<void> {
  await app.whenReady();
  const root = app.getAppPath();
  protocol.handle(APP_SCHEME, createAppProtocolHandler(join(root, 'dist', 'renderer')));
  secureSession(session.defaultSession);
  // The export audit's DuckDB child: a utility process (the packaged app's runAsNode fuse is off).
  useChildLauncher(utilityLauncher);

  const composed = composeApp({
    mode: 'electron',
    version: app.getVersion(),
    openLink: async (url) => {
      await openExternalSafely(url, openExternal);
    },
  });
  registerIpc({
    dispatch: composed.dispatch,
    hub: composed.hub,
    log: composed.log,
    isKnownContents: (contents: WebContents) => windows.has(contents.id),
  });

  const startup = await composed.prepareStartup();
  // The Electron security checklist, literally: isolated, sandboxed, no Node, web security on.
  const window = new BrowserWindow({
    ...windowChrome(),
    webPreferences: {
      preload: join(root, 'dist-electron', 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
    },
  });
  windows.add(window.webContents.id);
  const id = window.webContents.id;
  window.on('closed', () => windows.delete(id));
  showWhenReady(window);
  await window.loadURL(
    appEntryUrl(
      formatStartupHash({
        ...(startup?.connectionId ? { connection: startup.connectionId } : {}),
        ...(startup?.table ? { table: startup.table } : {}),
      }),
    ),
  );

  app.on('second-instance', () => {
    if (window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    // Stop the JVM before exiting, or it outlives us.
    void composed.shutdown().finally(() => app.quit());
  });
  app.on('window-all-closed', () => app.quit());
}

start().catch((error: unknown) => {
  process.stderr.write(`Locksmith failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  app.exit(1);
});
