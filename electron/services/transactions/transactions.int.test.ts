import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand, DynamoDBClient, GetItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { presetConvention, PRESET_DEFAULTS } from '../../../shared/conventions/presets';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import type { Convention, Item, KeySchema, PlainKey, PresetName } from '../../../shared/model';
import { PRESET_NAMES } from '../../../shared/model';
import { keyOf, toTypedKey } from '../../../shared/plain-key';
import type { Outcome, Preview, TransactionOperation } from '../../../shared/transactions/types';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { sendTransaction } from './execute';
import { PreviewStore } from './preview-store';
import { executePreview, previewTransaction, readActivity, type TransactionContext } from './service';

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const tables: string[] = [];
let dataDir = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'locksmith-tx-'));
});
afterAll(async () => {
  await Promise.all(tables.map((t) => deleteTable(admin, t)));
  await rm(dataDir, { recursive: true, force: true });
});

async function table(keys: KeySchema, items: readonly Item[] = []): Promise<string> {
  const name = await createTempTable(admin, keys, 'tx');
  tables.push(name);
  if (items.length > 0) await putItems(admin, name, items);
  return name;
}

function context(
  options: { writable?: boolean; client?: DynamoDBClient; store?: PreviewStore; secrets?: string[] } = {},
): TransactionContext {
  return {
    client: options.client ?? admin,
    connectionId: 'test-local',
    connection: { label: 'test-local', region: 'us-east-1', endpoint },
    writable: options.writable ?? true,
    ...(options.secrets ? { secrets: options.secrets } : {}),
    deps: { store: options.store ?? new PreviewStore(), dataDir, retry: { maxAttempts: 8, baseMs: 5, capMs: 50 }, holderSegments: 2 },
  };
}

async function preview(ctx: TransactionContext, name: string, convention: Convention, operation: TransactionOperation): Promise<Preview> {
  const r = await previewTransaction(ctx, { table: name, convention, operation });
  if (!r.ok) throw new Error(`preview failed: ${r.error.message}`);
  return r.value;
}

async function execute(ctx: TransactionContext, p: Preview, confirmation = p.confirm): Promise<Outcome> {
  const r = await executePreview(ctx, { previewId: p.id, confirmation });
  if (!r.ok) throw new Error(`execute failed: ${r.error.kind}: ${r.error.message}`);
  return r.value;
}

async function get(name: string, convention: Convention, key: PlainKey): Promise<Item | undefined> {
  return (await admin.send(new GetItemCommand({ TableName: name, Key: toTypedKey(key, convention.keys), ConsistentRead: true }))).Item;
}

async function all(name: string): Promise<Item[]> {
  return (await admin.send(new ScanCommand({ TableName: name, ConsistentRead: true }))).Items ?? [];
}

describe('race', () => {
  it('50 concurrent claims of one value from separate clients: one succeeds, 49 are told who holds it, one lock', async () => {
    const layout = layoutFor('uniq', { ownerAttribute: 'owner' });
    const conv = layout.convention;
    const accounts = Array.from({ length: 50 }, (_, i) => layout.account(`r${i}`, { username: 'ada' }));
    const name = await table(conv.keys, accounts);
    const store = new PreviewStore();
    const clients = accounts.map(() => testClient(endpoint));
    const previews = await Promise.all(
      accounts.map((a, i) =>
        preview(context({ client: clients[i]!, store }), name, conv, {
          kind: 'claim',
          rule: 'HANDLE',
          value: 'ada',
          account: keyOf(a, conv.keys),
        }),
      ),
    );
    const outcomes = await Promise.all(previews.map((p, i) => execute(context({ client: clients[i]!, store }), p)));
    const winners = outcomes.filter((o) => o.status === 'succeeded');
    expect(winners).toHaveLength(1);
    const locks = (await all(name)).filter((i) => i.PK?.S?.startsWith('UNIQ#'));
    expect(locks).toHaveLength(1);
    const holder = locks[0]!.owner?.S;
    const losers = outcomes.filter((o) => o.status === 'cancelled');
    expect(losers).toHaveLength(49);
    for (const o of losers) {
      expect(o.status === 'cancelled' && o.reasons[0]).toMatchObject({
        code: 'ConditionalCheckFailed',
        holder,
        message: `handle \`ada\` is already held by ${holder} — the lock UNIQ#HANDLE#ada / LOCK exists`,
      });
    }
  });
});

