/**
 * A single write (a preview) and a repair (a plan) are one guarded write: the same faults sent
 * through both meet the same gate and are told the same thing — expired, another connection, a moved
 * connection, read-only, a wrong confirmation, used twice — and a send that lost its answer or failed
 * its condition comes out the same way, logged, with the connection told of the write before and after.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import { keyOf } from '../../../shared/plain-key';
import type { AppError } from '../../../shared/result';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { faultInjector } from '../../testing/reliability/faults';
import { runAudit } from '../audit/run-audit';
import { createDynamoClient } from '../dynamo/client';
import { RepairService } from '../repair/repair-service';
import { readActivity } from './activity-log';
import { PREVIEW_TTL_MS } from './kept-writes';
import { PreviewStore } from './preview-store';
import { executePreview, previewTransaction, type TransactionContext } from './service';

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
const conv = layout.convention;
const account = layout.account('m0', { email: 'm0@x.io' });
const tables: string[] = [];
const clients: DynamoDBClient[] = [];
let dataDir = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'locksmith-one-gate-'));
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await Promise.all(tables.map((t) => deleteTable(admin, t)));
  await rm(dataDir, { recursive: true, force: true });
});

/** A table whose one account lacks its email lock: a claim puts it, and so does the repair of the audit's problem. */
async function table(): Promise<string> {
  const name = await createTempTable(admin, conv.keys, 'gate');
  tables.push(name);
  await putItems(admin, name, [account]);
  return name;
}

/** What came of an execute: the gate's refusal, or the send's end as both paths say it. */
type Ran = { readonly refused: AppError } | { readonly state: string; readonly message: string };

/** Time, the connection's client and the writes it is told of: what a test changes around one path. */
interface World {
  now: number;
  client: DynamoDBClient;
  writes: number;
}

function context(world: World, changes: Partial<TransactionContext> = {}): TransactionContext {
  return {
    connectionId: 'c1',
    client: world.client,
    connection: { label: 'test-local', region: 'us-east-1', endpoint },
    writable: true,
    deps: {
      dataDir,
      retry: { maxAttempts: 3, baseMs: 1, capMs: 2 },
      wait: () => Promise.resolve(),
      holderSegments: 1,
      onWrite: () => void world.writes++,
    },
    ...changes,
  };
}

/** One kind of guarded write: make one on a table, then execute it on a context with a confirmation. */
interface WritePath {
  readonly name: string;
  make(ctx: TransactionContext, name: string): Promise<{ readonly id: string; readonly confirm: string }>;
  run(ctx: TransactionContext, id: string, confirmation: string): Promise<Ran>;
  /** The activity-log line of what `run` sent. */
  logged(id: string): Promise<string | undefined>;
}

function singleWrite(world: World): WritePath {
  const store = new PreviewStore(() => world.now);
  const withStore = (ctx: TransactionContext): TransactionContext => ({ ...ctx, deps: { ...ctx.deps, store } });
  return {
    name: 'single write',
    async make(ctx, name) {
      const made = await previewTransaction(withStore(ctx), {
        table: name,
        convention: conv,
        operation: { kind: 'claim', rule: 'EMAIL', value: 'm0@x.io', account: keyOf(account, conv.keys) },
      });
      if (!made.ok) throw new Error(made.error.message);
      return { id: made.value.id, confirm: made.value.confirm };
    },
    async run(ctx, id, confirmation) {
      const done = await executePreview(withStore(ctx), { previewId: id, confirmation });
      if (done.ok) return { state: done.value.status, message: done.value.message };
      return done.error.outcome === 'unknown' ? { state: 'outcome-unknown', message: done.error.message } : { refused: done.error };
    },
    logged: async (id) => (await readActivity({ dataDir })).find((e) => e.previewId === id)?.outcome.status,
  };
}

