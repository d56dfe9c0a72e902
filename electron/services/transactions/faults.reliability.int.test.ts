/**
 * Reliability: transactions under injected network faults, throttling and conflicts, against the
 * run's DynamoDB Local. Every case ends in a clear state — written exactly once, or not at all —
 * checked by reading the table back, not by trusting the outcome.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand, ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import type { Item } from '../../../shared/model';
import { keyOf, toTypedKey } from '../../../shared/plain-key';
import type { TransactionOperation } from '../../../shared/transactions/types';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { faultInjector, THROTTLE_FAULTS, type FaultKind, type FaultRule } from '../../testing/reliability/faults';
import { recordFigures } from '../../testing/reliability/figures';
import { createDynamoClient } from '../dynamo/client';
import { sendTransaction } from './execute';
import { PreviewStore } from './preview-store';
import { executePreview, previewTransaction, readActivity, type TransactionContext } from './service';

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
const conv = layout.convention;
const tables: string[] = [];
const clients: DynamoDBClient[] = [];
let dataDir = '';
const FAST = { maxAttempts: 6, baseMs: 2, capMs: 20 };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'locksmith-faults-'));
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await Promise.all(tables.map((t) => deleteTable(admin, t)));
  await rm(dataDir, { recursive: true, force: true });
});

async function table(items: readonly Item[]): Promise<string> {
  const name = await createTempTable(admin, conv.keys, 'faults');
  tables.push(name);
  await putItems(admin, name, items);
  return name;
}

/** A production client (createDynamoClient: SDK retries off, our own retry on) with faults injected. */
function faultyContext(
  rules: readonly FaultRule[],
  retry = FAST,
): { ctx: TransactionContext; log: ReturnType<typeof faultInjector>['log'] } {
  const { middleware, log } = faultInjector(rules);
  const client = createDynamoClient({ label: 'faults', endpoint, region: 'us-east-1' }, { middleware: [middleware], env: {} });
  clients.push(client);
  return {
    ctx: {
      connectionId: 'faults',
      client,
      connection: { label: 'faults', region: 'us-east-1', endpoint },
      writable: true,
      deps: { store: new PreviewStore(), dataDir, retry, wait: () => Promise.resolve(), holderSegments: 1 },
    },
    log,
  };
}

const lockKey = (value: string) => toTypedKey({ PK: `UNIQ#HANDLE#${value}`, SK: 'LOCK' }, conv.keys);
const locksIn = async (name: string): Promise<Item[]> =>
  ((await admin.send(new ScanCommand({ TableName: name, ConsistentRead: true }))).Items ?? []).filter((i) => i.PK?.S?.startsWith('UNIQ#'));

async function run(ctx: TransactionContext, name: string, operation: TransactionOperation) {
  const preview = await previewTransaction(ctx, { table: name, convention: conv, operation });
  if (!preview.ok) throw new Error(preview.error.message);
  return {
    preview: preview.value,
    result: await executePreview(ctx, { previewId: preview.value.id, confirmation: preview.value.confirm }),
  };
}

const tally = { ambiguous: 0, transient: 0, throttles: 0, conflicts: 0, persistent: 0, writesLost: 0, doubleWrites: 0 };

describe('ambiguous commit: the server applied the transaction, the answer was lost', () => {
  it.each<[string, FaultKind]>([
    ['connection reset', 'reset'],
    ['timeout', 'timeout'],
  ])(
    'claim, answer lost to a %s: the retry with the same ClientRequestToken succeeds and the lock is written exactly once',
    async (_label, fault) => {
      const account = layout.account('a1', { username: 'ada' });
      const name = await table([account]);
      const { ctx, log } = faultyContext([{ command: 'TransactWriteItemsCommand', on: (n) => n === 1, fault, phase: 'after' }]);
      const { preview, result } = await run(ctx, name, { kind: 'claim', rule: 'HANDLE', value: 'ada', account: keyOf(account, conv.keys) });
      expect(result).toMatchObject({ ok: true, value: { status: 'succeeded', attempts: 2, token: preview.input.ClientRequestToken } });
      expect(log.calls.get('TransactWriteItemsCommand')).toBe(2);
      expect(await locksIn(name)).toHaveLength(1);
      // The token is what made the retry safe: the same actions under a new token are refused by the lock's own condition.
      const fresh = await sendTransaction({
        client: admin,
        input: { ...preview.input, ClientRequestToken: `${preview.input.ClientRequestToken.slice(0, -4)}ffff` },
      });
      expect(fresh.ok && fresh.value.status).toBe('cancelled');
      expect(await locksIn(name)).toHaveLength(1);
      tally.ambiguous += 1;
    },
  );

  it('release, answer lost: the retry succeeds through the token instead of failing on attribute_exists, and the lock is gone once', async () => {
    const name = await table([layout.lock('HANDLE', 'stuck')]);
    const { ctx } = faultyContext([{ command: 'TransactWriteItemsCommand', on: (n) => n === 1, fault: 'reset', phase: 'after' }]);
    const { result } = await run(ctx, name, { kind: 'release', rule: 'HANDLE', value: 'stuck' });
    expect(result).toMatchObject({ ok: true, value: { status: 'succeeded', attempts: 2 } });
    expect((await admin.send(new GetItemCommand({ TableName: name, Key: lockKey('stuck'), ConsistentRead: true }))).Item).toBeUndefined();
    const logged = (await readActivity({ dataDir, limit: 10_000 })).find((e) => e.table === name);
    expect(logged?.outcome).toMatchObject({ status: 'succeeded', attempts: 2 });
    tally.ambiguous += 1;
  });
});

