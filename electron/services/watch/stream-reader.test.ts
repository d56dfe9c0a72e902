import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  LimitExceededException,
  ResourceNotFoundException,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamChange } from '../../../shared/watch/watch-events';
import { readStream } from './stream-reader';

// AWS itself cannot run here: shard splits, expired iterators and throttling are injected at the SDK edge.
const streams = mockClient(DynamoDBStreamsClient);
afterEach(() => streams.reset());

const record = (seq: string): _Record => ({ eventName: 'INSERT', dynamodb: { Keys: { PK: { S: `K${seq}` } }, NewImage: { PK: { S: `K${seq}` } }, SequenceNumber: seq, ApproximateCreationDateTime: new Date('2026-12-01T10:00:00Z') } });
const meta = { $metadata: {} };

describe('readStream: shards, splits, expiry, throttling', () => {
  it('reads a shard to its end through throttling and an expired iterator, then both children of its split', async () => {
    streams
      .on(DescribeStreamCommand)
      .resolvesOnce({ StreamDescription: { Shards: [{ ShardId: 'A', SequenceNumberRange: { StartingSequenceNumber: '1' } }] } })
      .resolves({
        StreamDescription: {
          Shards: [
            { ShardId: 'A', SequenceNumberRange: { StartingSequenceNumber: '1', EndingSequenceNumber: '2' } },
            { ShardId: 'B', ParentShardId: 'A', SequenceNumberRange: { StartingSequenceNumber: '3' } },
            { ShardId: 'C', ParentShardId: 'A', SequenceNumberRange: { StartingSequenceNumber: '4' } },
          ],
        },
      });
    streams.on(GetShardIteratorCommand, { ShardId: 'A', ShardIteratorType: 'LATEST' }).resolves({ ShardIterator: 'itA0' });
    streams.on(GetShardIteratorCommand, { ShardId: 'A', ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: '1' }).resolves({ ShardIterator: 'itA2' });
    streams.on(GetShardIteratorCommand, { ShardId: 'B', ShardIteratorType: 'TRIM_HORIZON' }).resolves({ ShardIterator: 'itB0' });
    streams.on(GetShardIteratorCommand, { ShardId: 'C', ShardIteratorType: 'TRIM_HORIZON' }).resolves({ ShardIterator: 'itC0' });
    streams
      .on(GetRecordsCommand, { ShardIterator: 'itA0' })
      .rejectsOnce(new LimitExceededException({ message: 'slow down', ...meta }))
      .resolves({ Records: [record('1')], NextShardIterator: 'itA1' });
    streams.on(GetRecordsCommand, { ShardIterator: 'itA1' }).rejects(new ExpiredIteratorException({ message: 'expired', ...meta }));
    streams.on(GetRecordsCommand, { ShardIterator: 'itA2' }).resolves({ Records: [record('2')] });
    streams.on(GetRecordsCommand, { ShardIterator: 'itB0' }).resolves({ Records: [record('3')], NextShardIterator: 'itB1' });
    streams.on(GetRecordsCommand, { ShardIterator: 'itB1' }).resolves({ Records: [], NextShardIterator: 'itB1' });
    streams.on(GetRecordsCommand, { ShardIterator: 'itC0' }).resolves({ Records: [record('4')] });

    const seen: StreamChange[] = [];
    const controller = new AbortController();
    let ready = 0;
    let allSeen: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (allSeen = resolve));
    const reading = readStream({
      streams: new DynamoDBStreamsClient({ region: 'us-east-1' }),
      streamArn: 'arn:stream',
      signal: controller.signal,
      pollMs: 5,
      describeEveryMs: 20,
      onReady: () => ready++,
      onRecords: (changes) => {
        seen.push(...changes);
        if (seen.length === 4) allSeen();
      },
    });
    await done;
    controller.abort();
    await reading;

    expect(ready).toBe(1);
    const order = seen.map((c) => c.sequenceNumber);
    expect(order.slice(0, 2)).toEqual(['1', '2']);
    expect([...order].sort()).toEqual(['1', '2', '3', '4']);
    expect(seen[0]).toEqual({ eventName: 'INSERT', keys: { PK: { S: 'K1' } }, newImage: { PK: { S: 'K1' } }, at: '2026-12-01T10:00:00.000Z', sequenceNumber: '1' });
    // The expired iterator resumed right after the last record handed over, not from LATEST.
    expect(streams.commandCalls(GetShardIteratorCommand).map((c) => `${c.args[0].input.ShardId}:${c.args[0].input.ShardIteratorType}`).sort()).toEqual(['A:AFTER_SEQUENCE_NUMBER', 'A:LATEST', 'B:TRIM_HORIZON', 'C:TRIM_HORIZON']);
  });

  it('rejects when the stream is gone (disabled, table deleted)', async () => {
    streams.on(DescribeStreamCommand).resolves({ StreamDescription: { Shards: [{ ShardId: 'A', SequenceNumberRange: { StartingSequenceNumber: '1' } }] } });
    streams.on(GetShardIteratorCommand).resolves({ ShardIterator: 'it' });
    streams.on(GetRecordsCommand).rejects(new ResourceNotFoundException({ message: 'Requested resource not found', ...meta }));
    await expect(readStream({ streams: new DynamoDBStreamsClient({ region: 'us-east-1' }), streamArn: 'arn', signal: new AbortController().signal, pollMs: 5, describeEveryMs: 20, onRecords: () => undefined })).rejects.toThrow(
      'Requested resource not found',
    );
  });
});
