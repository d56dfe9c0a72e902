import { DeleteItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../../shared/conventions/presets';
import type { LiveWatchEvent } from '../../../shared/watch/watch-events';
import { createStreamHub } from '../../bridge/stream-hub';
import { deleteTable, testClient } from '../../testing/dynamo-fixtures';
import { connectionContext, tableContext, type ConventionContext } from '../context/request-context';
import { describeTable } from '../dynamo/tables';
import { SANDBOX_CREDENTIALS, SANDBOX_REGION } from '../sandbox/dynamodb-local';
import { createLiveWatches } from './live-watches';
import { createStreamTable, signup } from './testing-watch';

const endpoint = inject('dynamoEndpoint');
const convention = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);
let client: DynamoDBClient;
const tables: string[] = [];

/** The request context `watch.start` gets: the connection, the described table, the convention. */
async function contextFor(table: string): Promise<ConventionContext> {
  const target = { label: 'test', endpoint, region: SANDBOX_REGION, credentials: SANDBOX_CREDENTIALS };
  const described = await describeTable(client, table);
  if (!described.ok) throw new Error(described.error.message);
  const ctx = connectionContext({
    connectionId: 'endpoint:test',
    target,
    client,
    writable: false,
    allowWrites: 'allow writes',
    endpoint,
    local: true,
  });
  return { ...tableContext(ctx, described.value), convention, conventionSource: 'given' };
}

beforeAll(() => {
  client = testClient(endpoint);
});

afterAll(async () => {
  for (const t of tables) await deleteTable(client, t);
  client.destroy();
});

