import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { RepairStatusView } from '../../../shared/contract/repair-views';
import { layoutFor, S } from '../../../shared/conventions/test-layouts';
import type { Item, Problem } from '../../../shared/model';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { faultInjector, type FaultRule } from '../../testing/reliability/faults';
import { createDynamoClient } from '../dynamo/client';
import { runAudit } from '../audit/run-audit';
import { readActivity } from '../transactions/activity-log';
import type { TransactionContext } from '../transactions/service';
import { RepairService, type RepairEvents } from './repair-service';

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
const conv = layout.convention;
const tables: string[] = [];
let dataDir = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'locksmith-repair-'));
});
afterAll(async () => {
  await Promise.all(tables.map((t) => deleteTable(admin, t)));
  await rm(dataDir, { recursive: true, force: true });
});

function context(writable = true, secrets?: string[]): TransactionContext {
  return {
    connectionId: 'test-local',
    client: admin,
    connection: { label: 'test-local', region: 'us-east-1', endpoint },
    writable,
    ...(secrets ? { secrets } : {}),
    deps: { retry: { maxAttempts: 8, baseMs: 5, capMs: 50 }, holderSegments: 2 },
  };
}

/** A table with `orphans` orphan handle locks and `missing` accounts whose email lock is missing (2 actions each). */
async function brokenTable(orphans: number, missing: number, extra: readonly Item[] = []): Promise<string> {
  const name = await createTempTable(admin, conv.keys, 'repair');
  tables.push(name);
  const items: Item[] = [...extra];
  for (let i = 0; i < orphans; i++) items.push(layout.lock('HANDLE', `gone${i}`));
  for (let i = 0; i < missing; i++) items.push(layout.account(`m${i}`, { email: `m${i}@x.io` }));
  await putItems(admin, name, items);
  return name;
}

async function problemsOf(table: string): Promise<readonly Problem[]> {
  const run = await runAudit({ client: admin, table, convention: conv });
  expect(run.report.complete).toBe(true);
  return run.report.problems;
}

