/** A run's audit events from either source, for whichever thread holds the row store. */
import type { AuditEvent } from '../../../../shared/contract';
import type { LocksmithBridge } from '../../../../shared/contract/api';
import { createHttpBridge } from '../../../../shared/contract/http-client';
import type { OpenStream } from './row-store-host';

const EVENT_TYPES: ReadonlySet<unknown> = new Set<AuditEvent['type']>(['delta', 'progress', 'done']);

// The shape every event of the run has; the rows inside are read by the store's decoder, which throws (and fails the store) on a bad one.
function isRunEvent(data: unknown, runId: string): data is AuditEvent {
  const event = data as { readonly type?: unknown; readonly runId?: unknown } | null;
  return typeof event === 'object' && event !== null && EVENT_TYPES.has(event.type) && event.runId === runId;
}

/**
 * An {@link OpenStream} over browser mode's HTTP bridge (one event stream, opened with the first
 * subscription) or over a MessagePort from Electron's main process.
 */
export function openStreams(): OpenStream {
  let bridge: LocksmithBridge | undefined;
  return (source, runId, listener) => {
    if (source.kind === 'port') {
      const { port } = source;
      // Main writes only this run's events into the port; the check keeps a stray message from becoming a row.
      port.onmessage = (message: MessageEvent<unknown>) => {
        if (isRunEvent(message.data, runId)) listener(message.data);
      };
      return () => {
        port.onmessage = null;
        port.close();
      };
    }
    bridge ??= createHttpBridge({
      baseUrl: source.baseUrl,
      token: source.token,
      fetch: (url, init) => fetch(url, init),
      eventSource: (url) => new EventSource(url),
    });
    return bridge.subscribe('audit.events', { runId }, listener);
  };
}
