/**
 * Reading a DynamoDB stream: every shard, the children of a split after their parent, GetRecords
 * paging, expired iterators renewed after the last record read (or, before any record, from
 * TRIM_HORIZON skipping what predates the watch: LATEST again would skip the gap silently),
 * trimmed positions resumed at TRIM_HORIZON with a gap notice, throttling backed off with jitter.
 * Records are handed over in order per shard; the caller's promise is awaited before the next page
 * (back-pressure keeps memory flat however far behind the checks fall).
 */
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type DynamoDBStreamsClient,
  type _Record as SdkRecord,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { Item } from '../../../shared/model';
import type { StreamChange, WatchNotice } from '../../../shared/watch/watch-events';
import { planShards, type ShardInfo, type ShardState, type StartPosition } from '../../../shared/watch/shards';
import { backoffDelay, sleep } from '../dynamo/retry';
import { isRetryable } from '../dynamo/errors';

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

/** Stream records live 24 hours. */
export const STREAM_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * When a shard read from LATEST must be re-read from TRIM_HORIZON, records older than the watch's
 * start minus this are skipped: the record time is AWS's clock, rounded, and this machine's clock
 * may be off. Re-checking a few records too many is harmless (re-checks read consistently).
 */
export const START_SLACK_MS = 5 * 60 * 1000;

const THROTTLES = new Set([
  'LimitExceededException',
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
]);

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : '';
}

/** SDK record → the pure shape the watch logic reads. */
export function toStreamChange(record: SdkRecord): StreamChange | undefined {
  const d = record.dynamodb;
  const name = record.eventName;
  if (!d?.Keys || !d.SequenceNumber || (name !== 'INSERT' && name !== 'MODIFY' && name !== 'REMOVE')) return undefined;
  const at = d.ApproximateCreationDateTime instanceof Date ? d.ApproximateCreationDateTime.toISOString() : new Date().toISOString();
  return {
    eventName: name,
    keys: d.Keys as Item,
    ...(d.OldImage ? { oldImage: d.OldImage as Item } : {}),
    ...(d.NewImage ? { newImage: d.NewImage as Item } : {}),
    at,
    sequenceNumber: d.SequenceNumber,
  };
}

function trimmedNotice(shardId: string): WatchNotice {
  return {
    kind: 'gap',
    message: `shard ${shardId}: records older than the stream's 24 h retention were trimmed before they could be read; changes in that gap were missed — run an audit`,
  };
}

