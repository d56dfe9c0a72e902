/** The Web Worker that holds the inspector's rows (see `row-store.ts`); built by Vite as its own chunk. */
import type { LocksmithBridge } from '../../../../shared/contract/api';
import { createHttpBridge } from '../../../../shared/contract/http-client';
import { hostRowStore, type OpenStream, type RowStoreRequest, type RowStoreUpdate } from './row-store';

// The web tsconfig has DOM types, not WebWorker ones: the two members used here, typed by hand.
const scope = self as unknown as { onmessage: ((event: MessageEvent<RowStoreRequest>) => void) | null; postMessage(update: RowStoreUpdate): void };

// One HTTP bridge (one event stream) for the worker's life, as the page has one.
let bridge: LocksmithBridge | undefined;
const openStream: OpenStream = (target, runId, listener) => {
  bridge ??= createHttpBridge({ baseUrl: target.baseUrl, token: target.token, fetch: (url, init) => fetch(url, init), eventSource: (url) => new EventSource(url) });
  return bridge.subscribe('audit.events', { runId }, listener);
};

const handle = hostRowStore((update) => scope.postMessage(update), openStream);
scope.onmessage = (event) => handle(event.data);
