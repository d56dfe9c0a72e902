import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, TrimmedDataAccessException } from '@aws-sdk/client-dynamodb-streams';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../../shared/conventions/presets';
import type { LiveWatchEvent } from '../../../shared/watch/watch-events';
import { createStreamHub } from '../../bridge/stream-hub';
import { connectionContext, tableContext, type ConventionContext } from '../context/request-context';
import { createLiveWatches } from './live-watches';

// A stream trimmed under a suspended watch cannot be made real here (it takes 24 h): the fault is injected at the SDK edge.
const dynamo = mockClient(DynamoDBClient);
const streams = mockClient(DynamoDBStreamsClient);
afterEach(() => {
  dynamo.reset();
  streams.reset();
});

const meta = { $metadata: {} };
const target = { label: 'test', endpoint: 'http://127.0.0.1:8000', region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };

function context(): ConventionContext {
  const connection = connectionContext({ connectionId: 'endpoint:test', target, client: new DynamoDBClient({ region: 'us-east-1' }), writable: false, allowWrites: 'allow writes', endpoint: target.endpoint, local: true });
  const table = { name: 'accounts', keys: PRESET_KEYS.uniq, gsis: [], itemCount: 0, sizeBytes: 0, status: 'ACTIVE', billingMode: 'PAY_PER_REQUEST' as const };
  return { ...tableContext(connection, table), convention: presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq), conventionSource: 'given' };
}

describe('live watches: a gap reaches the page', () => {
  it('publishes a gap status with what to do and replays it to a late subscriber', async () => {
    dynamo.on(DescribeTableCommand).resolves({ Table: { TableName: 'accounts', StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' }, LatestStreamArn: 'arn:stream' } });
    streams.on(DescribeStreamCommand).resolves({ StreamDescription: { Shards: [{ ShardId: 'A', SequenceNumberRange: { StartingSequenceNumber: '1' } }] } });
    streams.on(GetShardIteratorCommand, { ShardIteratorType: 'LATEST' }).resolves({ ShardIterator: 'it0' });
    streams.on(GetShardIteratorCommand, { ShardIteratorType: 'TRIM_HORIZON' }).resolves({ ShardIterator: 'itHorizon' });
    // The watch's position was trimmed while it could not read (a machine suspended for over a day).
    streams.on(GetRecordsCommand, { ShardIterator: 'it0' }).rejects(new TrimmedDataAccessException({ message: 'trimmed', ...meta }));
    streams.on(GetRecordsCommand, { ShardIterator: 'itHorizon' }).resolves({ Records: [], NextShardIterator: 'itHorizon' });

    const hub = createStreamHub();
    const watches = createLiveWatches({ hub, settleMs: 50, pollMs: 5 });
    try {
      const started = await watches.start(context());
      if (!started.ok) throw new Error(started.error.message);
      const { watchId } = started.value;
      const seen: LiveWatchEvent[] = [];
      let wake: () => void = () => undefined;
      const sub = hub.subscribe('watch.events', { watchId }, (e) => {
        seen.push(e as LiveWatchEvent);
        wake();
      });
      if (!sub.ok) throw new Error(sub.error.message);
      const gap = (): LiveWatchEvent | undefined => seen.find((e) => e.event === 'status' && e.status === 'gap');
      if (!gap()) await new Promise<void>((resolve) => (wake = () => gap() && resolve()));
      expect(gap()).toMatchObject({ event: 'status', watchId, status: 'gap', reason: expect.stringContaining('run an audit') });
      sub.value();

      const late: LiveWatchEvent[] = [];
      const lateSub = hub.subscribe('watch.events', { watchId }, (e) => late.push(e as LiveWatchEvent));
      if (!lateSub.ok) throw new Error(lateSub.error.message);
      expect(late[0]).toMatchObject({ event: 'status', status: 'gap', reason: expect.stringContaining('changes in that gap were missed') });
      lateSub.value();
    } finally {
      await watches.close();
    }
  });
});
