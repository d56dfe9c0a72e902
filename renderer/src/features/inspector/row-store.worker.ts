/** The Web Worker that holds the inspector's rows (see `row-store.ts`); built by Vite as its own chunk. */
import type { RowStoreRequest, RowStoreUpdate } from './row-store';
import { hostRowStore } from './row-store-host';
import { openStreams } from './row-store-stream';

// The web tsconfig has DOM types, not WebWorker ones: the two members used here, typed by hand.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<RowStoreRequest>) => void) | null;
  postMessage(update: RowStoreUpdate): void;
};
const handle = hostRowStore((update) => scope.postMessage(update), openStreams());
scope.onmessage = (event) => handle(event.data);