describe('idempotency and staleness', () => {
  const layout = layoutFor('uniq');
  const conv = layout.convention;
  const acct = layout.account('i1', { username: 'grace', email: 'g@x.io' });
  const acctKey = keyOf(acct, conv.keys);
  const lockKey = { PK: 'UNIQ#HANDLE#grace', SK: 'LOCK' };

  it('a preview is used once: executed again it is refused and nothing is sent', async () => {
    const name = await table(conv.keys, [acct]);
    const ctx = context();
    const p = await preview(ctx, name, conv, { kind: 'claim', rule: 'HANDLE', value: 'grace', account: acctKey });
    expect((await execute(ctx, p)).status).toBe('succeeded');
    // Remove the lock behind the preview's back: a second send would write it again.
    await admin.send(new DeleteItemCommand({ TableName: name, Key: toTypedKey(lockKey, conv.keys) }));
    expect(await executePreview(ctx, { previewId: p.id, confirmation: p.confirm })).toMatchObject({
      ok: false,
      error: { kind: 'conflict', message: expect.stringMatching(/already executed/) },
    });
    expect(await get(name, conv, lockKey)).toBeUndefined();
  });

  it('five simultaneous executes of one preview: one is sent and logged, four are told it is already being executed (#16 finding 6)', async () => {
    const name = await table(conv.keys, [acct]);
    const client = testClient(endpoint);
    let sends = 0;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand') sends++;
        return next(args);
      },
      { step: 'initialize', name: 'count-sends' },
    );
    const logDir = await mkdtemp(join(tmpdir(), 'locksmith-once-'));
    const base = context({ client });
    const ctx: TransactionContext = { ...base, deps: { ...base.deps, dataDir: logDir } };
    const p = await preview(ctx, name, conv, { kind: 'claim', rule: 'HANDLE', value: 'grace', account: acctKey });
    const results = await Promise.all(Array.from({ length: 5 }, () => executePreview(ctx, { previewId: p.id, confirmation: p.confirm })));
    expect(results.filter((r) => r.ok && r.value.status === 'succeeded')).toHaveLength(1);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(4);
    for (const r of refused)
      expect(r).toMatchObject({
        ok: false,
        error: { kind: 'conflict', message: expect.stringMatching(/already being executed: nothing was sent/) },
      });
    expect(sends).toBe(1);
    expect((await readActivity({ dataDir: logDir })).filter((e) => e.previewId === p.id)).toHaveLength(1);
    await rm(logDir, { recursive: true, force: true });
  });

  it('the same token with another request is explained', async () => {
    const name = await table(conv.keys, [acct]);
    const ctx = context();
    const p = await preview(ctx, name, conv, { kind: 'claim', rule: 'HANDLE', value: 'grace', account: acctKey });
    expect((await execute(ctx, p)).status).toBe('succeeded');
    const other = await preview(ctx, name, conv, { kind: 'claim', rule: 'EMAIL', value: 'g@x.io', account: acctKey });
    const r = await sendTransaction({ client: admin, input: { ...other.input, ClientRequestToken: p.input.ClientRequestToken } });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('conflict');
      expect(r.error.message).toMatch(/already used in the last 10 minutes with a different request \(IdempotentParameterMismatch\)/);
    }
    expect(await get(name, conv, { PK: 'UNIQ#EMAIL#g@x.io', SK: 'LOCK' })).toBeUndefined();
  });

  it('a preview is executed only on the connection it was made on, told by id (the same label, region and endpoint is not enough)', async () => {
    const name = await table(conv.keys, [acct]);
    const store = new PreviewStore();
    const ctx = context({ store });
    const p = await preview(ctx, name, conv, { kind: 'claim', rule: 'HANDLE', value: 'grace', account: acctKey });
    const elsewhere = await executePreview({ ...ctx, connectionId: 'another-connection' }, { previewId: p.id, confirmation: p.confirm });
    expect(elsewhere).toMatchObject({
      ok: false,
      error: {
        kind: 'validation',
        field: 'previewId',
        message: expect.stringMatching(/was made for test-local.*preview again on this connection/),
      },
    });
    expect(await get(name, conv, { PK: 'UNIQ#HANDLE#grace', SK: 'LOCK' })).toBeUndefined();
    expect((await execute(ctx, p)).status).toBe('succeeded');
  });

  it('a stale preview fails on its condition with a clear message and writes nothing', async () => {
    const name = await table(conv.keys, [acct]);
    const ctx = context();
    const p = await preview(ctx, name, conv, { kind: 'claim', rule: 'HANDLE', value: 'grace', account: acctKey });
    // Meanwhile the account changes its handle.
    await putItems(admin, name, [{ ...acct, username: { S: 'hopper' } }]);
    const o = await execute(ctx, p);
    expect(o.status).toBe('cancelled');
    if (o.status === 'cancelled') {
      expect(o.reasons.map((r) => r.code)).toEqual(['None', 'ConditionalCheckFailed']);
      expect(o.message).toBe('ACCT#i1 / PROFILE no longer holds handle `grace` (or no longer exists): username is now `hopper`');
    }
    expect(await get(name, conv, lockKey)).toBeUndefined();
  });

  it('an expired preview is refused', async () => {
    let now = 1_000_000;
    const store = new PreviewStore(() => now);
    const name = await table(conv.keys, [acct]);
    const ctx = context({ store });
    const p = await preview(ctx, name, conv, { kind: 'claim', rule: 'HANDLE', value: 'grace', account: acctKey });
    now += 10 * 60 * 1000;
    const r = await executePreview(ctx, { previewId: p.id, confirmation: p.confirm });
    expect(!r.ok && r.error).toMatchObject({ kind: 'not-found' });
    expect(await get(name, conv, lockKey)).toBeUndefined();
  });
});

