import { DeleteItemCommand, PutItemCommand, TransactWriteItemsCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../../shared/conventions/presets';
import type { WatchEvent } from '../../../shared/watch/watch-events';
import { enableStreamCommand } from '../../../shared/watch/stream-spec';
import { deleteTable, testClient } from '../../testing/dynamo-fixtures';
import { SANDBOX_CREDENTIALS, SANDBOX_REGION } from '../sandbox/dynamodb-local';
import { describeTable } from '../dynamo/tables';
import { createStreamsClient } from './streams-client';
import {
  account,
  changeEmail,
  createStreamTable,
  deleteAccount,
  EventLog,
  lockKey,
  signup,
  type StreamTableOptions,
} from './testing-watch';
import { findLockStream, findWatchableStream, watchTable } from './watch';

const endpoint = inject('dynamoEndpoint');
const convention = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);
let client: DynamoDBClient;
const tables: string[] = [];

beforeAll(() => {
  client = testClient(endpoint);
});

afterAll(async () => {
  for (const t of tables) await deleteTable(client, t);
  client.destroy();
});

/** Starts a watch on a fresh table; resolves once it reads every shard. */
async function startWatch(
  prefix: string,
  options: StreamTableOptions = {},
): Promise<{ table: string; log: EventLog; stop: () => Promise<void> }> {
  const table = await createStreamTable(client, prefix, options);
  tables.push(table);
  const described = await describeTable(client, table);
  if (!described.ok) throw new Error(described.error.message);
  const arn = await findWatchableStream(client, table);
  if (!arn.ok) throw new Error(arn.error.message);
  const streams = createStreamsClient({ label: 'test', endpoint, region: SANDBOX_REGION, credentials: SANDBOX_CREDENTIALS });
  const log = new EventLog();
  const controller = new AbortController();
  const running = watchTable({
    client,
    streams,
    table: described.value,
    convention,
    streamArn: arn.value,
    signal: controller.signal,
    onEvent: log.push,
    settleMs: 300,
    pollMs: 50,
  });
  await Promise.race([log.waitFor((e) => e.event === 'watching', 20_000, 'watching'), running]);
  return {
    table,
    log,
    stop: async () => {
      controller.abort();
      await running;
      streams.destroy();
    },
  };
}

const isProblem = (kind: string, value: string) => (e: WatchEvent) =>
  e.event === 'problem' && e.problem.kind === kind && e.problem.value === value;
const isResolved = (kind: string, value: string) => (e: WatchEvent) =>
  e.event === 'resolved' && e.problem.kind === kind && e.problem.value === value;

describe.each([
  { index: 'no index (orphans confirmed by a holder scan)', options: {} },
  { index: 'a GSI on email', options: { gsiOn: 'email' } },
])('watch over DynamoDB Local streams, $index', ({ options }) => {
  it('raises nothing for a burst of correct transactions, then names the raw REMOVE that strands locks, then their fix', async () => {
    const { table, log, stop } = await startWatch('watch-burst', options);
    try {
      const people = Array.from({ length: 6 }, (_, i) => ({ id: `b${i}`, email: `user${i}@example.com`, handle: `user${i}` }));
      await Promise.all(people.map((p) => signup(client, table, p.id, p.email, p.handle)));
      await Promise.all(people.slice(0, 3).map((p) => changeEmail(client, table, p.id, p.email, `new.${p.email}`)));
      await Promise.all(people.slice(3, 5).map((p) => deleteAccount(client, table, p.id, p.email, p.handle)));
      // The sentinel: a raw delete of an account, outside any transaction (the classic stuck handle).
      const victim = people[5]!;
      await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'ACCT#b5' }, SK: { S: 'PROFILE' } } }));
      const orphan = await log.waitFor(isProblem('orphan-lock', victim.email), 20_000, 'the email orphan');
      await log.waitFor(isProblem('orphan-lock', victim.handle), 20_000, 'the handle orphan');
      expect(orphan).toMatchObject({
        event: 'problem',
        problem: { kind: 'orphan-lock', rule: 'EMAIL', value: victim.email, lock: { PK: `UNIQ#EMAIL#${victim.email}`, SK: 'LOCK' } },
        cause: { eventName: 'REMOVE', keys: { PK: 'ACCT#b5', SK: 'PROFILE' } },
      });
      if (orphan.event !== 'problem') throw new Error('unreachable');
      expect(orphan.cause.sequenceNumber).toMatch(/^\d+$/);
      expect(Number.isNaN(Date.parse(orphan.cause.at))).toBe(false);
      // Events go out in settle order: the sentinel's arrival means the burst was judged — and raised nothing else.
      const raised = log.events.flatMap((e) => (e.event === 'watching' ? [] : [`${e.event} ${e.problem.value}`]));
      expect(raised.sort()).toEqual([`problem ${victim.email}`, `problem ${victim.handle}`].sort());

      await client.send(new DeleteItemCommand({ TableName: table, Key: lockKey('EMAIL', victim.email) }));
      const resolved = await log.waitFor(isResolved('orphan-lock', victim.email), 20_000, 'the email orphan resolved');
      expect(resolved).toMatchObject({ cause: { eventName: 'REMOVE', keys: { PK: `UNIQ#EMAIL#${victim.email}`, SK: 'LOCK' } } });
    } finally {
      await stop();
    }
  });
});

