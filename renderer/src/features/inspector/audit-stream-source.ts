/** Where the row store reads a run's events: Electron's stream port, else browser mode's event stream. */
import type { LocksmithBridge } from '../../../../shared/contract/api';
import { resolveBrowserToken } from '../../../../shared/contract/http-client';
import { err, ok, type Result } from '../../../../shared/result';
import { openStreamPort } from '../../bridge/stream-port';
import type { StreamSource } from './row-store';

/** Opens run `runId`'s events for the row store: a port when the bridge offers one (Electron), else the page's HTTP target. */
export async function auditStreamSource(bridge: LocksmithBridge, runId: string): Promise<Result<StreamSource>> {
  const port = openStreamPort(bridge, window, 'audit.events', { runId });
  if (port) {
    const opened = await port;
    return opened.ok ? ok({ kind: 'port', port: opened.value }) : opened;
  }
  const token = resolveBrowserToken(window);
  if (token) return ok({ kind: 'http', baseUrl: window.location.origin, token });
  return err('internal', 'this page has no route to the audit’s events (neither a stream port nor a browser-mode token)');
}