function shardInfo(shard: Shard): ShardInfo | undefined {
  if (!shard.ShardId) return undefined;
  return {
    shardId: shard.ShardId,
    ...(shard.ParentShardId ? { parentShardId: shard.ParentShardId } : {}),
    closed: shard.SequenceNumberRange?.EndingSequenceNumber !== undefined,
  };
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

  /** Calls `call`, backing off on throttling and transient errors (attempts reset after a success). */
  async function patiently<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (signal.aborted) throw error;
        const throttled = THROTTLES.has(errorName(error));
        if (!throttled && (!isRetryable(error) || attempt >= 10)) throw error;
        await sleep(backoffDelay(Math.min(attempt, 8), { maxAttempts: Infinity, baseMs: 100, capMs: 10_000 }), signal);
      }
    }
  }

  async function describe(): Promise<ShardInfo[]> {
    const shards: ShardInfo[] = [];
    let start: string | undefined;
    do {
      const out = await patiently(() =>
        streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }), { abortSignal: signal }),
      );
      const d = out.StreamDescription;
      for (const s of d?.Shards ?? []) {
        const info = shardInfo(s);
        if (info) shards.push(info);
      }
      start = d?.LastEvaluatedShardId;
    } while (start);
    return shards;
  }

  async function iterator(shardId: string, position: StartPosition | { after: string }): Promise<string | undefined> {
    const request =
      typeof position === 'string'
        ? { StreamArn: streamArn, ShardId: shardId, ShardIteratorType: position }
        : { StreamArn: streamArn, ShardId: shardId, ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' as const, SequenceNumber: position.after };
    return (await patiently(() => streams.send(new GetShardIteratorCommand(request), { abortSignal: signal }))).ShardIterator;
  }

  /** An iterator at `position`; one the stream has trimmed (a gap over 24 h) falls back to TRIM_HORIZON, with a notice. */
  async function resume(shardId: string, position: StartPosition | { after: string }): Promise<string | undefined> {
    try {
      return await iterator(shardId, position);
    } catch (error) {
      if (errorName(error) !== 'TrimmedDataAccessException' || position === 'TRIM_HORIZON' || signal.aborted) throw error;
      options.onNotice?.(trimmedNotice(shardId));
      return iterator(shardId, 'TRIM_HORIZON');
    }
  }

  async function readShard(shardId: string, position: StartPosition, first: string | undefined): Promise<void> {
    let current = first ?? (await iterator(shardId, position));
    let last: string | undefined;
    // Set when a LATEST shard is re-read from TRIM_HORIZON: records before the watch started are skipped.
    let skipBefore: number | undefined;
    let lastRead = Date.now();
    while (current !== undefined && !signal.aborted) {
      let out;
      try {
        out = await patiently(() => streams.send(new GetRecordsCommand({ ShardIterator: current, Limit: 1000 }), { abortSignal: signal }));
      } catch (error) {
        const name = errorName(error);
        if (signal.aborted) return;
        if (name === 'ExpiredIteratorException') {
          // Iterators live 15 minutes: resume right after the last record handed over. Before any record,
          // LATEST again would skip every write of the gap (a laptop asleep): read from the shard's start instead.
          if (last !== undefined) current = await resume(shardId, { after: last });
          else {
            if (position === 'LATEST') skipBefore = startedAt - START_SLACK_MS;
            current = await resume(shardId, 'TRIM_HORIZON');
          }
          continue;
        }
        if (name === 'TrimmedDataAccessException') {
          options.onNotice?.(trimmedNotice(shardId));
          current = await iterator(shardId, 'TRIM_HORIZON');
          continue;
        }
        throw error;
      }
      const now = Date.now();
      if (now - lastRead > STREAM_RETENTION_MS) {
        options.onNotice?.({
          kind: 'gap',
          message: `the watch resumes after ${Math.round((now - lastRead) / 3_600_000)} h; the stream keeps records 24 h, so changes before that were missed — run an audit`,
        });
      }
      lastRead = now;
      const records = out.Records ?? [];
      let fresh = records;
      if (skipBefore !== undefined) {
        const since = skipBefore;
        // Records of a shard come in order: once one is past the watch's start, the rest are too.
        const at = records.findIndex(
          (r) => !(r.dynamodb?.ApproximateCreationDateTime instanceof Date) || r.dynamodb.ApproximateCreationDateTime.getTime() >= since,
        );
        fresh = at < 0 ? [] : records.slice(at);
        if (at >= 0) skipBefore = undefined;
      }
      const changes = fresh.map(toStreamChange).filter((c): c is StreamChange => c !== undefined);
      if (changes.length > 0) await options.onRecords(changes);
      last = records.at(-1)?.dynamodb?.SequenceNumber ?? last;
      current = out.NextShardIterator;
      // A full page means more is waiting: read on at once (paging); otherwise poll politely.
      if (current !== undefined && records.length === 0) await sleep(pollMs, signal).catch(() => undefined);
    }
    if (!signal.aborted) {
      known.set(shardId, 'done');
      nudge();
    }
  }

  function startShard(shardId: string, position: StartPosition, first?: string): void {
    known.set(shardId, 'reading');
    const run = readShard(shardId, position, first).catch((error: unknown) => {
      if (!signal.aborted) failure ??= error;
      nudge();
    });
    readers.add(run);
    void run.finally(() => readers.delete(run));
  }

  async function discover(initial: boolean): Promise<void> {
    const plan = planShards(known, await describe(), initial);
    for (const id of plan.skip) known.set(id, 'done');
    for (const id of plan.forget) known.delete(id);
    if (!initial) {
      for (const s of plan.start) startShard(s.shardId, s.position);
      return;
    }
    // Every iterator first, then start reading: "watching" must mean nothing after it is missed.
    const firsts = await Promise.all(plan.start.map(async (s) => ({ ...s, first: await iterator(s.shardId, s.position) })));
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
