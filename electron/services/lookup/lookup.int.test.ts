import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CreateTableCommand, UpdateTableCommand, type UpdateTableCommandInput } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { formatLockKey } from '../../../shared/conventions/format';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../../shared/conventions/presets';
import { scopeFromRecord } from '../../../shared/conventions/scope';
import { suggestIndexes } from '../../../shared/conventions/suggest-index';
import type { Item } from '../../../shared/model';
import { createTempTable, deleteTable, putItems, testClient, uniqueTableName } from '../../testing/dynamo-fixtures';
import { createDynamoClient } from '../dynamo/client';
import { describeTable } from '../dynamo/tables';
import type { TableInfo } from '../dynamo/tables';
import { lookupValue } from './lookup';
import { lookupView } from './lookup-view';
import { connectionContext, tableContext } from '../context/request-context';
import type { LookupOptions } from './lookup-types';
import { convention, ITEMS, keys } from './testing/lookup-dataset';

const endpoint = inject('dynamoEndpoint');
const s = (value: string): { S: string } => ({ S: value });

let admin: DynamoDBClient;
let client: DynamoDBClient;
let withIndex: TableInfo;
let withoutIndex: TableInfo;

async function createIndexedTable(): Promise<string> {
  const name = uniqueTableName('lookup-gsi');
  await admin.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
        { AttributeName: 'email', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        { IndexName: 'email-index', KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } },
      ],
    }),
  );
  return name;
}

async function info(name: string): Promise<TableInfo> {
  const described = await describeTable(client, name);
  if (!described.ok) throw new Error(described.error.message);
  return described.value;
}

beforeAll(async () => {
  admin = testClient(endpoint);
  client = createDynamoClient({ label: 'test', endpoint, region: 'us-east-1' });
  const [indexed, plain] = await Promise.all([createIndexedTable(), createTempTable(admin, keys, 'lookup-scan')]);
  await Promise.all([putItems(admin, indexed, ITEMS), putItems(admin, plain, ITEMS)]);
  [withIndex, withoutIndex] = await Promise.all([info(indexed), info(plain)]);
});

afterAll(async () => {
  await Promise.all([deleteTable(admin, withIndex.name), deleteTable(admin, withoutIndex.name)]);
  admin.destroy();
  client.destroy();
});

async function lookup(table: TableInfo, value: string, extra: Partial<LookupOptions> = {}) {
  const answer = await lookupValue({ client, table, convention, value, rule: 'EMAIL', ...extra });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value;
}

describe('describeTable', () => {
  it('reports the GSI by its key attributes', () => {
    expect(withIndex.gsis).toEqual([
      { name: 'email-index', hash: { name: 'email', type: 'S' }, projection: 'KEYS_ONLY', status: 'ACTIVE' },
    ]);
    expect(withIndex.keys).toEqual(keys);
    expect(withoutIndex.gsis).toEqual([]);
  });
});

describe.each([
  ['through the GSI', () => withIndex, 'gsi'],
  ['through a scan', () => withoutIndex, 'scan'],
] as const)('lookupValue %s', (_label, table, method) => {
  it.each([
    ['dup@x.io', 'duplicate', ['ACCT#2', 'ACCT#3'], true],
    ['nolock@x.io', 'unprotected', ['ACCT#4'], false],
    ['orphan#1@x.io', 'orphan', [], true],
    ['free@x.io', 'free', [], false],
    ['Ada@Lovelace.io', 'held', ['ACCT#1'], true],
  ])('%s → %s', async (value, verdict, holders, lockExists) => {
    const answer = await lookup(table(), value);
    expect(answer.method).toBe(method);
    expect(answer.complete).toBe(true);
    const [rule] = answer.rules;
    expect(rule?.verdict).toBe(verdict);
    expect(rule?.holders.map((h) => h.PK).sort()).toEqual(holders);
    expect(rule?.locks.some((l) => l.exists)).toBe(lockExists);
    // Locks are read under the normalized value.
    expect(rule?.locks[0]?.key).toEqual({ PK: `UNIQ#EMAIL#${value.toLowerCase()}`, SK: 'LOCK' });
  });
});

describe('normalization and the index', () => {
  it('says the index finds stored forms only — and misses a differently spelled holder', async () => {
    const answer = await lookup(withIndex, 'ada@lovelace.io');
    expect(answer.rules[0]?.verdict).toBe('orphan');
    expect(answer.rules[0]?.notes.join(' ')).toMatch(/index email-index finds the stored form "ada@lovelace.io" only/);
  });

  it('the scan compares normalized values and finds the holder', async () => {
    const answer = await lookup(withoutIndex, 'ada@lovelace.io');
    expect(answer.rules[0]).toMatchObject({ verdict: 'held', holders: [{ PK: 'ACCT#1', SK: 'PROFILE' }] });
  });

  it('confirmAbsenceWithScan turns the index miss into a scan and the right verdict', async () => {
    const answer = await lookup(withIndex, 'ada@lovelace.io', { confirmAbsenceWithScan: true });
    expect(answer.rules[0]).toMatchObject({ verdict: 'held', search: { kind: 'scan', complete: true } });
  });
});

