/** The page's end of the row store: a Web Worker where one starts, else the same store in place. */
import { resolveBrowserToken } from '../../../../shared/contract/http-client';
import { hostRowStore, type RowStoreRequest, type RowStoreUpdate } from './row-store';
import { httpStreams } from './row-store-stream';

/** A channel to one row store. */
export interface RowStoreClient {
  readonly post: (request: RowStoreRequest) => void;
  readonly close: () => void;
  /** Where the store can subscribe to a run itself (browser mode); undefined: the page subscribes and passes events on. */
  readonly streamTarget: { readonly baseUrl: string; readonly token: string } | undefined;
}

// Browser mode only: under Electron the events come through the preload's IPC, which a worker cannot reach.
function browserTarget(): RowStoreClient['streamTarget'] {
  if ((window as Window & { locksmith?: unknown }).locksmith !== undefined) return undefined;
  const token = resolveBrowserToken(window);
  return token ? { baseUrl: window.location.origin, token } : undefined;
}

// The same store on the page's own thread, answering asynchronously as a worker would.
function inPlace(onUpdate: (update: RowStoreUpdate) => void): { post: (request: RowStoreRequest) => void; close: () => void } {
  let open = true;
  const handle = hostRowStore((update) => {
    if (open) onUpdate(update);
  }, httpStreams());
  return {
    post: (request) => queueMicrotask(() => open && handle(request)),
    close: () => {
      open = false;
    },
  };
}

/**
 * Opens a row store; `onUpdate` hears every update it sends, asynchronously. A worker that fails
 * to start (a CSP or protocol that refuses it) is replaced by the store in place, which is handed
 * every request made so far: the rows are slower to come, never missing. A worker that fails after
 * answering sends `failed`, and the store answers nothing more (open a new one).
 */
export function openRowStore(onUpdate: (update: RowStoreUpdate) => void): RowStoreClient {
  const streamTarget = browserTarget();
  if (typeof Worker === 'undefined') return { ...inPlace(onUpdate), streamTarget };
  let fallback: ReturnType<typeof inPlace> | undefined;
  let sent: RowStoreRequest[] | undefined = []; // until the worker first answers
  // Vite sees this exact form and builds the worker as its own file (served from 'self', as the CSP asks).
  let worker: Worker;
  try {
    worker = new Worker(new URL('./row-store.worker.ts', import.meta.url), { type: 'module', name: 'row-store' });
  } catch {
    return { ...inPlace(onUpdate), streamTarget };
  }
  worker.onmessage = (event: MessageEvent<RowStoreUpdate>) => {
    sent = undefined;
    onUpdate(event.data);
  };
  let failed = false;
  const broken = (reason: string): void => {
    if (fallback || failed) return;
    worker.terminate();
    if (!sent) {
      // It answered before, so it held rows that were never kept here (they went straight to it):
      // no store can be rebuilt from what the page has. The run is told it failed, not left "running".
      failed = true;
      onUpdate({ type: 'failed', reason: `the row store's worker stopped: ${reason}` });
      return;
    }
    fallback = inPlace(onUpdate);
    for (const request of sent) fallback.post(request);
    sent = undefined;
  };
  worker.onerror = (event: ErrorEvent) => broken(event.message || 'an error with no message');
  // An update that cannot be read is an update lost, as surely as a crash.
  worker.onmessageerror = () => broken('an update could not be read');
  return {
    streamTarget,
    post: (request) => {
      if (fallback) return fallback.post(request);
      if (failed) return;
      sent?.push(request);
      worker.postMessage(request);
    },
    close: () => {
      worker.terminate();
      fallback?.close();
    },
  };
}
