import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  LimitExceededException,
  ResourceNotFoundException,
  TrimmedDataAccessException,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamChange, WatchNotice } from '../../../shared/watch/watch-events';
import { readStream } from './stream-reader';

// AWS itself cannot run here: shard splits, expired iterators and throttling are injected at the SDK edge.
const streams = mockClient(DynamoDBStreamsClient);
afterEach(() => streams.reset());

const record = (seq: string): _Record => ({
  eventName: 'INSERT',
  dynamodb: {
    Keys: { PK: { S: `K${seq}` } },
    NewImage: { PK: { S: `K${seq}` } },
    SequenceNumber: seq,
    ApproximateCreationDateTime: new Date('2026-12-01T10:00:00Z'),
  },
});
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
    streams
      .on(GetShardIteratorCommand, { ShardId: 'A', ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: '1' })
      .resolves({ ShardIterator: 'itA2' });
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
    expect(seen[0]).toEqual({
      eventName: 'INSERT',
      keys: { PK: { S: 'K1' } },
      newImage: { PK: { S: 'K1' } },
      at: '2026-12-01T10:00:00.000Z',
      sequenceNumber: '1',
    });
    // The expired iterator resumed right after the last record handed over, not from LATEST.
    expect(
      streams
        .commandCalls(GetShardIteratorCommand)
        .map((c) => `${c.args[0].input.ShardId}:${c.args[0].input.ShardIteratorType}`)
        .sort(),
    ).toEqual(['A:AFTER_SEQUENCE_NUMBER', 'A:LATEST', 'B:TRIM_HORIZON', 'C:TRIM_HORIZON']);
  });

  it('rejects when the stream is gone (disabled, table deleted)', async () => {
    streams
      .on(DescribeStreamCommand)
      .resolves({ StreamDescription: { Shards: [{ ShardId: 'A', SequenceNumberRange: { StartingSequenceNumber: '1' } }] } });
    streams.on(GetShardIteratorCommand).resolves({ ShardIterator: 'it' });
    streams.on(GetRecordsCommand).rejects(new ResourceNotFoundException({ message: 'Requested resource not found', ...meta }));
    await expect(
      readStream({
        streams: new DynamoDBStreamsClient({ region: 'us-east-1' }),
        streamArn: 'arn',
        signal: new AbortController().signal,
        pollMs: 5,
        describeEveryMs: 20,
        onRecords: () => undefined,
      }),
    ).rejects.toThrow('Requested resource not found');
  });

  it('after an iterator expired before any record of a LATEST shard, reads the gap from TRIM_HORIZON, skipping only what predates the watch', async () => {
    const before = new Date(Date.now() - 60 * 60 * 1000);
    const at = (seq: string, when: Date): _Record => ({
      ...record(seq),
      dynamodb: { ...record(seq).dynamodb, ApproximateCreationDateTime: when },
    });
    streams
      .on(DescribeStreamCommand)
      .resolves({ StreamDescription: { Shards: [{ ShardId: 'A', SequenceNumberRange: { StartingSequenceNumber: '1' } }] } });
    // A quiet shard read from LATEST; then the machine sleeps past the iterator's 15 minutes while record 7 is written.
    streams
      .on(GetShardIteratorCommand, { ShardId: 'A', ShardIteratorType: 'LATEST' })
      .resolvesOnce({ ShardIterator: 'it0' })
      .resolves({ ShardIterator: 'itAfterGap' });
    streams.on(GetShardIteratorCommand, { ShardId: 'A', ShardIteratorType: 'TRIM_HORIZON' }).resolves({ ShardIterator: 'itHorizon' });
    streams.on(GetRecordsCommand, { ShardIterator: 'it0' }).resolves({ Records: [], NextShardIterator: 'it1' });
    streams.on(GetRecordsCommand, { ShardIterator: 'it1' }).rejects(new ExpiredIteratorException({ message: 'Iterator expired', ...meta }));
    streams.on(GetRecordsCommand, { ShardIterator: 'itAfterGap' }).resolves({ Records: [], NextShardIterator: 'itAfterGap' });
    // From the shard's start: two records of the hour before the watch (history), then the gap's record.
    streams
      .on(GetRecordsCommand, { ShardIterator: 'itHorizon' })
      .resolves({ Records: [at('5', before), at('6', before), at('7', new Date())], NextShardIterator: 'itTail' });
    streams.on(GetRecordsCommand, { ShardIterator: 'itTail' }).resolves({ Records: [], NextShardIterator: 'itTail' });

    const seen: string[] = [];
    const notices: WatchNotice[] = [];
    const controller = new AbortController();
    let gapRead: () => void = () => undefined;
    const read = new Promise<void>((resolve) => (gapRead = resolve));
    const reading = readStream({
      streams: new DynamoDBStreamsClient({ region: 'us-east-1' }),
      streamArn: 'arn',
      signal: controller.signal,
      pollMs: 5,
      describeEveryMs: 20,
      onNotice: (n) => notices.push(n),
      onRecords: (changes) => {
        seen.push(...changes.map((c) => c.sequenceNumber));
        gapRead();
      },
    });
    await read;
    controller.abort();
    await reading;
    expect(seen).toEqual(['7']);
    expect(streams.commandCalls(GetShardIteratorCommand).map((c) => c.args[0].input.ShardIteratorType)).toEqual(['LATEST', 'TRIM_HORIZON']);
    expect(notices).toEqual([]);
  });

  it('resumes at TRIM_HORIZON with a gap notice when the last record read was trimmed meanwhile (GetShardIterator refuses it)', async () => {
    streams
      .on(DescribeStreamCommand)
      .resolves({ StreamDescription: { Shards: [{ ShardId: 'A', SequenceNumberRange: { StartingSequenceNumber: '1' } }] } });
    streams.on(GetShardIteratorCommand, { ShardId: 'A', ShardIteratorType: 'LATEST' }).resolves({ ShardIterator: 'it0' });
    streams
      .on(GetShardIteratorCommand, { ShardId: 'A', ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' })
      .rejects(new TrimmedDataAccessException({ message: 'trimmed', ...meta }));
    streams.on(GetShardIteratorCommand, { ShardId: 'A', ShardIteratorType: 'TRIM_HORIZON' }).resolves({ ShardIterator: 'itHorizon' });
    streams.on(GetRecordsCommand, { ShardIterator: 'it0' }).resolves({ Records: [record('1')], NextShardIterator: 'it1' });
    streams.on(GetRecordsCommand, { ShardIterator: 'it1' }).rejects(new ExpiredIteratorException({ message: 'expired', ...meta }));
    streams.on(GetRecordsCommand, { ShardIterator: 'itHorizon' }).resolves({ Records: [record('9')], NextShardIterator: 'itTail' });
    streams.on(GetRecordsCommand, { ShardIterator: 'itTail' }).resolves({ Records: [], NextShardIterator: 'itTail' });

    const seen: string[] = [];
    const notices: WatchNotice[] = [];
    const controller = new AbortController();
    let both: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (both = resolve));
    const reading = readStream({
      streams: new DynamoDBStreamsClient({ region: 'us-east-1' }),
      streamArn: 'arn',
      signal: controller.signal,
      pollMs: 5,
      describeEveryMs: 20,
      onNotice: (n) => notices.push(n),
      onRecords: (changes) => {
        seen.push(...changes.map((c) => c.sequenceNumber));
        if (seen.length === 2) both();
      },
    });
    await done;
    controller.abort();
    await reading;
    expect(seen).toEqual(['1', '9']);
    expect(notices).toEqual([{ kind: 'gap', message: expect.stringContaining('changes in that gap were missed — run an audit') }]);
  });
});