describe("an index's 'no holder'", () => {
  it('is confirmed by a consistent scan when asked, for a rule that normalizes nothing too (an index is eventually consistent)', async () => {
    const exact = { ...convention, rules: convention.rules.map((r) => (r.name === 'EMAIL' ? { ...r, normalize: [] } : r)) };
    const plain = await lookupValue({ client, table: withIndex, convention: exact, value: 'free@x.io', rule: 'EMAIL' });
    expect(plain.ok && plain.value.rules[0]?.search).toEqual({ kind: 'gsi', index: 'email-index' });
    const confirmed = await lookupValue({
      client,
      table: withIndex,
      convention: exact,
      value: 'free@x.io',
      rule: 'EMAIL',
      confirmAbsenceWithScan: true,
    });
    if (!confirmed.ok) throw new Error(confirmed.error.message);
    expect(confirmed.value.rules[0]).toMatchObject({ verdict: 'free', search: { kind: 'scan', complete: true } });
    expect(confirmed.value.rules[0]?.notes.join(' ')).toMatch(/index email-index found no holder; a consistent scan confirmed the answer/);
  });

  it("the app's view names the index an answer came from (the page offers the scan for its 'no holder'), and confirm takes the scan", async () => {
    const ctx = {
      ...tableContext(
        connectionContext({
          connectionId: 'endpoint:test',
          target: { label: 'test', endpoint, region: 'us-east-1' },
          client,
          writable: false,
          allowWrites: 'allow writes',
          endpoint,
          local: true,
        }),
        withIndex,
      ),
      convention,
      conventionSource: 'given' as const,
    };
    const byIndex = await lookupView(ctx, { value: 'free@x.io', rule: 'EMAIL' });
    expect(byIndex.ok && byIndex.value.rules[0]).toMatchObject({ verdict: 'free', byIndex: 'email-index', holders: [] });
    const confirmed = await lookupView(ctx, { value: 'free@x.io', rule: 'EMAIL', confirm: true });
    expect(confirmed.ok && confirmed.value.rules[0]?.verdict).toBe('free');
    expect(confirmed.ok && confirmed.value.rules[0]?.byIndex).toBeUndefined();
  });
});

describe('every rule at once', () => {
  it('answers each rule, mixing index and scan', async () => {
    const answer = await lookupValue({ client, table: withIndex, convention, value: 'ada' });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.value.method).toBe('mixed');
    expect(answer.value.rules.map((r) => [r.rule, r.verdict, r.search.kind])).toEqual([
      ['EMAIL', 'free', 'gsi'],
      ['HANDLE', 'held', 'scan'],
    ]);
  });

  it('rejects an unknown rule, naming the known ones', async () => {
    const answer = await lookupValue({ client, table: withIndex, convention, value: 'x', rule: 'PHONE' });
    expect(answer).toEqual({
      ok: false,
      error: { kind: 'validation', message: 'unknown rule PHONE (rules: EMAIL, HANDLE)', field: 'rule' },
    });
  });

  it('fails as cancelled, never with a guessed verdict, when the signal is aborted', async () => {
    const answer = await lookupValue({ client, table: withoutIndex, convention, value: 'dup@x.io', signal: AbortSignal.abort() });
    expect(answer).toEqual({ ok: false, error: { kind: 'cancelled', message: 'cancelled' } });
  });

  it('marks the answer incomplete when the holder scan is cancelled midway', async () => {
    const controller = new AbortController();
    const answer = await lookupValue({
      client,
      table: withoutIndex,
      convention,
      value: 'dup@x.io',
      segments: 2,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.value).toMatchObject({ complete: false, reason: 'cancelled' });
    expect(answer.value.rules[0]?.notes.join(' ')).toMatch(/did not finish/);
  });
});