describe('watch: missing locks and the settle window', () => {
  it('raises missing-lock for a raw put of an account without its locks, and resolves it when the locks are written', async () => {
    const { table, log, stop } = await startWatch('watch-missing');
    try {
      await client.send(new PutItemCommand({ TableName: table, Item: account('m1', 'Grace@Hopper.org', 'grace') }));
      const missing = await log.waitFor(isProblem('missing-lock', 'grace@hopper.org'), 20_000, 'missing email lock');
      await log.waitFor(isProblem('missing-lock', 'grace'), 20_000, 'missing handle lock');
      expect(missing).toMatchObject({
        problem: { rule: 'EMAIL', accounts: [{ PK: 'ACCT#m1', SK: 'PROFILE' }] },
        cause: { eventName: 'INSERT', keys: { PK: 'ACCT#m1', SK: 'PROFILE' } },
      });
      await client.send(new PutItemCommand({ TableName: table, Item: lockKey('EMAIL', 'grace@hopper.org') }));
      const resolved = await log.waitFor(isResolved('missing-lock', 'grace@hopper.org'), 20_000, 'resolved');
      expect(resolved).toMatchObject({ cause: { eventName: 'INSERT', keys: { PK: 'UNIQ#EMAIL#grace@hopper.org', SK: 'LOCK' } } });
      expect(log.events.some(isResolved('missing-lock', 'grace'))).toBe(false);
    } finally {
      await stop();
    }
  });

  it('raises missing-lock when a lock is deleted alone while its account still holds the value (no index: a holder scan finds it)', async () => {
    const { table, log, stop } = await startWatch('watch-lockgone');
    try {
      await signup(client, table, 'k1', 'kay@example.com', 'kay');
      // The signup settles first (a sentinel judged after it): the delete's window names no account.
      await client.send(new PutItemCommand({ TableName: table, Item: account('z1', 'first@x.io', 'first') }));
      await log.waitFor(isProblem('missing-lock', 'first'), 20_000, 'the sentinel');
      await client.send(new DeleteItemCommand({ TableName: table, Key: lockKey('HANDLE', 'kay') }));
      const missing = await log.waitFor(isProblem('missing-lock', 'kay'), 20_000, 'the missing handle lock');
      expect(missing).toMatchObject({
        problem: { rule: 'HANDLE', accounts: [{ PK: 'ACCT#k1', SK: 'PROFILE' }] },
        cause: { eventName: 'REMOVE', keys: { PK: 'UNIQ#HANDLE#kay', SK: 'LOCK' } },
      });
    } finally {
      await stop();
    }
  });

  it('waits out the settle window: a delete written as separate writes, locks last, raises nothing', async () => {
    const { table, log, stop } = await startWatch('watch-settle');
    try {
      await signup(client, table, 's1', 'lin@example.com', 'lin');
      // Account first, locks after: between the writes the locks are orphans, for a moment shorter than the window.
      await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'ACCT#s1' }, SK: { S: 'PROFILE' } } }));
      await client.send(new DeleteItemCommand({ TableName: table, Key: lockKey('EMAIL', 'lin@example.com') }));
      await client.send(new DeleteItemCommand({ TableName: table, Key: lockKey('HANDLE', 'lin') }));
      // Sentinel after the writes: once it is reported, the earlier-settled scopes were judged.
      await client.send(new PutItemCommand({ TableName: table, Item: account('s2', 'sentinel@example.com', 'sentinel') }));
      await log.waitFor(isProblem('missing-lock', 'sentinel'), 20_000, 'the sentinel');
      expect(
        log.events
          .filter((e) => e.event === 'problem')
          .map((e) => (e.event === 'problem' ? e.problem.value : ''))
          .sort(),
      ).toEqual(['sentinel', 'sentinel@example.com']);
    } finally {
      await stop();
    }
  });
});

