/** The page's end of the row store: a Web Worker where the browser has them, else the same store in place. */
import { resolveBrowserToken } from '../../../../shared/contract/http-client';
import { hostRowStore, type RowStoreRequest, type RowStoreUpdate } from './row-store';

/** A channel to one row store. */
export interface RowStoreClient {
  readonly post: (request: RowStoreRequest) => void;
  readonly close: () => void;
  /** Where the store can subscribe to a run itself (browser mode, in a worker); undefined: the page subscribes and passes events on. */
  readonly streamTarget: { readonly baseUrl: string; readonly token: string } | undefined;
}

// Browser mode only: under Electron the events come through the preload's IPC, which a worker cannot reach.
function browserTarget(): RowStoreClient['streamTarget'] {
  if ((window as Window & { locksmith?: unknown }).locksmith !== undefined) return undefined;
  const token = resolveBrowserToken(window);
  return token ? { baseUrl: window.location.origin, token } : undefined;
}

/** Opens a row store; `onUpdate` hears every update it sends, asynchronously. */
export function openRowStore(onUpdate: (update: RowStoreUpdate) => void): RowStoreClient {
  if (typeof Worker !== 'undefined') {
    // Vite sees this exact form and builds the worker as its own file (served from 'self', as the CSP asks).
    const worker = new Worker(new URL('./row-store.worker.ts', import.meta.url), { type: 'module', name: 'row-store' });
    worker.onmessage = (event: MessageEvent<RowStoreUpdate>) => onUpdate(event.data);
    return { post: (request) => worker.postMessage(request), close: () => worker.terminate(), streamTarget: browserTarget() };
  }
  let open = true;
  const handle = hostRowStore((update) => {
    if (open) onUpdate(update);
  });
  return {
    streamTarget: undefined,
    post: (request) => queueMicrotask(() => open && handle(request)),
    close: () => {
      open = false;
    },
  };
}