async function exists(table: string, item: Item): Promise<boolean> {
  const key = { PK: item.PK!, SK: item.SK! };
  return (await admin.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item !== undefined;
}

async function planAndRun(service: RepairService, table: string, onProgress?: (s: RepairStatusView) => void) {
  const plan = await service.plan(context(), { owner: 'c1', table, convention: conv, problems: await problemsOf(table) });
  if (!plan.ok) throw new Error(plan.error.message);
  const started = service.start(context(), {
    owner: 'c1',
    planId: plan.value.planId,
    confirmation: plan.value.confirmText,
    ...(onProgress ? { onProgress } : {}),
  });
  if (!started.ok) throw new Error(started.error.message);
  return { plan: plan.value, status: await started.value.done };
}

describe('repair plans', () => {
  it('a plan over 100 actions splits into transactions, every one applied, verified and logged; the audit is then clean', async () => {
    const table = await brokenTable(40, 40);
    const service = new RepairService({ dataDir });
    const { plan, status } = await planAndRun(service, table);
    expect(plan.actionCount).toBe(40 + 40 * 2);
    expect(plan.transactions.map((t) => t.actions.length)).toEqual([100, 20]);
    expect(new Set(plan.transactions.map((t) => t.clientRequestToken)).size).toBe(2);
    expect(status.phase).toBe('done');
    expect(status.transactions.map((t) => [t.state, t.verified])).toEqual([
      ['succeeded', true],
      ['succeeded', true],
    ]);
    expect(status.fixes.every((f) => f.state === 'succeeded')).toBe(true);
    expect(await problemsOf(table)).toEqual([]);
    const logged = (await readActivity({ dataDir })).filter((e) => e.table === table);
    expect(logged.map((e) => [e.kind, e.token, e.outcome.status]).sort()).toEqual(
      plan.transactions.map((t) => ['repair', t.clientRequestToken, 'succeeded']).sort(),
    );
  });

  it('a lock written between plan and execute cancels its transaction with the reason on that fix, nothing of it written', async () => {
    const table = await brokenTable(0, 3);
    const service = new RepairService({ dataDir });
    const plan = await service.plan(context(), { owner: 'c1', table, convention: conv, problems: await problemsOf(table) });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.transactions).toHaveLength(1);
    // Someone else claims m1's email meanwhile (a lock naming nobody).
    await admin.send(new PutItemCommand({ TableName: table, Item: layout.lock('EMAIL', 'm1@x.io') }));
    const started = service.start(context(), { owner: 'c1', planId: plan.value.planId, confirmation: plan.value.confirmText });
    if (!started.ok) throw new Error(started.error.message);
    const status = await started.value.done;
    const raced = plan.value.fixes.find((f) => f.problem.value === 'm1@x.io')!.index;
    expect(status.transactions[0]!.state).toBe('cancelled');
    expect(status.transactions[0]!.reasons!.map((r) => [r.fix, r.code])).toEqual([[raced, 'ConditionalCheckFailed']]);
    expect(status.fixes[raced]!.message).toMatch(/^cancelled: .*already held/);
    expect(status.fixes.filter((f) => f.fix !== raced).every((f) => f.message.startsWith('not applied: fix'))).toBe(true);
    expect(await exists(table, layout.lock('EMAIL', 'm0@x.io'))).toBe(false);
    expect(await exists(table, layout.lock('EMAIL', 'm2@x.io'))).toBe(false);
  });

  it('stops between transactions on request: the rest is not sent', async () => {
    // Four claims on one account cannot share a transaction: one transaction each.
    const account = layout.account('solo', { email: 'solo@x.io', username: 'solo' });
    const table = await brokenTable(0, 0, [account, layout.account('duo', { email: 'duo@x.io', username: 'duo' })]);
    const service = new RepairService({ dataDir });
    let planId = '';
    const { plan, status } = await planAndRun(service, table, (s) => {
      planId = s.planId;
      if (s.finished === 1 && s.phase === 'running') service.stop('c1', planId);
    });
    expect(plan.transactions.length).toBe(2);
    expect(status.phase).toBe('stopped');
    expect(status.transactions.map((t) => t.state)).toEqual(['succeeded', 'not-sent']);
    expect((await problemsOf(table)).length).toBe(2);
  });

  it('streams its progress on repair.events: every change as it happens, ending in its last phase; a late subscriber gets the latest', async () => {
    const account = layout.account('solo', { email: 'solo@x.io', username: 'solo' });
    const table = await brokenTable(0, 0, [account, layout.account('duo', { email: 'duo@x.io', username: 'duo' })]);
    // The bridge's stream hub as the service sees it: what it publishes, and what it replays to a late subscriber.
    const seen: RepairStatusView[] = [];
    let replay: (filter: Readonly<Record<string, unknown>>) => readonly RepairStatusView[] = () => [];
    const events: RepairEvents = { publish: (_, event) => seen.push(event), setReplay: (_, r) => (replay = r) };
    const service = new RepairService({ dataDir, events });
    const plan = await service.plan(context(), { owner: 'c1', table, convention: conv, problems: await problemsOf(table) });
    if (!plan.ok) throw new Error(plan.error.message);
    const started = service.start(context(), { owner: 'c1', planId: plan.value.planId, confirmation: plan.value.confirmText });
    if (!started.ok) throw new Error(started.error.message);
    const done = await started.value.done;
    expect(seen.at(-1)).toEqual(done);
    expect(done.phase).toBe('done');
    // Each of the two transactions was seen being sent, then settled.
    expect(seen.map((s) => s.transactions.map((t) => t.state).join(','))).toEqual(
      expect.arrayContaining(['sending,pending', 'succeeded,pending', 'succeeded,sending', 'succeeded,succeeded']),
    );
    expect(replay({ planId: plan.value.planId })).toEqual([done]);
    expect(replay({ planId: 'rp_other' })).toEqual([]);
  });

  it('a release whose value an account took after the plan refuses its transaction before sending', async () => {
    const table = await brokenTable(2, 0);
    const service = new RepairService({ dataDir });
    const plan = await service.plan(context(), { owner: 'c1', table, convention: conv, problems: await problemsOf(table) });
    if (!plan.ok) throw new Error(plan.error.message);
    await admin.send(new PutItemCommand({ TableName: table, Item: layout.account('late', { username: 'gone0' }) }));
    const started = service.start(context(), { owner: 'c1', planId: plan.value.planId, confirmation: plan.value.confirmText });
    if (!started.ok) throw new Error(started.error.message);
    const status = await started.value.done;
    expect(status.transactions[0]!.state).toBe('refused');
    expect(await exists(table, layout.lock('HANDLE', 'gone0'))).toBe(true);
    expect(await exists(table, layout.lock('HANDLE', 'gone1'))).toBe(true);
    const logged = (await readActivity({ dataDir })).filter((e) => e.table === table);
    expect(logged.map((e) => e.outcome.status)).toEqual(['refused']);
  });

  it('refuses on a read-only connection, a wrong count, another connection, and a second execute', async () => {
    const table = await brokenTable(1, 0);
    const service = new RepairService({ dataDir });
    const plan = await service.plan(context(false), { owner: 'c1', table, convention: conv, problems: await problemsOf(table) });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.executable).toBe(false);
    const refusal = (ctx: TransactionContext, owner: string, confirmation: string) => {
      const r = service.start(ctx, { owner, planId: plan.value.planId, confirmation });
      return r.ok ? 'started' : r.error.kind;
    };
    expect(refusal(context(false), 'c1', '1')).toBe('read-only');
    expect(refusal(context(), 'c1', '2')).toBe('validation');
    expect(refusal(context(), 'c2', '1')).toBe('validation');
    // The same connection id pointed at another region since the plan: another database than the one planned.
    const moved = context();
    expect(refusal({ ...moved, connection: { ...moved.connection, region: 'eu-west-1' } }, 'c1', '1')).toBe('validation');
    expect(await exists(table, layout.lock('HANDLE', 'gone0'))).toBe(true);
    expect(refusal(context(), 'c1', '1')).toBe('started');
    expect(refusal(context(), 'c1', '1')).toBe('conflict');
  });

  it('leaves duplicates for a person and drops problems already fixed', async () => {
    const table = await brokenTable(1, 0, [
      layout.account('d1', { email: 'dup@x.io' }),
      layout.account('d2', { email: 'dup@x.io' }),
      layout.lock('EMAIL', 'dup@x.io'),
    ]);
    const problems = await problemsOf(table);
    await admin.send(new PutItemCommand({ TableName: table, Item: layout.account('back', { username: 'gone0' }) }));
    const plan = await new RepairService({ dataDir }).plan(context(), {
      owner: 'c1',
      table,
      convention: conv,
      problems,
      selection: { kinds: ['orphan-lock', 'duplicate-value'] },
    });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.actionCount).toBe(0);
    expect(plan.value.manual.map((m) => m.problem.kind).sort()).toEqual(['duplicate-value', 'orphan-lock']);
    expect(plan.value.manual.find((m) => m.problem.kind === 'orphan-lock')!.why).toContain('ACCT#back / PROFILE holds');
  });

  it('a missing lock someone else took since the audit is left for a person, never "already fixed"', async () => {
    // a1 holds ada@x.io without its lock; after the audit another client signs up b1 with the same email, lock and all.
    const table = await brokenTable(0, 0, [layout.account('a1', { email: 'ada@x.io' })]);
    const problems = await problemsOf(table);
    await putItems(admin, table, [layout.account('b1', { email: 'ada@x.io' }), layout.lock('EMAIL', 'ada@x.io')]);
    const plan = await new RepairService({ dataDir }).plan(context(), { owner: 'c1', table, convention: conv, problems });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.actionCount).toBe(0);
    expect(plan.value.resolved).toEqual([]);
    expect(plan.value.manual).toHaveLength(1);
    expect(plan.value.manual[0]!.why).toMatch(/ACCT#b1 \/ PROFILE also holds `ada@x.io`.*a duplicate/);
    // The lock written for a1 itself (by its application, since the audit) is what "already fixed" means.
    const own = await brokenTable(0, 0, [layout.account('a2', { email: 'grace@x.io' })]);
    const ownProblems = await problemsOf(own);
    await putItems(admin, own, [layout.lock('EMAIL', 'grace@x.io')]);
    const fixed = await new RepairService({ dataDir }).plan(context(), {
      owner: 'c1',
      table: own,
      convention: conv,
      problems: ownProblems,
    });
    if (!fixed.ok) throw new Error(fixed.error.message);
    expect(fixed.value.manual).toEqual([]);
    expect(fixed.value.resolved.map((r) => r.why)).toEqual([expect.stringContaining('exists now')]);
  });

  it('with an owner attribute, a lock that appeared naming another account is left for a person', async () => {
    const owned = layoutFor('uniq', { ownerAttribute: 'owner' });
    const name = await createTempTable(admin, owned.convention.keys, 'repair');
    tables.push(name);
    await putItems(admin, name, [owned.account('a1', { email: 'ada@x.io' })]);
    const run = await runAudit({ client: admin, table: name, convention: owned.convention });
    await putItems(admin, name, [owned.lock('EMAIL', 'ada@x.io', { owner: S(owned.accountHash('b9')) })]);
    const plan = await new RepairService({ dataDir }).plan(context(), {
      owner: 'c1',
      table: name,
      convention: owned.convention,
      problems: run.report.problems,
    });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.resolved).toEqual([]);
    expect(plan.value.manual.map((m) => m.why)).toEqual([expect.stringMatching(/names ACCT#b9, not ACCT#a1/)]);
  });

  it('scrubs the connection secrets from the activity-log lines of a repair', async () => {
    const secret = 'wJalrXUtnFEMIK7MDENGbPxRfiCYSECRET';
    const table = await brokenTable(0, 0, [layout.lock('HANDLE', `leak-${secret}`)]);
    const service = new RepairService({ dataDir });
    const plan = await service.plan(context(true, [secret]), { owner: 'c1', table, convention: conv, problems: await problemsOf(table) });
    if (!plan.ok) throw new Error(plan.error.message);
    const started = service.start(context(true, [secret]), {
      owner: 'c1',
      planId: plan.value.planId,
      confirmation: plan.value.confirmText,
    });
    if (!started.ok) throw new Error(started.error.message);
    expect((await started.value.done).phase).toBe('done');
    const line = JSON.stringify((await readActivity({ dataDir })).find((e) => e.table === table));
    expect(line).toContain('leak-');
    expect(line).not.toContain(secret);
  });

  it('scoped rules (OneTable scope): a release is not held by the same value in another scope; a claim writes the scoped key', async () => {
    const scoped = layoutFor('onetable', { rules: [{ attribute: 'email', scope: 'orgId' }] });
    const c = scoped.convention;
    const lockItem = (org: string, value: string): Item =>
      scoped.raw(`_unique#${org}#User#email#${value}`, '_unique#', { _type: S('_Unique') });
    const name = await createTempTable(admin, c.keys, 'repair');
    tables.push(name);
    await putItems(admin, name, [
      { ...scoped.account('a1', { email: 'x@y.io' }), orgId: S('acme') },
      lockItem('acme', 'x@y.io'),
      lockItem('beta', 'x@y.io'),
      { ...scoped.account('b1', { email: 'z@y.io' }), orgId: S('beta') },
    ]);
    const audit = await runAudit({ client: admin, table: name, convention: c });
    expect(audit.report.problems.map((p) => [p.kind, p.value, p.scope]).sort()).toEqual([
      ['missing-lock', 'z@y.io', { orgId: 'beta' }],
      ['orphan-lock', 'x@y.io', { orgId: 'beta' }],
    ]);
    const service = new RepairService({ dataDir });
    const plan = await service.plan(context(), { owner: 'c1', table: name, convention: c, problems: audit.report.problems });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.manual).toEqual([]);
    const started = service.start(context(), { owner: 'c1', planId: plan.value.planId, confirmation: plan.value.confirmText });
    if (!started.ok) throw new Error(started.error.message);
    expect((await started.value.done).transactions.map((t) => t.state)).toEqual(['succeeded']);
    const after = await runAudit({ client: admin, table: name, convention: c });
    expect(after.report.problems).toEqual([]);
    const key = (org: string, value: string) => ({ pk: S(`_unique#${org}#User#email#${value}`), sk: S('_unique#') });
    expect(
      (await admin.send(new GetItemCommand({ TableName: name, Key: key('acme', 'x@y.io'), ConsistentRead: true }))).Item,
    ).toBeDefined();
    expect(
      (await admin.send(new GetItemCommand({ TableName: name, Key: key('beta', 'z@y.io'), ConsistentRead: true }))).Item,
    ).toBeDefined();
  });
});