describe('OneTable locks, legacy forms included', () => {
  const otKeys = PRESET_KEYS.onetable;
  const ot = presetConvention('onetable', otKeys, PRESET_DEFAULTS.onetable);
  const user = (id: string, email: string): Item => ({ pk: s(`User#${id}`), sk: s('User#'), _type: s('User'), email: s(email) });
  const otLock = (pk: string, sk: string): Item => ({ pk: s(pk), sk: s(sk), _type: s('_Unique') });
  let table: TableInfo;

  beforeAll(async () => {
    const name = await createTempTable(admin, otKeys, 'lookup-onetable');
    await putItems(admin, name, [
      user('1', 'charles@babbage.example'),
      otLock('_Unique:User:email:charles@babbage.example', '_unique:'),
      user('2', 'ada@lovelace.io'),
      otLock('_unique#User#email#ada@lovelace.io', '_unique#'),
      otLock('_unique#User#email#expired.trial@example.com', '_unique#'),
      otLock('_unique#User#email#undefined', '_unique#'),
    ]);
    table = await info(name);
  });

  afterAll(async () => {
    await deleteTable(admin, table.name);
  });

  it.each([
    ['charles@babbage.example', 'held', ['User#1'], true],
    ['ada@lovelace.io', 'held', ['User#2'], false],
    ['expired.trial@example.com', 'orphan', [], false],
    ['nobody@example.com', 'free', [], false],
  ])('%s → %s', async (value, verdict, holders, legacy) => {
    const answer = await lookupValue({ client, table, convention: ot, value });
    if (!answer.ok) throw new Error(answer.error.message);
    const [rule] = answer.value.rules;
    expect(rule).toMatchObject({ rule: 'User.email', verdict });
    expect(rule?.holders.map((h) => h.pk)).toEqual(holders);
    expect(rule?.locks.filter((l) => l.exists).map((l) => l.legacy)).toEqual(verdict === 'free' ? [] : [legacy]);
    expect(rule?.notes.join(' ')).toMatch(/scoped locks .* cannot be read by key/);
  });

  it('notes a malformed lock it finds', async () => {
    const answer = await lookupValue({ client, table, convention: ot, value: 'undefined' });
    if (!answer.ok) throw new Error(answer.error.message);
    expect(answer.value.rules[0]?.notes.join(' ')).toMatch(/exists but is malformed: .*literal `undefined`/);
  });
});

describe('a scoped rule through the index suggest-index prints', () => {
  const scoped = presetConvention('uniq', PRESET_KEYS.uniq, { ...PRESET_DEFAULTS.uniq, rules: [{ attribute: 'email', scope: 'orgId' }] });
  let table: TableInfo;

  beforeAll(async () => {
    const name = await createTempTable(admin, keys, 'lookup-scoped-gsi');
    const described = await describeTable(client, name);
    if (!described.ok) throw new Error(described.error.message);
    const [suggestion] = suggestIndexes({ name, keys, gsis: described.value.gsis, billingMode: 'PAY_PER_REQUEST' }, scoped);
    if (!suggestion) throw new Error('suggest-index suggested nothing');
    // What suggest-index prints: an index on the rule's attribute that projects only keys.
    await admin.send(new UpdateTableCommand(suggestion.updateTable as unknown as UpdateTableCommandInput));
    const scope = scopeFromRecord(scoped.rules[0]!, { orgId: 'acme' });
    if (typeof scope === 'string') throw new Error(scope);
    const lock = formatLockKey(scoped.rules[0]!, 'ada@x.io', scoped.rules[0]!.lockKeys[0]!, scope);
    await putItems(admin, name, [
      { PK: s('ACCT#1'), SK: s('PROFILE'), email: s('ada@x.io'), orgId: s('acme') },
      { PK: s(lock.hash), SK: s(lock.range ?? 'LOCK') },
      { PK: s('ACCT#2'), SK: s('PROFILE'), email: s('bob@x.io'), orgId: s('acme') },
      { PK: s('ACCT#3'), SK: s('PROFILE'), email: s('cy@x.io'), orgId: s('globex') },
    ]);
    table = await info(name);
  });

  afterAll(async () => {
    await deleteTable(admin, table.name);
  });

  it.each([
    ['ada@x.io', 'held', ['ACCT#1']],
    ['bob@x.io', 'unprotected', ['ACCT#2']],
    // Held in another scope only: free in this one.
    ['cy@x.io', 'free', []],
  ])('%s in acme → %s, as a scan says', async (value, verdict, holders) => {
    expect(table.gsis.map((g) => g.projection)).toEqual(['KEYS_ONLY']);
    const answer = await lookupValue({ client, table, convention: scoped, value, rule: scoped.rules[0]!.name, scope: { orgId: 'acme' } });
    if (!answer.ok) throw new Error(answer.error.message);
    expect(answer.value.method).toBe('gsi');
    expect(answer.value.rules[0]).toMatchObject({ verdict });
    expect(answer.value.rules[0]?.holders.map((h) => h.PK)).toEqual(holders);
  });
});

describe('the holder scan reads consistently', () => {
  it('asks every Scan request for ConsistentRead: a holder written a moment ago must be seen by the re-check after a write', async () => {
    const seen: unknown[] = [];
    const capturing = createDynamoClient({ label: 'test', endpoint, region: 'us-east-1' });
    capturing.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'ScanCommand') seen.push((args.input as { ConsistentRead?: boolean }).ConsistentRead);
        return next(args);
      },
      { step: 'initialize', name: 'capture-consistent-read' },
    );
    try {
      const answer = await lookupValue({
        client: capturing,
        table: withoutIndex,
        convention,
        value: 'dup@x.io',
        rule: 'EMAIL',
        segments: 2,
      });
      expect(answer.ok && answer.value.rules[0]?.verdict).toBe('duplicate');
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set([true]));
    } finally {
      capturing.destroy();
    }
  });
});
