import { DescribeTableCommand, DynamoDBClient, GetItemCommand, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { WatchLine } from '../../../shared/watch/watch-events';
import { main } from '../main';
import { captureIo } from '../testing-io';

// A stream trimmed under a running watch takes 24 h to make for real: the fault is injected at the SDK edge.
const dynamo = mockClient(DynamoDBClient);
const streams = mockClient(DynamoDBStreamsClient);
afterEach(() => {
  dynamo.reset();
  streams.reset();
});

const table = {
  TableName: 'accounts',
  TableStatus: 'ACTIVE' as const,
  KeySchema: [
    { AttributeName: 'PK', KeyType: 'HASH' as const },
    { AttributeName: 'SK', KeyType: 'RANGE' as const },
  ],
  AttributeDefinitions: [
    { AttributeName: 'PK', AttributeType: 'S' as const },
    { AttributeName: 'SK', AttributeType: 'S' as const },
  ],
  StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' as const },
  LatestStreamArn: 'arn:stream',
};

describe('locksmith watch --json', () => {
  it('puts a gap on stdout as a line of its own (a script reading stdout must not see silence), and in words on stderr', async () => {
    dynamo.on(DescribeTableCommand).resolves({ Table: table });
    // An empty table: the convention given needs no sample.
    dynamo.on(ScanCommand).resolves({ Items: [] });
    dynamo.on(QueryCommand).resolves({ Items: [] });
    dynamo.on(GetItemCommand).resolves({});
    streams
      .on(DescribeStreamCommand)
      .resolves({ StreamDescription: { Shards: [{ ShardId: 'A', SequenceNumberRange: { StartingSequenceNumber: '1' } }] } });
    streams.on(GetShardIteratorCommand, { ShardIteratorType: 'LATEST' }).resolves({ ShardIterator: 'it0' });
    streams.on(GetShardIteratorCommand, { ShardIteratorType: 'TRIM_HORIZON' }).resolves({ ShardIterator: 'itHorizon' });
    streams.on(GetRecordsCommand, { ShardIterator: 'it0' }).rejects(new TrimmedDataAccessException({ message: 'trimmed', $metadata: {} }));
    const stop = new AbortController();
    // Reading on from the horizon: the gap has been told by then, so the watch is stopped as Ctrl+C would.
    streams.on(GetRecordsCommand, { ShardIterator: 'itHorizon' }).callsFake(() => {
      stop.abort();
      return { Records: [], NextShardIterator: 'itHorizon' };
    });
    const io = captureIo({ AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1' }, stop.signal);
    const code = await main(
      ['watch', '--endpoint', 'http://127.0.0.1:8000', '--table', 'accounts', '--preset', 'uniq', '--json', '--poll-ms', '10'],
      io,
    );
    expect(code).toBe(0);
    const lines = io
      .out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as WatchLine);
    expect(lines.map((l) => l.event)).toEqual(['watching', 'gap']);
    expect(lines[1]).toEqual({
      event: 'gap',
      reason: expect.stringContaining('run an audit'),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(io.err()).toContain('run an audit');
    expect(io.err()).not.toContain('{');
  });
});
