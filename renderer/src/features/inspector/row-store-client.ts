/** The page's end of the row store: a Web Worker where one starts, else the same store in place. */
import type { RowStoreRequest, RowStoreUpdate } from './row-store';
import { hostRowStore } from './row-store-host';
import { openStreams } from './row-store-stream';

/** A channel to one row store. */
export interface RowStoreClient {
  readonly post: (request: RowStoreRequest) => void;
  readonly close: () => void;
}

// The same store on the page's own thread, answering asynchronously as a worker would.
function inPlace(onUpdate: (update: RowStoreUpdate) => void): RowStoreClient {
  let open = true;
  const handle = hostRowStore((update) => {
    if (open) onUpdate(update);
  }, openStreams());
  return {
    post: (request) => queueMicrotask(() => open && handle(request)),
    close: () => {
      open = false;
    },
  };
}

// A stream's MessagePort is moved, not copied, by `postMessage`: it must go to the worker in the same message.
function transferOf(request: RowStoreRequest): Transferable[] {
  return request.type === 'stream' && request.source.kind === 'port' ? [request.source.port] : [];
}

/**
 * Opens a row store; `onUpdate` hears every update it sends, asynchronously. A worker that fails
 * to start (a CSP or protocol that refuses it) is replaced by the store in place, which is handed
 * every request made so far: the rows are slower to come, never missing. A stream's port goes to the
 * worker only once it has answered, so a worker that never started cannot take it along. A worker
 * that fails after answering sends `failed`, and the store answers nothing more (open a new one).
 */
export function openRowStore(onUpdate: (update: RowStoreUpdate) => void): RowStoreClient {
  if (typeof Worker === 'undefined') return inPlace(onUpdate);
  let fallback: RowStoreClient | undefined;
  let sent: RowStoreRequest[] | undefined = []; // until the worker first answers
  let held: RowStoreRequest[] = []; // requests with a port, until the worker first answers
  // Vite sees this exact form and builds the worker as its own file (served from 'self', as the CSP asks).
  let worker: Worker;
  try {
    worker = new Worker(new URL('./row-store.worker.ts', import.meta.url), { type: 'module', name: 'row-store' });
  } catch {
    return inPlace(onUpdate);
  }
  const toWorker = (request: RowStoreRequest): void => worker.postMessage(request, transferOf(request));
  worker.onmessage = (event: MessageEvent<RowStoreUpdate>) => {
    if (sent) {
      sent = undefined;
      for (const request of held) toWorker(request);
      held = [];
    }
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
    held = [];
  };
  worker.onerror = (event: ErrorEvent) => broken(event.message || 'an error with no message');
  // An update that cannot be read is an update lost, as surely as a crash.
  worker.onmessageerror = () => broken('an update could not be read');
  return {
    post: (request) => {
      if (fallback) return fallback.post(request);
      if (failed) {
        if (request.type === 'stream' && request.source.kind === 'port') request.source.port.close();
        return;
      }
      if (!sent) return toWorker(request);
      sent.push(request);
      if (transferOf(request).length > 0) held.push(request);
      else toWorker(request);
    },
    close: () => {
      worker.terminate();
      fallback?.close();
      for (const request of held) if (request.type === 'stream' && request.source.kind === 'port') request.source.port.close();
      held = [];
    },
  };
}