describe('repair transactions that fail to send', () => {
  /** The repair of one orphan lock through a client whose TransactWriteItems fail as `rule` says; its status and activity line. */
  async function repairThrough(rule: FaultRule) {
    const name = await brokenTable(1, 0);
    const { middleware } = faultInjector([rule]);
    const client = createDynamoClient({ label: 'faults', endpoint, region: 'us-east-1' }, { middleware: [middleware], env: {} });
    const ctx: TransactionContext = {
      ...context(),
      client,
      deps: { retry: { maxAttempts: 3, baseMs: 1, capMs: 2 }, wait: () => Promise.resolve(), holderSegments: 1 },
    };
    try {
      const service = new RepairService({ dataDir });
      const plan = await service.plan(ctx, { owner: 'c1', table: name, convention: conv, problems: await problemsOf(name) });
      if (!plan.ok) throw new Error(plan.error.message);
      const started = service.start(ctx, { owner: 'c1', planId: plan.value.planId, confirmation: plan.value.confirmText });
      if (!started.ok) throw new Error(started.error.message);
      const status = await started.value.done;
      const logged = (await readActivity({ dataDir, limit: 10_000 })).find((e) => e.table === name);
      return { status, logged, orphanLeft: await exists(name, layout.lock('HANDLE', 'gone0')) };
    } finally {
      client.destroy();
    }
  }

  it('an answer lost after DynamoDB applied it: outcome unknown, in the status, the fix and the activity log', async () => {
    const { status, logged, orphanLeft } = await repairThrough({
      command: 'TransactWriteItemsCommand',
      on: () => true,
      fault: 'reset',
      phase: 'after',
    });
    expect(orphanLeft).toBe(false);
    expect(status.phase).toBe('failed');
    expect(status.transactions[0]).toMatchObject({
      state: 'outcome-unknown',
      message: expect.stringMatching(/^the outcome is unknown — the request may have been applied/),
    });
    expect(status.fixes[0]?.state).toBe('outcome-unknown');
    expect(logged?.outcome.status).toBe('outcome-unknown');
  });

  it('a connection never made: an error that says nothing was written, never "may have been applied"', async () => {
    const { status, logged, orphanLeft } = await repairThrough({ command: 'TransactWriteItemsCommand', on: () => true, fault: 'refused' });
    expect(orphanLeft).toBe(true);
    expect(status.transactions[0]).toMatchObject({
      state: 'error',
      message: expect.stringContaining('nothing in this transaction was written'),
    });
    expect(status.transactions[0]?.message).not.toMatch(/may (or may not )?have been applied/);
    expect(logged?.outcome.status).toBe('error');
  });
});
