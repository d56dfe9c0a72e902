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
import type { LiveWatchEvent, LiveWatchStatus, WatchEvent, WatchStarted } from '../../../shared/watch/watch-events';
import { ProblemTracker } from '../../../shared/watch/tracker';
import { DEFAULT_SETTLE_MS } from '../../../shared/watch/settle';
import type { ConventionContext } from '../context/request-context';
import { createDynamoClient } from '../dynamo/client';
import { toAppError } from '../dynamo/errors';
import { canonicalJson } from '../audit/audit-index';
import { createStreamsClient } from './streams-client';
import { findLockStream, findWatchableStream, watchTable } from './watch';

/** Stream readers running at once (each holds a reader on every shard of its table). */
export const MAX_LIVE_WATCHES = 8;

/** Readers of one table's stream at once: DynamoDB Streams throttles a shard read by more than two. */
export const MAX_READERS_PER_TABLE = 2;

/** How long a watcher may have no subscriber (a page closed before or after subscribing) before it is ended. */
export const IDLE_MS = 30_000;

/** Where live events go (the bridge's stream hub, narrowed to what this needs). */
export interface LiveWatchPublisher {
  publish(stream: 'watch.events', event: LiveWatchEvent): void;
  setReplay(stream: 'watch.events', replay: (filter: Readonly<Record<string, unknown>>) => readonly LiveWatchEvent[]): void;
  setPresence(stream: 'watch.events', presence: (filter: Readonly<Record<string, unknown>>, listening: number) => void): void;
}

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

/** One table's stream reader, shared by every watcher of that table. */
interface Reader {
  readonly key: string;
  readonly streamArn: string;
  readonly lockStreamArn?: string;
  readonly controller: AbortController;
  readonly tracker: ProblemTracker;
  readonly watchers: Set<string>;
  /** Settles once every shard is read (or the reader ended first). */
  ready: Promise<void>;
  done: Promise<void>;
  status: LiveWatchStatus;
  reason?: string;
  /** Why changes were missed, once they were: the status stays `gap` until the watch ends. */
  gap?: string;
}

