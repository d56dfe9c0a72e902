/**
 * Reading one shard of a stream: GetRecords paging, expired iterators renewed after the last record read
 * (or, before any record, from TRIM_HORIZON skipping what predates the watch), trimmed positions resumed
 * with a gap notice. Records are handed over in order; the caller's promise is awaited before the next page.
 */
import type { StreamChange, WatchNotice } from '../../../shared/watch/watch-events';
import type { StartPosition } from '../../../shared/watch/shards';
import type { Item } from '../../../shared/model';
import type { _Record as SdkRecord } from '@aws-sdk/client-dynamodb-streams';
import { sleep } from '../dynamo/retry';
import { errorName, trimmedNotice, type StreamCalls } from './stream-calls';

/** Stream records live 24 hours. */
export const STREAM_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * When a shard read from LATEST must be re-read from TRIM_HORIZON, records older than the watch's
 * start minus this are skipped: the record time is AWS's clock, rounded, and this machine's clock
 * may be off. Re-checking a few records too many is harmless (re-checks read consistently).
 */
export const START_SLACK_MS = 5 * 60 * 1000;

/** What every shard of one reading shares. */
export interface ShardReading {
  readonly calls: StreamCalls;
  readonly signal: AbortSignal;
  /** When the watch started (shards read from LATEST start then). */
  readonly startedAt: number;
  readonly pollMs: number;
  readonly onRecords: (changes: readonly StreamChange[]) => Promise<void> | void;
  readonly onNotice?: (notice: WatchNotice) => void;
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

/** Reads one shard from `position` (or the iterator `first`) to its end or the signal; false when aborted before its end. */
export async function readShard(
  reading: ShardReading,
  shardId: string,
  position: StartPosition,
  first: string | undefined,
): Promise<boolean> {
  const { calls, signal, startedAt, pollMs } = reading;
  let current = first ?? (await calls.iterator(shardId, position));
  let last: string | undefined;
  // Set when a LATEST shard is re-read from TRIM_HORIZON: records before the watch started are skipped.
  let skipBefore: number | undefined;
  let lastRead = Date.now();
  while (current !== undefined && !signal.aborted) {
    let out;
    try {
      out = await calls.records(current);
    } catch (error) {
      const name = errorName(error);
      if (signal.aborted) return false;
      if (name === 'ExpiredIteratorException') {
        // Iterators live 15 minutes: resume right after the last record handed over. Before any record,
        // LATEST again would skip every write of the gap (a laptop asleep): read from the shard's start instead.
        if (last !== undefined) current = await calls.resume(shardId, { after: last });
        else {
          if (position === 'LATEST') skipBefore = startedAt - START_SLACK_MS;
          current = await calls.resume(shardId, 'TRIM_HORIZON');
        }
        continue;
      }
      if (name === 'TrimmedDataAccessException') {
        reading.onNotice?.(trimmedNotice(shardId));
        current = await calls.iterator(shardId, 'TRIM_HORIZON');
        continue;
      }
      throw error;
    }
    const now = Date.now();
    if (now - lastRead > STREAM_RETENTION_MS) {
      reading.onNotice?.({
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
    if (changes.length > 0) await reading.onRecords(changes);
    last = records.at(-1)?.dynamodb?.SequenceNumber ?? last;
    current = out.NextShardIterator;
    // A full page means more is waiting: read on at once (paging); otherwise poll politely.
    if (current !== undefined && records.length === 0) await sleep(pollMs, signal).catch(() => undefined);
  }
  return !signal.aborted;
}
