/**
 * Live watches for the app: one stream reader per (connection, table) — a stream shard should have
 * at most two readers, so a second `watch.start` of the same table (another window, another tab)
 * joins the running reader — and every start gets its own `watchId`, its events on `watch.events`.
 * `watch.stop` ends that one: the reader stops when its last watcher leaves, and a page that closes
 * without a word leaves too (no subscriber for IDLE_MS). A late subscriber first gets the status and
 * every open problem with its cause (nothing is lost by subscribing after the fact).
 */
import { randomUUID } from 'node:crypto';
import { err, ok, type Result } from '../../../shared/result';
import type { WatchStarted } from '../../../shared/watch/watch-events';
import { DEFAULT_SETTLE_MS } from '../../../shared/watch/settle';
import type { ConventionContext } from '../context/request-context';
import { openReader, type OpenReaderOptions } from './open-reader';
import { admissionRefusal, readerKeys } from './watch-admission';
import { createWatcherStore, type LiveWatchPublisher } from './watcher-store';

/** How long a watcher may have no subscriber (a page closed before or after subscribing) before it is ended. */
export const IDLE_MS = 30_000;

/** The live-watch service behind `watch.start` / `watch.stop`. */
export interface LiveWatchService {
  /** Starts the watch of the context's table (joining its running reader), read with its convention. */
  start(ctx: ConventionContext): Promise<Result<WatchStarted>>;
  /** Ends one watcher; the table's reader stops with its last watcher. */
  stop(watchId: string): Promise<Result<{ stopped: boolean }>>;
  /** Stream readers running (tests, leak checks). */
  running(): number;
  /** Stops every watch (app shutdown). */
  close(): Promise<void>;
}

/** Options of the service. */
export interface LiveWatchOptions {
  readonly hub: LiveWatchPublisher;
  readonly env?: NodeJS.ProcessEnv;
  /** Shorter windows for tests. */
  readonly settleMs?: number;
  readonly pollMs?: number;
  readonly idleMs?: number;
}

/** Creates the service: the watchers' store (watcher-store.ts), the admission rules (watch-admission.ts), the reader (open-reader.ts). */
export function createLiveWatches(options: LiveWatchOptions): LiveWatchService {
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const store = createWatcherStore(options.hub, options.idleMs ?? IDLE_MS);
  const openOptions: OpenReaderOptions = {
    store,
    settleMs,
    ...(options.env ? { env: options.env } : {}),
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
  };

  return {
    async start(ctx) {
      const { tableKey, key } = readerKeys(ctx);
      let reader = store.readers.get(key);
      // A reader its last watcher just left is stopping (watch.stop is not awaited before a new start): wait, then open anew.
      if (reader?.controller.signal.aborted) {
        await reader.done;
        reader = store.readers.get(key);
      }
      if (!reader || reader.status === 'stopped' || reader.controller.signal.aborted) {
        let pending = store.opening.get(key);
        if (!pending) {
          const refused = admissionRefusal(store, tableKey, ctx.table.name);
          if (refused) return refused;
          pending = openReader(ctx, key, openOptions).finally(() => store.opening.delete(key));
          store.opening.set(key, pending);
        }
        const opened = await pending;
        if (!opened.ok) return opened;
        reader = opened.value;
      }
      const watchId = randomUUID();
      store.join(watchId, reader);
      // Answer once every shard is read: a write made after this answer is seen.
      await reader.ready;
      if (reader.status === 'stopped') {
        await store.leave(watchId, reader.reason ?? 'the watch stopped');
        return err('aws', reader.reason ?? 'the watch stopped');
      }
      // From the answer on (a reader of many shards may take a while to be ready): nobody subscribing ends it.
      store.arm(watchId);
      return ok({
        watchId,
        streamArn: reader.streamArn,
        ...(reader.lockStreamArn === undefined ? {} : { lockStreamArn: reader.lockStreamArn }),
        settleMs,
      });
    },
    async stop(watchId) {
      return ok({ stopped: await store.leave(watchId, 'stopped on request') });
    },
    running: () => store.readers.size,
    async close() {
      const all = [...store.readers.values()];
      for (const r of all) r.controller.abort();
      await Promise.allSettled(all.map((r) => r.done));
    },
  };
}