describe('live watches for the app', () => {
  it('publishes problems with their cause, replays open ones to a late subscriber, stops cleanly', async () => {
    const table = await createStreamTable(client, 'live-watch');
    tables.push(table);
    await signup(client, table, 'l1', 'ada@lovelace.io', 'ada');
    const hub = createStreamHub();
    const watches = createLiveWatches({ hub, settleMs: 200, pollMs: 50 });
    try {
      const started = await watches.start(await contextFor(table));
      if (!started.ok) throw new Error(started.error.message);
      const { watchId } = started.value;

      const seen: LiveWatchEvent[] = [];
      let wake: () => void = () => undefined;
      const sub = hub.subscribe('watch.events', { watchId }, (e) => {
        seen.push(e as LiveWatchEvent);
        wake();
      });
      if (!sub.ok) throw new Error(sub.error.message);
      const until = (match: () => boolean): Promise<void> =>
        match() ? Promise.resolve() : new Promise((resolve) => (wake = () => match() && resolve()));
      await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'ACCT#l1' }, SK: { S: 'PROFILE' } } }));
      await until(() => seen.filter((e) => e.event === 'problem').length === 2);
      expect(seen.find((e) => e.event === 'problem' && e.problem.value === 'ada')).toMatchObject({
        watchId,
        problem: { kind: 'orphan-lock' },
        cause: { eventName: 'REMOVE', keys: { PK: 'ACCT#l1' } },
      });
      sub.value();

      const late: LiveWatchEvent[] = [];
      const lateSub = hub.subscribe('watch.events', { watchId }, (e) => late.push(e as LiveWatchEvent));
      if (!lateSub.ok) throw new Error(lateSub.error.message);
      expect(
        late
          .map((e) => (e.event === 'problem' ? `${e.problem.value} ${e.cause.eventName}` : e.event === 'status' ? e.status : e.event))
          .sort(),
      ).toEqual(['ada REMOVE', 'ada@lovelace.io REMOVE', 'live']);

      expect(await watches.stop(watchId)).toEqual({ ok: true, value: { stopped: true } });
      expect(late.at(-1)).toMatchObject({ event: 'status', status: 'stopped' });
      expect(watches.running()).toBe(0);
      lateSub.value();
    } finally {
      await watches.close();
    }
  });

  it('two windows watching one table share one reader: one stopping leaves the other watching, and it still sees problems', async () => {
    const table = await createStreamTable(client, 'live-two');
    tables.push(table);
    await signup(client, table, 't1', 'grace@hopper.io', 'grace');
    const hub = createStreamHub();
    const watches = createLiveWatches({ hub, settleMs: 200, pollMs: 50 });
    try {
      // Window A starts; window B, opened later, joins.
      const a = await watches.start(await contextFor(table));
      const b = await watches.start(await contextFor(table));
      if (!a.ok || !b.ok) throw new Error('start failed');
      expect(watches.running()).toBe(1);
      const seenA: LiveWatchEvent[] = [];
      const seenB: LiveWatchEvent[] = [];
      let wake: () => void = () => undefined;
      const subA = hub.subscribe('watch.events', { watchId: a.value.watchId }, (e) => seenA.push(e as LiveWatchEvent));
      const subB = hub.subscribe('watch.events', { watchId: b.value.watchId }, (e) => {
        seenB.push(e as LiveWatchEvent);
        wake();
      });
      if (!subA.ok || !subB.ok) throw new Error('subscribe failed');

      // Window A switches Live off: its own watch stops.
      expect(await watches.stop(a.value.watchId)).toEqual({ ok: true, value: { stopped: true } });
      expect(seenA.at(-1)).toMatchObject({ event: 'status', status: 'stopped' });
      subA.value();
      const statusB = (): LiveWatchEvent | undefined => seenB.filter((e) => e.event === 'status').at(-1);
      expect(statusB()).toMatchObject({ status: 'live' });
      expect(watches.running()).toBe(1);

      // Window B still reads the stream: a write made now reaches it.
      await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'ACCT#t1' }, SK: { S: 'PROFILE' } } }));
      const problems = (): number => seenB.filter((e) => e.event === 'problem').length;
      if (problems() < 2) await new Promise<void>((resolve) => (wake = () => problems() >= 2 && resolve()));
      expect(
        seenB
          .filter((e) => e.event === 'problem')
          .map((e) => e.event === 'problem' && e.problem.value)
          .sort(),
      ).toEqual(['grace', 'grace@hopper.io']);
      expect(statusB()).toMatchObject({ status: 'live' });
      expect(seenB.every((e) => e.watchId === b.value.watchId)).toBe(true);

      // The last window leaving stops the reader.
      expect(await watches.stop(b.value.watchId)).toEqual({ ok: true, value: { stopped: true } });
      expect(statusB()).toMatchObject({ status: 'stopped' });
      expect(watches.running()).toBe(0);
      subB.value();
    } finally {
      await watches.close();
    }
  });

  it('a window watching with another convention gets a reader of its own: it sees what its rules see', async () => {
    const table = await createStreamTable(client, 'live-conv');
    tables.push(table);
    await signup(client, table, 'c1', 'grace@hopper.io', 'grace');
    const hub = createStreamHub();
    const watches = createLiveWatches({ hub, settleMs: 200, pollMs: 50 });
    const emailOnly = { ...convention, rules: convention.rules.filter((r) => r.name === 'EMAIL') };
    try {
      const a = await watches.start({ ...(await contextFor(table)), convention: emailOnly });
      const b = await watches.start(await contextFor(table));
      if (!a.ok || !b.ok) throw new Error('start failed');
      expect(watches.running()).toBe(2);
      const seenB: LiveWatchEvent[] = [];
      let wake: () => void = () => undefined;
      const subB = hub.subscribe('watch.events', { watchId: b.value.watchId }, (e) => {
        seenB.push(e as LiveWatchEvent);
        wake();
      });
      if (!subB.ok) throw new Error('subscribe failed');
      await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'ACCT#c1' }, SK: { S: 'PROFILE' } } }));
      const problems = (): number => seenB.filter((e) => e.event === 'problem').length;
      if (problems() < 2) await new Promise<void>((resolve) => (wake = () => problems() >= 2 && resolve()));
      // Both of B's rules: the HANDLE orphan too, which A's convention does not watch.
      expect(
        seenB
          .filter((e) => e.event === 'problem')
          .map((e) => e.event === 'problem' && e.problem.value)
          .sort(),
      ).toEqual(['grace', 'grace@hopper.io']);
      // A third convention would be a third reader of each shard: refused, naming why.
      const third = await watches.start({
        ...(await contextFor(table)),
        convention: { ...convention, rules: convention.rules.filter((r) => r.name === 'HANDLE') },
      });
      expect(third).toMatchObject({
        ok: false,
        error: { kind: 'conflict', message: expect.stringContaining('a stream takes at most 2 readers') },
      });
      expect(watches.running()).toBe(2);
      subB.value();
    } finally {
      await watches.close();
    }
  });

  it('Live off and at once on again (the stop not awaited) gives a watch that reads, not one that ends', async () => {
    const table = await createStreamTable(client, 'live-offon');
    tables.push(table);
    await signup(client, table, 'o1', 'ada@lovelace.io', 'ada');
    const hub = createStreamHub();
    const watches = createLiveWatches({ hub, settleMs: 200, pollMs: 50 });
    try {
      const ctx = await contextFor(table);
      const a = await watches.start(ctx);
      if (!a.ok) throw new Error(a.error.message);
      const stopping = watches.stop(a.value.watchId);
      const b = await watches.start(ctx);
      await stopping;
      if (!b.ok) throw new Error(b.error.message);
      const seen: LiveWatchEvent[] = [];
      let wake: () => void = () => undefined;
      const sub = hub.subscribe('watch.events', { watchId: b.value.watchId }, (e) => {
        seen.push(e as LiveWatchEvent);
        wake();
      });
      if (!sub.ok) throw new Error(sub.error.message);
      expect(seen.filter((e) => e.event === 'status').at(-1)).toMatchObject({ status: 'live' });
      expect(watches.running()).toBe(1);
      await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'ACCT#o1' }, SK: { S: 'PROFILE' } } }));
      const problems = (): number => seen.filter((e) => e.event === 'problem').length;
      if (problems() < 2) await new Promise<void>((resolve) => (wake = () => problems() >= 2 && resolve()));
      expect(seen.some((e) => e.event === 'status' && e.status === 'stopped')).toBe(false);
      sub.value();
    } finally {
      await watches.close();
    }
  });

  it('refuses a convention whose lock table has no stream, naming that table and the command to run, starting nothing', async () => {
    const table = await createStreamTable(client, 'live-locktable');
    const locks = await createStreamTable(client, 'live-locktable-unique', { stream: 'none' });
    tables.push(table, locks);
    const watches = createLiveWatches({ hub: createStreamHub() });
    const started = await watches.start({ ...(await contextFor(table)), convention: { ...convention, lockTable: locks } });
    expect(started).toMatchObject({
      ok: false,
      error: {
        kind: 'validation',
        message: expect.stringContaining(`keeps its locks in table ${locks}`),
        fix: expect.stringContaining(`--table-name ${locks} `),
      },
    });
    await watches.close();
  });

  it('refuses a table without a stream with the command to run, starting nothing', async () => {
    const table = await createStreamTable(client, 'live-nostream', { stream: 'none' });
    tables.push(table);
    const watches = createLiveWatches({ hub: createStreamHub() });
    const started = await watches.start(await contextFor(table));
    expect(started).toMatchObject({
      ok: false,
      error: { kind: 'validation', fix: expect.stringContaining('StreamViewType=NEW_AND_OLD_IMAGES') },
    });
    await watches.close();
  });
});
