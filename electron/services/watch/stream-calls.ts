/**
 * The DynamoDB Streams calls of one stream reader, each patient with throttling and transient errors:
 * DescribeStream (every shard, paged), GetShardIterator (a trimmed position falls back to TRIM_HORIZON
 * with a gap notice) and GetRecords.
 */
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type DynamoDBStreamsClient,
  type GetRecordsCommandOutput,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { WatchNotice } from '../../../shared/watch/watch-events';
import type { ShardInfo, StartPosition } from '../../../shared/watch/shards';
import { backoffDelay, sleep } from '../dynamo/retry';
import { isRetryable } from '../dynamo/errors';

const THROTTLES = new Set([
  'LimitExceededException',
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
]);

/** The name of a thrown error ('' for anything else). */
export function errorName(error: unknown): string {
  return error instanceof Error ? error.name : '';
}

/** The notice of records trimmed before they could be read. */
export function trimmedNotice(shardId: string): WatchNotice {
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

/** Where a shard iterator starts: a position, or right after a sequence number. */
export type IteratorPosition = StartPosition | { after: string };

/** One stream's calls (see createStreamCalls). */
export interface StreamCalls {
  /** Every shard of the stream. */
  describe(): Promise<ShardInfo[]>;
  iterator(shardId: string, position: IteratorPosition): Promise<string | undefined>;
  /** An iterator at `position`; one the stream has trimmed (a gap over 24 h) falls back to TRIM_HORIZON, with a notice. */
  resume(shardId: string, position: IteratorPosition): Promise<string | undefined>;
  /** One page of records. */
  records(iterator: string): Promise<GetRecordsCommandOutput>;
}

/** The calls of the stream `streamArn`, ended by `signal`. */
export function createStreamCalls(
  streams: DynamoDBStreamsClient,
  streamArn: string,
  signal: AbortSignal,
  onNotice?: (notice: WatchNotice) => void,
): StreamCalls {
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

  async function iterator(shardId: string, position: IteratorPosition): Promise<string | undefined> {
    const request =
      typeof position === 'string'
        ? { StreamArn: streamArn, ShardId: shardId, ShardIteratorType: position }
        : { StreamArn: streamArn, ShardId: shardId, ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' as const, SequenceNumber: position.after };
    return (await patiently(() => streams.send(new GetShardIteratorCommand(request), { abortSignal: signal }))).ShardIterator;
  }

  /** An iterator at `position`; one the stream has trimmed (a gap over 24 h) falls back to TRIM_HORIZON, with a notice. */
  async function resume(shardId: string, position: IteratorPosition): Promise<string | undefined> {
    try {
      return await iterator(shardId, position);
    } catch (error) {
      if (errorName(error) !== 'TrimmedDataAccessException' || position === 'TRIM_HORIZON' || signal.aborted) throw error;
      onNotice?.(trimmedNotice(shardId));
      return iterator(shardId, 'TRIM_HORIZON');
    }
  }

  const records = (iterator: string): Promise<GetRecordsCommandOutput> =>
    patiently(() => streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }), { abortSignal: signal }));
  return { describe, iterator, resume, records };
}