describe.each([
  { index: 'no index (other holders found by a holder scan)', options: {} },
  { index: 'a GSI on email', options: { gsiOn: 'email' } },
])('watch: an account written outside a transaction, $index', ({ options }) => {
  it('reports duplicate-value when it takes a value already held and locked', async () => {
    const { table, log, stop } = await startWatch('watch-dup', options);
    try {
      await signup(client, table, 'a1', 'ada@x.io', 'ada');
      // The signup settles on its own first (a sentinel judged after it): its lock record is not in the raw write's window.
      await client.send(new PutItemCommand({ TableName: table, Item: account('z1', 'first@x.io', 'first') }));
      await log.waitFor(isProblem('missing-lock', 'first'), 20_000, 'the first sentinel');
      await client.send(new PutItemCommand({ TableName: table, Item: account('b1', 'ada@x.io', 'bob') }));
      await client.send(new PutItemCommand({ TableName: table, Item: lockKey('HANDLE', 'bob') }));
      const duplicate = await log.waitFor(isProblem('duplicate-value', 'ada@x.io'), 20_000, 'the duplicate');
      expect(duplicate).toMatchObject({
        problem: { rule: 'EMAIL' },
        cause: { eventName: 'INSERT', keys: { PK: 'ACCT#b1', SK: 'PROFILE' } },
      });
      if (duplicate.event !== 'problem') throw new Error('unreachable');
      expect(duplicate.problem.accounts?.map((k) => k.PK).sort()).toEqual(['ACCT#a1', 'ACCT#b1']);
    } finally {
      await stop();
    }
  });
});

describe('watch: a GSI on a normalizing rule', () => {
  it('raises no orphan when a lock is claimed for an account storing another spelling', async () => {
    const { table, log, stop } = await startWatch('watch-gsi-norm', { gsiOn: 'email' });
    try {
      await client.send(new PutItemCommand({ TableName: table, Item: account('m1', 'Grace@Hopper.org', 'grace') }));
      await client.send(new PutItemCommand({ TableName: table, Item: lockKey('HANDLE', 'grace') }));
      await log.waitFor(isProblem('missing-lock', 'grace@hopper.org'), 20_000, 'missing email lock');
      // The claim (or repair) of the missing lock, written alone: the index holds `Grace@Hopper.org`, the lock `grace@hopper.org`.
      await client.send(new PutItemCommand({ TableName: table, Item: lockKey('EMAIL', 'grace@hopper.org') }));
      await log.waitFor(isResolved('missing-lock', 'grace@hopper.org'), 20_000, 'the missing lock resolved');
      // Sentinel: judged after the claim, so an orphan raised by the claim would be in the log by then.
      await client.send(new PutItemCommand({ TableName: table, Item: account('z1', 'last@x.io', 'last') }));
      await log.waitFor(isProblem('missing-lock', 'last'), 20_000, 'the sentinel');
      expect(log.events.filter((e) => e.event === 'problem' && e.problem.kind === 'orphan-lock')).toEqual([]);
    } finally {
      await stop();
    }
  });
});

describe('watch: a raw duplicate under another spelling, with a GSI on the normalizing rule', () => {
  it('reports duplicate-value: the index finds only the spellings queried, so the holder search scans', async () => {
    const { table, log, stop } = await startWatch('watch-gsi-dup', { gsiOn: 'email' });
    try {
      await signup(client, table, 'a1', 'Dan@Acme.io', 'dan');
      await client.send(new PutItemCommand({ TableName: table, Item: account('z1', 'first@x.io', 'first') }));
      await log.waitFor(isProblem('missing-lock', 'first'), 20_000, 'the first sentinel');
      await client.send(new PutItemCommand({ TableName: table, Item: account('b1', 'dan@ACME.io', 'bob') }));
      await client.send(new PutItemCommand({ TableName: table, Item: lockKey('HANDLE', 'bob') }));
      const duplicate = await log.waitFor(isProblem('duplicate-value', 'dan@acme.io'), 20_000, 'the duplicate');
      if (duplicate.event !== 'problem') throw new Error('unreachable');
      expect(duplicate.problem.accounts?.map((k) => k.PK).sort()).toEqual(['ACCT#a1', 'ACCT#b1']);
    } finally {
      await stop();
    }
  });
});

