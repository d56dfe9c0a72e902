/**
 * The live watches' memory: the running stream readers (one per table and convention), the readers being
 * opened, and the watchers of each; what a subscriber sees (status, open problems, replay on a late
 * subscribe); and how a watcher leaves (stopped, or no subscriber for the idle window).
 */
import type { LiveWatchEvent, LiveWatchStatus, WatchEvent } from '../../../shared/watch/watch-events';
import type { ProblemTracker } from '../../../shared/watch/tracker';
import type { Result } from '../../../shared/result';

/** Where live events go (the bridge's stream hub, narrowed to what this needs). */
export interface LiveWatchPublisher {
  publish(stream: 'watch.events', event: LiveWatchEvent): void;
  setReplay(stream: 'watch.events', replay: (filter: Readonly<Record<string, unknown>>) => readonly LiveWatchEvent[]): void;
  setPresence(stream: 'watch.events', presence: (filter: Readonly<Record<string, unknown>>, listening: number) => void): void;
}

/** One table's stream reader, shared by every watcher of that table. */
export interface Reader {
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

/** What a subscriber to an id that is not (or no longer) a watch sees: not an empty, "no drift" list. */
const ENDED = 'This watch has ended (stopped, or its page was gone); switch Live on again.';

/** The memory of the live watches (see createWatcherStore). */
export interface WatcherStore {
  readonly readers: Map<string, Reader>;
  readonly opening: Map<string, Promise<Result<Reader>>>;
  /** Sends a reader's event to each of its watchers. */
  broadcast(reader: Reader, event: WatchEvent): void;
  /** Sets a reader's status and tells its watchers (a gap stands until the watch ends). */
  setStatus(reader: Reader, next: LiveWatchStatus, why?: string): void;
  /** Adds a watcher of `reader` under `watchId`. */
  join(watchId: string, reader: Reader): void;
  /** Starts the idle clock of a watcher: it ends when nobody subscribes in time. */
  arm(watchId: string): void;
  /** Ends one watcher (telling its own subscribers why); the reader stops with its last watcher. False when there is none. */
  leave(watchId: string, why: string): Promise<boolean>;
  /** Forgets an ended reader and its watchers. */
  retire(reader: Reader): void;
  /** Readers (running or opening; not one already stopping) whose key starts with `tableKey`. */
  readersOf(tableKey: string): number;
}

/** Creates the store and registers its replay and presence with the hub. */
export function createWatcherStore(hub: LiveWatchPublisher, idleMs: number): WatcherStore {
  const readers = new Map<string, Reader>();
  const opening = new Map<string, Promise<Result<Reader>>>();
  const watchers = new Map<string, Watcher>();

  const statusEvent = (watchId: string, status: LiveWatchStatus, reason: string | undefined): LiveWatchEvent => ({
    event: 'status',
    watchId,
    status,
    ...(reason ? { reason } : {}),
  });

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
    else store.arm(filter.watchId);
  });

  const store: WatcherStore = {
    readers,
    opening,
    broadcast(reader, event) {
      for (const watchId of reader.watchers) hub.publish('watch.events', { ...event, watchId });
    },
    setStatus(reader, next, why) {
      // After a gap, "live" would read as "nothing drifted": the gap stands (with what to do) until the watch ends.
      const status = next !== 'stopped' && reader.gap !== undefined ? 'gap' : next;
      const reason = status === 'gap' ? reader.gap : why;
      reader.status = status;
      if (reason !== undefined) reader.reason = reason;
      for (const watchId of reader.watchers) hub.publish('watch.events', statusEvent(watchId, status, reason));
    },
    join(watchId, reader) {
      reader.watchers.add(watchId);
      watchers.set(watchId, { reader });
    },
    arm(watchId) {
      const watcher = watchers.get(watchId);
      if (!watcher) return;
      clearTimeout(watcher.idle);
      watcher.idle = setTimeout(
        () => void store.leave(watchId, `nobody listened for ${Math.round(idleMs / 1000)} s (its page was closed)`),
        idleMs,
      );
      watcher.idle.unref?.();
    },
    async leave(watchId, why) {
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
    },
    retire(reader) {
      if (readers.get(reader.key) === reader) readers.delete(reader.key);
      for (const watchId of reader.watchers) {
        clearTimeout(watchers.get(watchId)?.idle);
        watchers.delete(watchId);
      }
    },
    readersOf(tableKey) {
      const running = [...readers.values()].filter((r) => !r.controller.signal.aborted).map((r) => r.key);
      return [...running, ...opening.keys()].filter((k) => k.startsWith(`${tableKey}|`)).length;
    },
  };
  return store;
}