describe('the outcome unknown: the answer was lost and every retry failed too', () => {
  it('says the claim may have been applied (it was), never that nothing was written', async () => {
    const account = layout.account('a1', { username: 'hedy' });
    const name = await table([account]);
    // Attempt 1 is served and its answer lost; every later attempt finds no connection (never sent).
    const { ctx } = faultyContext([
      { command: 'TransactWriteItemsCommand', on: (n) => n === 1, fault: 'reset', phase: 'after' },
      { command: 'TransactWriteItemsCommand', on: (n) => n > 1, fault: 'refused', phase: 'before' },
    ]);
    const { preview, result } = await run(ctx, name, { kind: 'claim', rule: 'HANDLE', value: 'hedy', account: keyOf(account, conv.keys) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toMatch(/^the outcome is unknown — the request may have been applied/);
    expect(result.error.message).toContain(preview.input.ClientRequestToken);
    expect(result.error.fix).toMatch(/look the values up/);
    expect(result.error.outcome).toBe('unknown');
    expect(await locksIn(name)).toHaveLength(1);
    // The activity log says it as it is: not a failure that did nothing.
    const logged = (await readActivity({ dataDir, limit: 10_000 })).find((e) => e.table === name);
    expect(logged?.outcome.status).toBe('outcome-unknown');
  });

  it('a request that never left (every attempt refused a connection) is a plain failure', async () => {
    const account = layout.account('a1', { username: 'lamarr' });
    const name = await table([account]);
    const { ctx } = faultyContext([{ command: 'TransactWriteItemsCommand', on: () => true, fault: 'refused', phase: 'before' }]);
    const { result } = await run(ctx, name, { kind: 'claim', rule: 'HANDLE', value: 'lamarr', account: keyOf(account, conv.keys) });
    expect(result).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
    if (!result.ok) expect(result.error.message).not.toMatch(/outcome is unknown/);
    if (!result.ok) expect(result.error.outcome).toBeUndefined();
    expect(await locksIn(name)).toHaveLength(0);
    expect((await readActivity({ dataDir, limit: 10_000 })).find((e) => e.table === name)?.outcome.status).toBe('error');
  });
});

describe('naming the holder of a value a claim found taken', () => {
  it('a search for holders that fails says so, never "no other account holds it"', async () => {
    // Locks that name no owner: only a scan can say who holds the value.
    const { ownerAttribute: _owner, ...anonymous } = conv;
    const a = layout.account('a1', { username: 'ada' });
    const b = layout.account('b1', { username: 'ada' });
    const name = await table([a, b, layout.lock('HANDLE', 'ada')]);
    // The scan fails at once (a refused connection is not retried).
    const { ctx } = faultyContext([{ command: 'ScanCommand', on: () => true, fault: 'refused' }]);
    const preview = await previewTransaction(ctx, {
      table: name,
      convention: anonymous,
      operation: { kind: 'claim', rule: 'HANDLE', value: 'ada', account: keyOf(a, conv.keys) },
    });
    if (!preview.ok) throw new Error(preview.error.message);
    const result = await executePreview(ctx, { previewId: preview.value.id, confirmation: preview.value.confirm });
    expect(result.ok && result.value.status).toBe('cancelled');
    const message = result.ok ? result.value.message : '';
    expect(message).not.toMatch(/no other account holds it/);
    expect(message).toMatch(/who holds it could not be looked up \(cannot reach .*ECONNREFUSED\)/);
  });
});

describe('faults before the request reaches DynamoDB', () => {
  it('connection resets and timeouts are retried with the same token: written once', async () => {
    const account = layout.account('a1', { username: 'grace' });
    const name = await table([account]);
    const faults: FaultKind[] = ['reset', 'timeout', 'reset'];
    const { ctx, log } = faultyContext([
      { command: 'TransactWriteItemsCommand', on: (n) => n <= 3, fault: (n) => faults[n - 1] ?? 'reset' },
    ]);
    const { result } = await run(ctx, name, { kind: 'claim', rule: 'HANDLE', value: 'grace', account: keyOf(account, conv.keys) });
    expect(result).toMatchObject({ ok: true, value: { status: 'succeeded', attempts: 4 } });
    expect(log.injected).toBe(3);
    expect(await locksIn(name)).toHaveLength(1);
    tally.transient += 3;
  });

  it.each(THROTTLE_FAULTS)('%s three times, then through: written once', async (fault) => {
    const account = layout.account('a1', { username: 'hopper' });
    const name = await table([account]);
    const { ctx, log } = faultyContext([{ command: 'TransactWriteItemsCommand', on: (n) => n <= 3, fault }]);
    const { result } = await run(ctx, name, { kind: 'claim', rule: 'HANDLE', value: 'hopper', account: keyOf(account, conv.keys) });
    expect(result).toMatchObject({ ok: true, value: { status: 'succeeded', attempts: 4 } });
    expect(log.injected).toBe(3);
    expect(await locksIn(name)).toHaveLength(1);
    tally.throttles += 3;
  });

  it('TransactionConflict twice, then through: written once', async () => {
    const account = layout.account('a1', { username: 'lamarr' });
    const name = await table([account]);
    const { ctx } = faultyContext([{ command: 'TransactWriteItemsCommand', on: (n) => n <= 2, fault: 'TransactionConflict' }]);
    const { result } = await run(ctx, name, { kind: 'claim', rule: 'HANDLE', value: 'lamarr', account: keyOf(account, conv.keys) });
    expect(result).toMatchObject({ ok: true, value: { status: 'succeeded', attempts: 3 } });
    expect(await locksIn(name)).toHaveLength(1);
    tally.conflicts += 2;
  });

  // A reset or a timeout looks the same to the client whether or not the request had left: logged as outcome-unknown.
  it.each<[FaultKind, string, string]>([
    ['ThrottlingException', 'throttled', 'error'],
    ['reset', 'unreachable', 'outcome-unknown'],
    ['timeout', 'unreachable', 'outcome-unknown'],
  ])(
    '%s that never ends: a clear %s error after the last attempt, nothing written, the failure logged as %s',
    async (fault, kind, status) => {
      const account = layout.account('a1', { username: 'noether' });
      const name = await table([account]);
      const { ctx, log } = faultyContext([{ command: 'TransactWriteItemsCommand', on: () => true, fault }]);
      const { result } = await run(ctx, name, { kind: 'claim', rule: 'HANDLE', value: 'noether', account: keyOf(account, conv.keys) });
      expect(result).toMatchObject({ ok: false, error: { kind } });
      expect(log.calls.get('TransactWriteItemsCommand')).toBe(FAST.maxAttempts);
      expect(await locksIn(name)).toHaveLength(0);
      const logged = (await readActivity({ dataDir, limit: 10_000 })).find((e) => e.table === name);
      expect(logged?.outcome).toMatchObject({ status, error: { kind } });
      tally.persistent += FAST.maxAttempts;
    },
  );

  it('TransactionConflict that never ends: cancelled with the reason named, nothing written', async () => {
    const account = layout.account('a1', { username: 'turing' });
    const name = await table([account]);
    const { ctx } = faultyContext([{ command: 'TransactWriteItemsCommand', on: () => true, fault: 'TransactionConflict' }]);
    const { result } = await run(ctx, name, { kind: 'claim', rule: 'HANDLE', value: 'turing', account: keyOf(account, conv.keys) });
    expect(result.ok && result.value).toMatchObject({
      status: 'cancelled',
      attempts: FAST.maxAttempts,
      reasons: [{ code: 'TransactionConflict' }],
    });
    expect(await locksIn(name)).toHaveLength(0);
    tally.persistent += FAST.maxAttempts;
  });
});

describe('the activity log after faults', () => {
  it('holds one line per executed request, each with a final outcome', async () => {
    const text = await readFile(join(dataDir, 'audit-log.jsonl'), 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { outcome: { status: string } });
    expect(lines.length).toBeGreaterThanOrEqual(10);
    for (const line of lines) expect(['succeeded', 'cancelled', 'error', 'outcome-unknown']).toContain(line.outcome.status);
    await recordFigures('tx-faults', { ...tally, requests: lines.length });
  });
});