describe('guards', () => {
  const layout = layoutFor('uniq');
  const conv = layout.convention;

  it('release is refused while an account holds the value (in another spelling), and nothing is sent', async () => {
    const holder = layout.account('h1', { username: 'Ada ' });
    const name = await table(conv.keys, [holder, layout.lock('HANDLE', 'ada')]);
    const ctx = context();
    const p = await preview(ctx, name, conv, { kind: 'release', rule: 'HANDLE', value: 'ada' });
    expect(p.guards.notGuarded.join(' ')).toMatch(/no condition for "no account holds `ada`"/);
    const o = await execute(ctx, p);
    expect(o).toMatchObject({ status: 'refused', holders: [keyOf(holder, conv.keys)] });
    expect(await get(name, conv, { PK: 'UNIQ#HANDLE#ada', SK: 'LOCK' })).toBeDefined();
  });

  it('release of an orphan an account took after the preview (an audit minutes old): refused at Execute, nothing sent', async () => {
    const name = await table(conv.keys, [layout.lock('HANDLE', 'lovelace')]);
    const ctx = context();
    const p = await preview(ctx, name, conv, { kind: 'release', rule: 'HANDLE', value: 'lovelace' });
    // Between the preview (the orphan verdict) and Execute, an account comes to hold the value (written raw).
    const taker = layout.account('late1', { username: 'Lovelace' });
    await putItems(admin, name, [taker]);
    const o = await execute(ctx, p);
    expect(o).toMatchObject({
      status: 'refused',
      holders: [keyOf(taker, conv.keys)],
      message: expect.stringContaining('Nothing was sent'),
    });
    expect(await get(name, conv, { PK: 'UNIQ#HANDLE#lovelace', SK: 'LOCK' })).toBeDefined();
  });

  it('a read-only connection refuses before sending anything; a wrong confirmation too', async () => {
    const name = await table(conv.keys, [layout.lock('HANDLE', 'orphan')]);
    const sent: string[] = [];
    const spy = testClient(endpoint);
    spy.middlewareStack.add(
      (next, context) => async (args) => {
        sent.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: 'count-commands' },
    );
    const store = new PreviewStore();
    const p = await preview(context({ client: spy, store }), name, conv, { kind: 'release', rule: 'HANDLE', value: 'orphan' });
    sent.length = 0;
    const readOnly = await executePreview(context({ client: spy, store, writable: false }), { previewId: p.id, confirmation: p.confirm });
    expect(!readOnly.ok && readOnly.error.kind).toBe('read-only');
    const wrong = await executePreview(context({ client: spy, store }), { previewId: p.id, confirmation: 'orphan ' });
    expect(!wrong.ok && wrong.error).toMatchObject({ kind: 'validation', field: 'confirmation' });
    expect(sent).toEqual([]);
    expect(await get(name, conv, { PK: 'UNIQ#HANDLE#orphan', SK: 'LOCK' })).toBeDefined();
    // Allowed, it goes through, and the orphan is gone.
    expect((await execute(context({ client: spy, store }), p)).status).toBe('succeeded');
    expect(await get(name, conv, { PK: 'UNIQ#HANDLE#orphan', SK: 'LOCK' })).toBeUndefined();
  });
});