describe('watch: a convention that keeps its locks in a lock table', () => {
  it('reads both streams: a signup across the tables raises nothing; a raw delete on either side is named; a lock left in the accounts table is malformed', async () => {
    const table = await createStreamTable(client, 'watch-acc');
    const locks = await createStreamTable(client, 'watch-acc-unique');
    tables.push(table, locks);
    const split = { ...convention, lockTable: locks };
    const guard = { ConditionExpression: 'attribute_not_exists(PK)' };
    const signupApart = (id: string, email: string, handle: string) =>
      client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName: table, Item: account(id, email, handle), ...guard } },
            { Put: { TableName: locks, Item: lockKey('EMAIL', email), ...guard } },
            { Put: { TableName: locks, Item: lockKey('HANDLE', handle), ...guard } },
          ],
        }),
      );
    const described = await describeTable(client, table);
    if (!described.ok) throw new Error(described.error.message);
    const arn = await findWatchableStream(client, table);
    const lockArn = await findLockStream(client, split);
    if (!arn.ok || !lockArn.ok || lockArn.value === undefined) throw new Error('no streams');
    const streams = createStreamsClient({ label: 'test', endpoint, region: SANDBOX_REGION, credentials: SANDBOX_CREDENTIALS });
    const log = new EventLog();
    const controller = new AbortController();
    const running = watchTable({
      client,
      streams,
      table: described.value,
      convention: split,
      streamArn: arn.value,
      lockStreamArn: lockArn.value,
      signal: controller.signal,
      onEvent: log.push,
      settleMs: 300,
      pollMs: 50,
    });
    try {
      await Promise.race([log.waitFor((e) => e.event === 'watching', 20_000, 'watching'), running]);
      expect(log.events[0]).toMatchObject({ event: 'watching', table, lockTable: locks, lockStreamArn: lockArn.value });
      await Promise.all([signupApart('a1', 'ada@x.io', 'ada'), signupApart('a2', 'bob@x.io', 'bob')]);
      // The signups settle first (a sentinel judged after them): two streams are polled apart, and a record
      // of one may arrive after a later write's record of the other, which would then be named the cause.
      await client.send(new PutItemCommand({ TableName: table, Item: account('z1', 'first@x.io', 'first') }));
      await log.waitFor(isProblem('missing-lock', 'first'), 20_000, 'the sentinel');
      // Accounts side: a raw delete strands a1's locks in the lock table.
      await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'ACCT#a1' }, SK: { S: 'PROFILE' } } }));
      const orphan = await log.waitFor(isProblem('orphan-lock', 'ada@x.io'), 20_000, 'the orphan');
      expect(orphan).toMatchObject({
        problem: { rule: 'EMAIL', lock: { PK: 'UNIQ#EMAIL#ada@x.io', SK: 'LOCK' } },
        cause: { eventName: 'REMOVE', keys: { PK: 'ACCT#a1' } },
      });
      await log.waitFor(isProblem('orphan-lock', 'ada'), 20_000, 'the handle orphan');
      // Lock side: a raw delete of a2's email lock leaves a2 unprotected; only the lock table's stream says so.
      await client.send(new DeleteItemCommand({ TableName: locks, Key: lockKey('EMAIL', 'bob@x.io') }));
      const missing = await log.waitFor(isProblem('missing-lock', 'bob@x.io'), 20_000, 'the missing lock');
      expect(missing).toMatchObject({
        problem: { accounts: [{ PK: 'ACCT#a2', SK: 'PROFILE' }] },
        cause: { eventName: 'REMOVE', keys: { PK: 'UNIQ#EMAIL#bob@x.io' } },
      });
      // A lock written into the accounts table protects nothing: malformed, as the audit says.
      await client.send(new PutItemCommand({ TableName: table, Item: lockKey('EMAIL', 'bob@x.io') }));
      await log.waitFor((e) => e.event === 'problem' && e.problem.kind === 'malformed-lock', 20_000, 'the malformed lock');
      // Events go out in settle order: the healthy signups raised nothing, and the missing lock is not "resolved" by a lock in the wrong table.
      const raised = log.events.flatMap((e) => (e.event === 'watching' ? [] : [`${e.event} ${e.problem.kind} ${e.problem.value}`]));
      expect(raised.sort()).toEqual(
        [
          'problem malformed-lock UNIQ#EMAIL#bob@x.io',
          'problem missing-lock bob@x.io',
          'problem orphan-lock ada',
          'problem orphan-lock ada@x.io',
          'problem missing-lock first',
          'problem missing-lock first@x.io',
        ].sort(),
      );
    } finally {
      controller.abort();
      await running;
      streams.destroy();
    }
  });
});

describe('watch: a table it cannot read', () => {
  it.each([
    { stream: 'none' as const, says: 'has no stream' },
    { stream: 'KEYS_ONLY' as const, says: 'streams KEYS_ONLY images' },
  ])('refuses a table with stream $stream and names the exact command', async ({ stream, says }) => {
    const table = await createStreamTable(client, 'watch-nostream', { stream });
    tables.push(table);
    const found = await findWatchableStream(client, table);
    expect(found.ok).toBe(false);
    if (found.ok) return;
    expect(found.error.message).toContain(says);
    expect(found.error.fix).toContain(enableStreamCommand(table));
    expect(enableStreamCommand(table)).toBe(
      `aws dynamodb update-table --table-name ${table} --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES`,
    );
  });
});