/** One `watch.start`: its id, its reader, and the timer that ends it while nobody listens. */
interface Watcher {
  readonly reader: Reader;
  idle?: ReturnType<typeof setTimeout>;
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

/** What a subscriber to an id that is not (or no longer) a watch sees: not an empty, "no drift" list. */
const ENDED = 'This watch has ended (stopped, or its page was gone); switch Live on again.';

/** Creates the service. */
export function createLiveWatches(options: LiveWatchOptions): LiveWatchService {
  const readers = new Map<string, Reader>();
  const opening = new Map<string, Promise<Result<Reader>>>();
  const watchers = new Map<string, Watcher>();
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const idleMs = options.idleMs ?? IDLE_MS;
  const { hub } = options;

  const statusEvent = (watchId: string, status: LiveWatchStatus, reason: string | undefined): LiveWatchEvent => ({
    event: 'status',
    watchId,
    status,
    ...(reason ? { reason } : {}),
  });
  const broadcast = (reader: Reader, event: WatchEvent): void => {
    for (const watchId of reader.watchers) hub.publish('watch.events', { ...event, watchId });
  };

  hub.setReplay('watch.events', (filter) => {
    const watchId = typeof filter.watchId === 'string' ? filter.watchId : undefined;
    if (watchId === undefined) return [];
    const watcher = watchers.get(watchId);
    if (!watcher) return [statusEvent(watchId, 'stopped', ENDED)];
    const { reader } = watcher;
    return [
      statusEvent(watchId, reader.status, reader.reason),
      ...reader.tracker.problems().map(({ problem, cause }): LiveWatchEvent => ({ event: 'problem', watchId, problem, cause })),
    ];
  });

  hub.setPresence('watch.events', (filter, listening) => {
    const watcher = typeof filter.watchId === 'string' ? watchers.get(filter.watchId) : undefined;
    if (!watcher || typeof filter.watchId !== 'string') return;
    if (listening > 0) clearTimeout(watcher.idle);
    else arm(filter.watchId, watcher);
  });

  const arm = (watchId: string, watcher: Watcher): void => {
    clearTimeout(watcher.idle);
    watcher.idle = setTimeout(
      () => void leave(watchId, `nobody listened for ${Math.round(idleMs / 1000)} s (its page was closed)`),
      idleMs,
    );
    watcher.idle.unref?.();
  };

  /** Ends one watcher (telling its own subscribers why); the reader stops with its last watcher. */
  const leave = async (watchId: string, why: string): Promise<boolean> => {
    const watcher = watchers.get(watchId);
    if (!watcher) return false;
    clearTimeout(watcher.idle);
    watchers.delete(watchId);
    const { reader } = watcher;
    reader.watchers.delete(watchId);
    hub.publish('watch.events', statusEvent(watchId, 'stopped', why));
    if (reader.watchers.size === 0) {
      reader.controller.abort();
      await reader.done;
    }
    return true;
  };

  const setStatus = (reader: Reader, next: LiveWatchStatus, why?: string): void => {
    // After a gap, "live" would read as "nothing drifted": the gap stands (with what to do) until the watch ends.
    const status = next !== 'stopped' && reader.gap !== undefined ? 'gap' : next;
    const reason = status === 'gap' ? reader.gap : why;
    reader.status = status;
    if (reason !== undefined) reader.reason = reason;
    for (const watchId of reader.watchers) hub.publish('watch.events', statusEvent(watchId, status, reason));
  };

  /** Starts a reader on the table's stream (or refuses, starting nothing). */
  async function open(ctx: ConventionContext, key: string): Promise<Result<Reader>> {
    const { convention } = ctx;
    const table = ctx.table.name;
    // Its own clients: a watch outlives requests, and its long polls should not share the request pool's sockets.
    const client = createDynamoClient(ctx.target, options.env ? { env: options.env } : {});
    try {
      const arn = await findWatchableStream(client, table);
      if (!arn.ok) {
        client.destroy();
        return arn;
      }
      // Locks kept in a table of their own change on that table's stream: read it too, or refuse.
      const lockArn = await findLockStream(client, convention);
      if (!lockArn.ok) {
        client.destroy();
        return lockArn;
      }
      const streams = createStreamsClient(ctx.target, options.env);
      let resolveReady: () => void = () => undefined;
      const reader: Reader = {
        key,
        streamArn: arn.value,
        ...(lockArn.value === undefined ? {} : { lockStreamArn: lockArn.value }),
        controller: new AbortController(),
        tracker: new ProblemTracker(),
        watchers: new Set(),
        ready: new Promise<void>((resolve) => (resolveReady = resolve)),
        done: Promise.resolve(),
        status: 'lagging',
      };
      reader.done = watchTable({
        client,
        streams,
        table: ctx.table,
        convention,
        streamArn: arn.value,
        ...(lockArn.value === undefined ? {} : { lockStreamArn: lockArn.value }),
        signal: reader.controller.signal,
        settleMs,
        ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
        tracker: reader.tracker,
        onEvent: (event) => {
          if (event.event === 'watching') resolveReady();
          else broadcast(reader, event);
        },
        onStatus: (status) => setStatus(reader, status),
        onNotice: (notice) => {
          if (notice.kind !== 'gap') return;
          reader.gap = notice.message;
          setStatus(reader, 'gap');
        },
      })
        .then(
          () => setStatus(reader, 'stopped', 'stopped on request'),
          (error: unknown) => setStatus(reader, 'stopped', toAppError(error, { table }).message),
        )
        .finally(() => {
          resolveReady();
          streams.destroy();
          client.destroy();
          if (readers.get(key) === reader) readers.delete(key);
          for (const watchId of reader.watchers) {
            clearTimeout(watchers.get(watchId)?.idle);
            watchers.delete(watchId);
          }
        });
      readers.set(key, reader);
      return ok(reader);
    } catch (error) {
      client.destroy();
      return { ok: false, error: toAppError(error, { table }) };
    }
  }

  /** Readers (running or opening; not one already stopping) of the stream of the table `tableKey` names. */
  const readersOf = (tableKey: string): number => {
    const running = [...readers.values()].filter((r) => !r.controller.signal.aborted).map((r) => r.key);
    return [...running, ...opening.keys()].filter((k) => k.startsWith(`${tableKey}|`)).length;
  };

  return {
    async start(ctx) {
      // A reader judges records by its convention: a watch joins only one that reads with the very same one.
      const tableKey = JSON.stringify([ctx.connectionId, ctx.table.name]);
      const key = `${tableKey}|${canonicalJson(ctx.convention)}`;
      let reader = readers.get(key);
      // A reader its last watcher just left is stopping (watch.stop is not awaited before a new start): wait, then open anew.
      if (reader?.controller.signal.aborted) {
        await reader.done;
        reader = readers.get(key);
      }
      if (!reader || reader.status === 'stopped' || reader.controller.signal.aborted) {
        let pending = opening.get(key);
        if (!pending) {
          if (readers.size + opening.size >= MAX_LIVE_WATCHES)
            return err('conflict', `${MAX_LIVE_WATCHES} live watches are running already; stop one first.`);
          if (readersOf(tableKey) >= MAX_READERS_PER_TABLE) {
            return err(
              'conflict',
              `${ctx.table.name} is watched live with ${MAX_READERS_PER_TABLE} other conventions already (another window or tab), and a stream takes at most ${MAX_READERS_PER_TABLE} readers: switch Live off there, or audit with the same convention.`,
            );
          }
          pending = open(ctx, key).finally(() => opening.delete(key));
          opening.set(key, pending);
        }
        const opened = await pending;
        if (!opened.ok) return opened;
        reader = opened.value;
      }
      const watchId = randomUUID();
      const watcher: Watcher = { reader };
      reader.watchers.add(watchId);
      watchers.set(watchId, watcher);
      // Answer once every shard is read: a write made after this answer is seen.
      await reader.ready;
      if (reader.status === 'stopped') {
        await leave(watchId, reader.reason ?? 'the watch stopped');
        return err('aws', reader.reason ?? 'the watch stopped');
      }
      // From the answer on (a reader of many shards may take a while to be ready): nobody subscribing ends it.
      arm(watchId, watcher);
      return ok({
        watchId,
        streamArn: reader.streamArn,
        ...(reader.lockStreamArn === undefined ? {} : { lockStreamArn: reader.lockStreamArn }),
        settleMs,
      });
    },
    async stop(watchId) {
      return ok({ stopped: await leave(watchId, 'stopped on request') });
    },
    running: () => readers.size,
    async close() {
      const all = [...readers.values()];
      for (const r of all) r.controller.abort();
      await Promise.allSettled(all.map((r) => r.done));
    },
  };
}