describe('a release deletes only a lock', () => {
  const base = layoutFor('uniq').convention;
  const lockTemplate = { hash: 'ACCT#{value}', range: 'PROFILE' };

  it('a convention whose lock template is the account key: the preview is refused and the account stays', async () => {
    const conv: Convention = { ...base, rules: [{ ...base.rules[1]!, lockKeys: [lockTemplate] }] };
    const account: Item = { PK: { S: 'ACCT#zz1' }, SK: { S: 'PROFILE' }, username: { S: 'zz1-elsewhere' }, email: { S: 'z@x.io' } };
    const name = await table(conv.keys, [account]);
    const r = await previewTransaction(context(), {
      table: name,
      convention: conv,
      operation: { kind: 'release', rule: conv.rules[0]!.name, value: 'zz1' },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/is an account key under this convention/);
    expect(await all(name)).toEqual([account]);
  });

  it('accounts recognised by an attribute: the Delete condition itself refuses an item carrying a rule attribute', async () => {
    const conv: Convention = {
      ...base,
      account: { kind: 'attribute-equals', attribute: '_type', value: 'User' },
      rules: [{ ...base.rules[1]!, lockKeys: [lockTemplate] }],
    };
    const account: Item = { PK: { S: 'ACCT#zz1' }, SK: { S: 'PROFILE' }, _type: { S: 'User' }, username: { S: 'someone-else' } };
    const name = await table(conv.keys, [account]);
    const ctx = context();
    const p = await preview(ctx, name, conv, { kind: 'release', rule: conv.rules[0]!.name, value: 'zz1' });
    const outcome = await execute(ctx, p);
    expect(outcome.status).toBe('cancelled');
    expect(await all(name)).toEqual([account]);
  });
});

describe('release with an owner attribute', () => {
  const layout = layoutFor('uniq', { ownerAttribute: 'owner' });
  const conv = layout.convention;

  it('pins the owner on the lock and what the last holder holds now', async () => {
    const holder = layout.account('o1', { username: 'newname' });
    const name = await table(conv.keys, [holder, layout.lock('HANDLE', 'oldname', { owner: { S: 'ACCT#o1' } })]);
    const ctx = context();
    const p = await preview(ctx, name, conv, { kind: 'release', rule: 'HANDLE', value: 'oldname' });
    expect(p.input.TransactItems).toMatchObject([
      {
        Delete: {
          ConditionExpression: 'attribute_exists(#pk) AND #owner = :owner AND attribute_not_exists(#ra0) AND attribute_not_exists(#ra1)',
          ExpressionAttributeValues: { ':owner': { S: 'ACCT#o1' } },
        },
      },
      {
        ConditionCheck: {
          Key: { PK: { S: 'ACCT#o1' }, SK: { S: 'PROFILE' } },
          ConditionExpression: 'attribute_not_exists(#attr) OR #attr = :seen',
          ExpressionAttributeValues: { ':seen': { S: 'newname' } },
        },
      },
    ]);
    expect((await execute(ctx, p)).status).toBe('succeeded');
    expect(await get(name, conv, { PK: 'UNIQ#HANDLE#oldname', SK: 'LOCK' })).toBeUndefined();
  });

  it('a lock re-claimed by someone else after the preview is not deleted', async () => {
    const name = await table(conv.keys, [layout.lock('HANDLE', 'stuck', { owner: { S: 'ACCT#gone' } })]);
    const ctx = context();
    const p = await preview(ctx, name, conv, { kind: 'release', rule: 'HANDLE', value: 'stuck' });
    await putItems(admin, name, [layout.lock('HANDLE', 'stuck', { owner: { S: 'ACCT#new' } })]);
    const o = await execute(ctx, p);
    expect(o.status === 'cancelled' && o.reasons[0]).toMatchObject({
      code: 'ConditionalCheckFailed',
      holder: 'ACCT#new',
      message: 'the lock UNIQ#HANDLE#stuck / LOCK names ACCT#new, not the expected owner',
    });
    expect((await get(name, conv, { PK: 'UNIQ#HANDLE#stuck', SK: 'LOCK' }))?.owner?.S).toBe('ACCT#new');
  });
});

describe('pre-flight at preview', () => {
  it('a value too long for the key is refused before anything is stored or sent', async () => {
    const layout = layoutFor('marker');
    const name = await table(layout.convention.keys, [layout.account('m1', { name: '가'.repeat(700) })]);
    const r = await previewTransaction(context(), {
      table: name,
      convention: layout.convention,
      operation: { kind: 'claim', rule: 'NAME', value: '가'.repeat(700), account: { userId: 'm1' } },
    });
    expect(!r.ok && r.error).toMatchObject({ kind: 'validation', field: 'value' });
    if (!r.ok) expect(r.error.message).toMatch(/NAME: the lock key is 2,105 bytes in UTF-8; DynamoDB allows at most 2,048/);
  });
});

const hashOnlyUniq = presetConvention('uniq', { hash: { name: 'PK', type: 'S' } }, PRESET_DEFAULTS.uniq);

describe.each([
  ...PRESET_NAMES.map((p) => [p, layoutFor(p).convention] as const),
  ['uniq hash-only', hashOnlyUniq] as const,
  ['uniq + owner', layoutFor('uniq', { ownerAttribute: 'owner' }).convention] as const,
])('every template on %s', (_name, conv) => {
  const preset = conv.preset as PresetName;
  const accountKey = (id: string): PlainKey => {
    const item = layoutFor(preset).account(id, {});
    return conv.keys.range
      ? keyOf(item, conv.keys)
      : { [conv.keys.hash.name]: String(keyOf(item, layoutFor(preset).convention.keys)[layoutFor(preset).convention.keys.hash.name]) };
  };
  const rule = conv.rules[0]!;
  const locks = async (name: string): Promise<string[]> =>
    (await all(name))
      .map((i) => i[conv.keys.hash.name]?.S ?? '')
      .filter((h) => conv.rules.some((r) => h.startsWith(r.lockKeys[0]!.hash.split('{value}')[0]!)))
      .sort();

  it('signup → change value → claim/release → delete account, with unicode values', async () => {
    const name = await table(conv.keys);
    const ctx = context();
    const id = accountKey('u1');
    const values = Object.fromEntries(conv.rules.map((r, i) => [r.name, `Ünï-${i}-백과`]));
    expect((await execute(ctx, await preview(ctx, name, conv, { kind: 'signup', account: id, values }))).status).toBe('succeeded');
    expect(await locks(name)).toHaveLength(conv.rules.length);
    // Signing up again with the same values is cancelled on the account and every lock.
    const again = await execute(ctx, await preview(ctx, name, conv, { kind: 'signup', account: accountKey('u2'), values }));
    expect(again.status === 'cancelled' && again.reasons.map((r) => r.code)).toEqual([
      'None',
      ...conv.rules.map(() => 'ConditionalCheckFailed'),
    ]);

    const change = await preview(ctx, name, conv, { kind: 'change-value', account: id, rule: rule.name, to: 'Nouveau-값' });
    expect((await execute(ctx, change)).status).toBe('succeeded');
    expect((await get(name, conv, id))?.[rule.attribute]?.S).toBe('Nouveau-값');

    // Release the new lock while the account holds it: refused. Then claim is cancelled: already held.
    const release = await previewTransaction(ctx, {
      table: name,
      convention: conv,
      operation: { kind: 'release', rule: rule.name, value: 'Nouveau-값' },
    });
    if (conv.ownerAttribute) {
      // The lock names its holder, so the preview itself already knows the value is held.
      expect(!release.ok && release.error.kind).toBe('conflict');
    } else {
      if (!release.ok) throw new Error(release.error.message);
      expect((await execute(ctx, release.value)).status).toBe('refused');
    }
    const claim = await execute(ctx, await preview(ctx, name, conv, { kind: 'claim', rule: rule.name, value: 'Nouveau-값', account: id }));
    expect(claim.status).toBe('cancelled');

    expect((await execute(ctx, await preview(ctx, name, conv, { kind: 'delete-account', account: id }))).status).toBe('succeeded');
    expect(await all(name)).toEqual([]);
  });
});

describe('activity log', () => {
  it('writes one line per executed request, mode 0600, without credentials', async () => {
    const secret = 'verySecretKey0123456789abcdefABCDEF';
    const client = new DynamoDBClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIAABCDEFGHIJKLMNOP', secretAccessKey: secret },
    });
    const layout = layoutFor('marker');
    const conv = layout.convention;
    const name = await table(conv.keys, [layout.account('m1', { name: '백과' })]);
    const ctx = context({ client, secrets: [secret, 'AKIAABCDEFGHIJKLMNOP'] });
    const before = (await readActivity({ dataDir, limit: 10_000 })).length;
    const p = await preview(ctx, name, conv, { kind: 'claim', rule: 'NAME', value: '백과', account: { userId: 'm1' } });
    expect((await execute(ctx, p)).status).toBe('succeeded');
    const entries = await readActivity({ dataDir, limit: 10_000 });
    expect(entries.length).toBe(before + 1);
    expect(entries[0]).toMatchObject({
      connection: 'test-local',
      region: 'us-east-1',
      endpoint,
      table: name,
      previewId: p.id,
      token: p.input.ClientRequestToken,
      request: p.input,
      outcome: { status: 'succeeded' },
    });
    const file = join(dataDir, 'audit-log.jsonl');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('AKIAABCDEFGHIJKLMNOP');
  });
});
