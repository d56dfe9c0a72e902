/**
 * Live watches for the app: `watch.start` starts one per (connection, table) — a stream shard should
 * have at most two readers, so a second start of the same table joins the running watch — and its
 * events go to the `watch.events` stream. A late subscriber first gets the status and every open
 * problem with its cause (nothing is lost by subscribing after the fact).
 */
import { randomUUID } from 'node:crypto';
import { err, ok, type Result } from '../../../shared/result';
import type { LiveWatchEvent, LiveWatchStatus, WatchStarted } from '../../../shared/watch/watch-events';
import { ProblemTracker } from '../../../shared/watch/tracker';
import { DEFAULT_SETTLE_MS } from '../../../shared/watch/settle';
import type { ConventionContext } from '../context/request-context';
import { createDynamoClient } from '../dynamo/client';
import { toAppError } from '../dynamo/errors';
import { createStreamsClient } from './streams-client';
import { findLockStream, findWatchableStream, watchTable } from './watch';

/** Watches running at once (each holds a reader on every shard of its table). */
export const MAX_LIVE_WATCHES = 8;

/** Where live events go (the bridge's stream hub, narrowed to what this needs). */
export interface LiveWatchPublisher {
  publish(stream: 'watch.events', event: LiveWatchEvent): void;
  setReplay(stream: 'watch.events', replay: (filter: Readonly<Record<string, unknown>>) => readonly LiveWatchEvent[]): void;
}

/** The live-watch service behind `watch.start` / `watch.stop`. */
export interface LiveWatchService {
  /** Starts (or joins) the watch of the context's table, read with its convention. */
  start(ctx: ConventionContext): Promise<Result<WatchStarted>>;
  stop(watchId: string): Promise<Result<{ stopped: boolean }>>;
  /** Stops every watch (app shutdown). */
  close(): Promise<void>;
}

interface LiveWatch {
  readonly key: string;
  readonly started: WatchStarted;
  readonly controller: AbortController;
  readonly tracker: ProblemTracker;
  readonly done: Promise<void>;
  status: LiveWatchStatus;
  reason?: string;
  /** Why changes were missed, once they were: the status stays `gap` until the watch ends. */
  gap?: string;
}

/** Options of the service. */
export interface LiveWatchOptions {
  readonly hub: LiveWatchPublisher;
  readonly env?: NodeJS.ProcessEnv;
  /** Shorter windows for tests. */
  readonly settleMs?: number;
  readonly pollMs?: number;
}

/** Creates the service. */
export function createLiveWatches(options: LiveWatchOptions): LiveWatchService {
  const watches = new Map<string, LiveWatch>();
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;

  options.hub.setReplay('watch.events', (filter) => {
    const watch = typeof filter.watchId === 'string' ? watches.get(filter.watchId) : undefined;
    if (!watch) return [];
    const watchId = watch.started.watchId;
    const status: LiveWatchEvent = { event: 'status', watchId, status: watch.status, ...(watch.reason ? { reason: watch.reason } : {}) };
    return [status, ...watch.tracker.problems().map(({ problem, cause }): LiveWatchEvent => ({ event: 'problem', watchId, problem, cause }))];
  });

  const setStatus = (watch: LiveWatch, next: LiveWatchStatus, why?: string): void => {
    // After a gap, "live" would read as "nothing drifted": the gap stands (with what to do) until the watch ends.
    const status = next !== 'stopped' && watch.gap !== undefined ? 'gap' : next;
    const reason = status === 'gap' ? watch.gap : why;
    watch.status = status;
    if (reason !== undefined) watch.reason = reason;
    options.hub.publish('watch.events', { event: 'status', watchId: watch.started.watchId, status, ...(reason ? { reason } : {}) });
  };

  return {
    async start(ctx) {
      const { convention } = ctx;
      const table = ctx.table.name;
      const key = `${ctx.connectionId}|${table}`;
      const running = [...watches.values()].find((w) => w.key === key && w.status !== 'stopped');
      if (running) return ok(running.started);
      if (watches.size >= MAX_LIVE_WATCHES) return err('conflict', `${MAX_LIVE_WATCHES} live watches are running already; stop one first.`);
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
        const controller = new AbortController();
        const started: WatchStarted = { watchId: randomUUID(), streamArn: arn.value, ...(lockArn.value === undefined ? {} : { lockStreamArn: lockArn.value }), settleMs };
        const tracker = new ProblemTracker();
        const watchId = started.watchId;
        let resolveReady: () => void = () => undefined;
        const ready = new Promise<void>((resolve) => (resolveReady = resolve));
        const watch: LiveWatch = {
          key,
          started,
          controller,
          tracker,
          status: 'lagging',
          done: watchTable({
            client,
            streams,
            table: ctx.table,
            convention,
            streamArn: arn.value,
            ...(lockArn.value === undefined ? {} : { lockStreamArn: lockArn.value }),
            signal: controller.signal,
            settleMs,
            ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
            tracker,
            onEvent: (event) => {
              if (event.event === 'watching') resolveReady();
              else options.hub.publish('watch.events', { ...event, watchId });
            },
            onStatus: (status) => setStatus(watch, status),
            onNotice: (notice) => {
              if (notice.kind !== 'gap') return;
              watch.gap = notice.message;
              setStatus(watch, 'gap');
            },
          })
            .then(
              () => setStatus(watch, 'stopped', 'stopped on request'),
              (error: unknown) => setStatus(watch, 'stopped', toAppError(error, { table }).message),
            )
            .finally(() => {
              resolveReady();
              streams.destroy();
              client.destroy();
              watches.delete(watchId);
            }),
        };
        watches.set(watchId, watch);
        // Answer once every shard is read: a write made after this answer is seen.
        await ready;
        return watch.status === 'stopped' ? err('aws', watch.reason ?? 'the watch stopped') : ok(started);
      } catch (error) {
        client.destroy();
        return { ok: false, error: toAppError(error, { table }) };
      }
    },
    async stop(watchId) {
      const watch = watches.get(watchId);
      if (!watch) return ok({ stopped: false });
      watch.controller.abort();
      await watch.done;
      return ok({ stopped: true });
    },
    async close() {
      const all = [...watches.values()];
      for (const w of all) w.controller.abort();
      await Promise.allSettled(all.map((w) => w.done));
    },
  };
}