function repair(world: World): WritePath {
  const service = new RepairService({ dataDir, clock: () => world.now });
  return {
    name: 'repair',
    async make(ctx, name) {
      const audit = await runAudit({ client: admin, table: name, convention: conv });
      const plan = await service.plan(ctx, { owner: ctx.connectionId, table: name, convention: conv, problems: audit.report.problems });
      if (!plan.ok) throw new Error(plan.error.message);
      expect(plan.value.transactions).toHaveLength(1);
      return { id: plan.value.planId, confirm: plan.value.confirmText };
    },
    async run(ctx, id, confirmation) {
      const started = service.start(ctx, { owner: ctx.connectionId, planId: id, confirmation });
      if (!started.ok) return { refused: started.error };
      const t = (await started.value.done).transactions[0]!;
      // The plan's own words around the send's: what the send said is the same.
      const message = (t.message ?? '')
        .replace(/; the plan stopped here$/, '')
        .replace(/^cancelled by DynamoDB, nothing in it was written: /, '');
      return { state: t.state, message };
    },
    logged: async (id) => (await readActivity({ dataDir })).find((e) => e.previewId === `${id}-1`)?.outcome.status,
  };
}

/** A refusal with the kind's own words (its noun, its id, how to get another, what the confirmation does) taken out. */
function spoken(ran: Ran): unknown {
  const words = (m: string): string =>
    m
      .replace(/\b(?:preview|repair plan) (?:pv|rp)_[a-f0-9]{32}/g, '<kept>')
      .replace(/\b(?:previews|repair plans) last/g, '<kept>s last')
      .replace(/a (?:preview|repair plan) is used once/g, 'a <kept> is used once')
      .replace(/\b(?:preview|plan) again/g, '<again>')
      .replace(/type `[^`]*` exactly to .*$/, 'type <confirm> exactly')
      .replace(/ClientRequestToken [0-9a-f-]{36}/g, 'ClientRequestToken <token>');
  if ('refused' in ran)
    return { kind: ran.refused.kind, field: ran.refused.field?.replace(/^(preview|plan)Id$/, '<id>'), message: words(ran.refused.message) };
  return { state: ran.state, message: words(ran.message) };
}

/** Sends one fault through both paths; answers what each said, for comparing. */
async function both(
  fault: (path: WritePath, world: World, name: string) => Promise<Ran>,
): Promise<{ single: Ran; repair: Ran; writes: number[] }> {
  const worlds: World[] = [0, 1].map(() => ({ now: 1_000_000, client: admin, writes: 0 }));
  const single = await fault(singleWrite(worlds[0]!), worlds[0]!, await table());
  const fixed = await fault(repair(worlds[1]!), worlds[1]!, await table());
  return { single, repair: fixed, writes: worlds.map((w) => w.writes) };
}

describe('a single write and a repair meet one gate', () => {
  it('expired: both are told so, in the same words, and nothing is sent', async () => {
    const r = await both(async (path, world, name) => {
      const kept = await path.make(context(world), name);
      world.now += PREVIEW_TTL_MS;
      return path.run(context(world), kept.id, kept.confirm);
    });
    expect(spoken(r.single)).toEqual(spoken(r.repair));
    expect(spoken(r.single)).toMatchObject({ kind: 'not-found', message: expect.stringMatching(/^<kept> has expired/) });
    expect(r.writes).toEqual([0, 0]);
  });

  it('another connection: refused by id, in the same words', async () => {
    const r = await both(async (path, world, name) => {
      const kept = await path.make(context(world), name);
      return path.run(context(world, { connectionId: 'c2' }), kept.id, kept.confirm);
    });
    expect(spoken(r.single)).toEqual(spoken(r.repair));
    expect(spoken(r.single)).toMatchObject({
      kind: 'validation',
      message: expect.stringMatching(/was made for test-local.*<again> on this connection/),
    });
    expect(r.writes).toEqual([0, 0]);
  });

  it('the connection moved to another region: refused in the same words', async () => {
    const r = await both(async (path, world, name) => {
      const kept = await path.make(context(world), name);
      return path.run(context(world, { connection: { label: 'test-local', region: 'eu-west-1', endpoint } }), kept.id, kept.confirm);
    });
    expect(spoken(r.single)).toEqual(spoken(r.repair));
    expect(spoken(r.single)).toMatchObject({
      kind: 'validation',
      message: expect.stringMatching(/^<kept> cannot be sent: it was made for us-east-1/),
    });
  });

  it('read-only: the same refusal', async () => {
    const r = await both(async (path, world, name) => {
      const kept = await path.make(context(world), name);
      return path.run(context(world, { writable: false }), kept.id, kept.confirm);
    });
    expect(spoken(r.single)).toEqual(spoken(r.repair));
    expect(spoken(r.single)).toMatchObject({ kind: 'read-only', message: 'connection test-local is read-only: nothing was sent' });
  });

  it('a wrong confirmation: the same refusal', async () => {
    const r = await both(async (path, world, name) => {
      const kept = await path.make(context(world), name);
      return path.run(context(world), kept.id, 'nope');
    });
    expect(spoken(r.single)).toEqual(spoken(r.repair));
    expect(spoken(r.single)).toEqual({
      kind: 'validation',
      field: 'confirmation',
      message: 'the confirmation does not match: type <confirm> exactly',
    });
  });

  it('used twice: sent once, the second told it was already executed, in the same words', async () => {
    const r = await both(async (path, world, name) => {
      const kept = await path.make(context(world), name);
      expect(await path.run(context(world), kept.id, kept.confirm)).toMatchObject({ state: 'succeeded' });
      return path.run(context(world), kept.id, kept.confirm);
    });
    expect(spoken(r.single)).toEqual(spoken(r.repair));
    expect(spoken(r.single)).toMatchObject({
      kind: 'conflict',
      message: expect.stringMatching(/^<kept> was already executed \(a <kept> is used once\)/),
    });
    // Told before the one send and once it was answered.
    expect(r.writes).toEqual([2, 2]);
  });

  it('a lost answer: the outcome is unknown on both, said alike and logged as outcome-unknown', async () => {
    const logged: (string | undefined)[] = [];
    const r = await both(async (path, world, name) => {
      const kept = await path.make(context(world), name);
      const { middleware } = faultInjector([{ command: 'TransactWriteItemsCommand', on: () => true, fault: 'reset', phase: 'after' }]);
      world.client = createDynamoClient({ label: 'faults', endpoint, region: 'us-east-1' }, { middleware: [middleware], env: {} });
      clients.push(world.client);
      const ran = await path.run(context(world), kept.id, kept.confirm);
      logged.push(await path.logged(kept.id));
      return ran;
    });
    expect(spoken(r.single)).toEqual(spoken(r.repair));
    expect(r.single).toMatchObject({ state: 'outcome-unknown', message: expect.stringMatching(/^the outcome is unknown/) });
    expect(logged).toEqual(['outcome-unknown', 'outcome-unknown']);
    expect(r.writes).toEqual([2, 2]);
  });

  it('a failed condition: cancelled on both with the holder check said, logged as cancelled', async () => {
    const logged: (string | undefined)[] = [];
    const r = await both(async (path, world, name) => {
      const kept = await path.make(context(world), name);
      // Someone else takes the email meanwhile (a lock naming nobody).
      await admin.send(new PutItemCommand({ TableName: name, Item: layout.lock('EMAIL', 'm0@x.io') }));
      const ran = await path.run(context(world), kept.id, kept.confirm);
      logged.push(await path.logged(kept.id));
      return ran;
    });
    for (const ran of [r.single, r.repair])
      expect(ran).toMatchObject({ state: 'cancelled', message: expect.stringMatching(/already held/) });
    expect(logged).toEqual(['cancelled', 'cancelled']);
  });
});
