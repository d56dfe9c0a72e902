/**
 * Reading a DynamoDB stream: every shard, the children of a split after their parent. Here the shards'
 * state (which are read, done or forgotten) and the rediscovery loop; one shard's reading is
 * shard-reader.ts (paging, expired and trimmed iterators), the patient SDK calls stream-calls.ts.
 * Records are handed over in order per shard; the caller's promise is awaited before the next page
 * (back-pressure keeps memory flat however far behind the checks fall).
 */
import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { StreamChange, WatchNotice } from '../../../shared/watch/watch-events';
import { planShards, type ShardState, type StartPosition } from '../../../shared/watch/shards';
import { createStreamCalls } from './stream-calls';
import { readShard, type ShardReading } from './shard-reader';

/** What the reader needs. */
export interface StreamReaderOptions {
  readonly streams: DynamoDBStreamsClient;
  readonly streamArn: string;
  readonly signal: AbortSignal;
  /** Pause between empty polls of a shard (AWS allows about 5 GetRecords per second per shard, shared by at most 2 readers). */
  readonly pollMs?: number;
  /** How often to look for new shards besides when a shard ends. */
  readonly describeEveryMs?: number;
  readonly onRecords: (changes: readonly StreamChange[]) => Promise<void> | void;
  /** Called once, when every open shard has an iterator. */
  readonly onReady?: () => void;
  /** Gaps: changes the stream no longer holds (trimmed after 24 h) were missed. */
  readonly onNotice?: (notice: WatchNotice) => void;
}

/** Reads the stream until the signal aborts; rejects on an error that retrying cannot fix (the stream was disabled, the table deleted). */
export async function readStream(options: StreamReaderOptions): Promise<void> {
  const { streams, streamArn, signal } = options;
  // Shards read from LATEST start now: what came before is history (the audit's job).
  const startedAt = Date.now();
  const pollMs = options.pollMs ?? 1_000;
  const known = new Map<string, ShardState>();
  const readers = new Set<Promise<void>>();
  let failure: unknown;
  let wake: (() => void) | undefined;
  const nudge = (): void => wake?.();
  const calls = createStreamCalls(streams, streamArn, signal, options.onNotice);
  const reading: ShardReading = {
    calls,
    signal,
    startedAt,
    pollMs,
    onRecords: options.onRecords,
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
  };

  function startShard(shardId: string, position: StartPosition, first?: string): void {
    known.set(shardId, 'reading');
    const run = readShard(reading, shardId, position, first).then(
      (ended) => {
        if (ended) {
          known.set(shardId, 'done');
          nudge();
        }
      },
      (error: unknown) => {
        if (!signal.aborted) failure ??= error;
        nudge();
      },
    );
    readers.add(run);
    void run.finally(() => readers.delete(run));
  }

  async function discover(initial: boolean): Promise<void> {
    const plan = planShards(known, await calls.describe(), initial);
    for (const id of plan.skip) known.set(id, 'done');
    for (const id of plan.forget) known.delete(id);
    if (!initial) {
      for (const s of plan.start) startShard(s.shardId, s.position);
      return;
    }
    // Every iterator first, then start reading: "watching" must mean nothing after it is missed.
    const firsts = await Promise.all(plan.start.map(async (s) => ({ ...s, first: await calls.iterator(s.shardId, s.position) })));
    for (const s of firsts) startShard(s.shardId, s.position, s.first);
  }

  await discover(true);
  options.onReady?.();
  const every = options.describeEveryMs ?? 10_000;
  while (!signal.aborted) {
    if (failure !== undefined) throw failure;
    await new Promise<void>((resolve) => {
      // One listener per wait, removed whichever way the wait ends: days of waits must not pile up listeners.
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, every);
      wake = done;
      signal.addEventListener('abort', done, { once: true });
    });
    if (failure !== undefined) throw failure;
    if (!signal.aborted)
      await discover(false).catch((error: unknown) => {
        if (!signal.aborted) throw error;
      });
  }
  await Promise.allSettled([...readers]);
}
