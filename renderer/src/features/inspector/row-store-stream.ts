/** A run's audit events over browser mode's HTTP bridge, for whichever thread holds the row store. */
import type { LocksmithBridge } from '../../../../shared/contract/api';
import { createHttpBridge } from '../../../../shared/contract/http-client';
import type { OpenStream } from './row-store';

/** An {@link OpenStream} over one HTTP bridge (one event stream), opened with the first subscription. */
export function httpStreams(): OpenStream {
  let bridge: LocksmithBridge | undefined;
  return (target, runId, listener) => {
    bridge ??= createHttpBridge({
      baseUrl: target.baseUrl,
      token: target.token,
      fetch: (url, init) => fetch(url, init),
      eventSource: (url) => new EventSource(url),
    });
    return bridge.subscribe('audit.events', { runId }, listener);
  };
}
