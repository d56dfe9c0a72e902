import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
const target = {
  label: 'test',
  endpoint: 'http://127.0.0.1:8000',
  region: 'us-east-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
};

function context(): ConventionContext {
  const connection = connectionContext({
    connectionId: 'endpoint:test',
    target,
    client: new DynamoDBClient({ region: 'us-east-1' }),
    writable: false,
    allowWrites: 'allow writes',
    endpoint: target.endpoint,
    local: true,
  });
  const table = {
    name: 'accounts',
    keys: PRESET_KEYS.uniq,
    gsis: [],
    itemCount: 0,
    sizeBytes: 0,
    status: 'ACTIVE',
    billingMode: 'PAY_PER_REQUEST' as const,
  };
  return {
    ...tableContext(connection, table),
    convention: presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq),
    conventionSource: 'given',
  };
}

describe('live watches: a gap reaches the page', () => {
  it('publishes a gap status with what to do and replays it to a late subscriber', async () => {
    dynamo.on(DescribeTableCommand).resolves({
      Table: {
        TableName: 'accounts',
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
        LatestStreamArn: 'arn:stream',
      },
    });
    streams
      .on(DescribeStreamCommand)
      .resolves({ StreamDescription: { Shards: [{ ShardId: 'A', SequenceNumberRange: { StartingSequenceNumber: '1' } }] } });
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

/** A table whose stream answers, with nothing written. */
function quietStream(): void {
  dynamo.on(DescribeTableCommand).resolves({
    Table: {
      TableName: 'accounts',
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
      LatestStreamArn: 'arn:stream',
    },
  });
  streams
    .on(DescribeStreamCommand)
    .resolves({ StreamDescription: { Shards: [{ ShardId: 'A', SequenceNumberRange: { StartingSequenceNumber: '1' } }] } });
  streams.on(GetShardIteratorCommand).resolves({ ShardIterator: 'it0' });
  streams.on(GetRecordsCommand).resolves({ Records: [], NextShardIterator: 'it0' });
}

/** The status a subscriber to the watch sees first (the subscription ends at once). */
function statusOf(hub: ReturnType<typeof createStreamHub>, watchId: string): string | undefined {
  let status: string | undefined;
  const sub = hub.subscribe('watch.events', { watchId }, (e) => {
    const event = e as LiveWatchEvent;
    if (status === undefined && event.event === 'status') status = event.status;
  });
  if (sub.ok) sub.value();
  return status;
}

describe('live watches: who keeps a shared reader running', () => {
  it('two starts at once share one reader, each with its own id', async () => {
    quietStream();
    const watches = createLiveWatches({ hub: createStreamHub(), settleMs: 50, pollMs: 5 });
    try {
      const [a, b] = await Promise.all([watches.start(context()), watches.start(context())]);
      expect(a.ok && b.ok && a.value.watchId !== b.value.watchId).toBe(true);
      expect(watches.running()).toBe(1);
    } finally {
      await watches.close();
    }
  });

  it('a page that closes without watch.stop (its subscription ends) leaves; the reader stops with the last one', async () => {
    quietStream();
    const hub = createStreamHub();
    const watches = createLiveWatches({ hub, settleMs: 50, pollMs: 5, idleMs: 20 });
    try {
      const a = await watches.start(context());
      const b = await watches.start(context());
      if (!a.ok || !b.ok) throw new Error('start failed');
      const subA = hub.subscribe('watch.events', { watchId: a.value.watchId }, () => undefined);
      const seenB: LiveWatchEvent[] = [];
      const subB = hub.subscribe('watch.events', { watchId: b.value.watchId }, (e) => seenB.push(e as LiveWatchEvent));
      if (!subA.ok || !subB.ok) throw new Error('subscribe failed');
      subA.value();
      // B keeps listening: A's leaving ends A only (B is not told "stopped").
      await vi.waitFor(() => expect(statusOf(hub, a.value.watchId)).toBe('stopped'));
      expect(watches.running()).toBe(1);
      expect(seenB.some((e) => e.event === 'status' && e.status === 'stopped')).toBe(false);
      subB.value();
      await vi.waitFor(() => expect(watches.running()).toBe(0));
    } finally {
      await watches.close();
    }
  });

  it('a start nobody ever subscribes to (its page closed before the answer) is ended too', async () => {
    quietStream();
    const watches = createLiveWatches({ hub: createStreamHub(), settleMs: 50, pollMs: 5, idleMs: 20 });
    try {
      expect(await watches.start(context())).toMatchObject({ ok: true });
      await vi.waitFor(() => expect(watches.running()).toBe(0));
    } finally {
      await watches.close();
    }
  });

  it('a subscriber to a watch that has ended is told so, not shown an empty list', async () => {
    quietStream();
    const hub = createStreamHub();
    const watches = createLiveWatches({ hub, settleMs: 50, pollMs: 5 });
    try {
      const started = await watches.start(context());
      if (!started.ok) throw new Error(started.error.message);
      await watches.stop(started.value.watchId);
      const seen: unknown[] = [];
      hub.subscribe('watch.events', { watchId: started.value.watchId }, (e) => seen.push(e));
      expect(seen).toEqual([
        { event: 'status', watchId: started.value.watchId, status: 'stopped', reason: expect.stringContaining('switch Live on again') },
      ]);
    } finally {
      await watches.close();
    }
  });
});
