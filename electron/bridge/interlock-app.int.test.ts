/**
 * The write interlock in the app, through the handler table and DynamoDB Local: an audit whose
 * convention the table contradicts ends with the warning, its repair plan writes nothing for that
 * rule, and the lock form's preview under it is refused until the convention is saved (reviewed).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { RepairPlanView } from '../../shared/contract/repair-views';
import type { AuditEvent } from '../../shared/contract/views';
import { layoutFor } from '../../shared/conventions/test-layouts';
import type { Item } from '../../shared/model';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { composeApp, type ComposedApp } from './compose';
import type { SenderVerdict } from './pipeline';

const trusted: SenderVerdict = { trusted: true, label: 'interlock' };
const quiet = { refused: () => undefined, failed: () => undefined };
const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
const convention = layout.convention;
let dir = '';
let table = '';
let app: ComposedApp;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-interlock-'));
  table = await createTempTable(admin, convention.keys, 'interlock-app');
  const items: Item[] = [];
  // The email value stands in the sort key too, where the convention says the literal LOCK.
  for (let i = 0; i < 20; i++)
    items.push(
      layout.account(`a${i}`, { email: `user${i}@example.com`, username: `u${i}` }),
      layout.raw(`UNIQ#EMAIL#user${i}@example.com`, `UNIQ#EMAIL#user${i}@example.com`),
      layout.lock('HANDLE', `u${i}`),
    );
  await putItems(admin, table, items);
  app = composeApp({ mode: 'browser', version: 'interlock', env: { LOCKSMITH_DATA_DIR: join(dir, 'data') }, log: quiet });
});
afterAll(async () => {
  await app.shutdown();
  await deleteTable(admin, table);
  admin.destroy();
  await rm(dir, { recursive: true, force: true });
});

type Answer<T> = { ok: true; value: T } | { ok: false; error: { kind: string; message: string } };

it('warns at the end of the audit, plans no write for the rule, and previews its claims only under the saved convention', async () => {
  const call = async <T>(method: string, args: Record<string, unknown>): Promise<Answer<T>> =>
    (await app.dispatch(method, args, 'http', trusted)) as Answer<T>;
  const added = await call<{ id: string }>('connections.addEndpoint', { endpoint, region: 'us-east-1' });
  if (!added.ok) throw new Error(added.error.message);
  const connectionId = added.value.id;
  const started = await call<{ runId: string }>('audit.start', { connectionId, table, convention });
  if (!started.ok) throw new Error(started.error.message);
  const { runId } = started.value;
  const done = await new Promise<Extract<AuditEvent, { type: 'done' }>>((resolve) => {
    app.hub.subscribe('audit.events', { runId }, (event) => {
      const e = event as AuditEvent;
      if (e.type === 'done') resolve(e);
    });
  });
  expect(done.warnings?.map((w) => [w.rule, w.counts.held, w.counts.healthy])).toEqual([['EMAIL', 20, 0]]);

  const plan = await call<RepairPlanView>('repair.plan', { connectionId, table, runId });
  if (!plan.ok) throw new Error(plan.error.message);
  expect(plan.value.actionCount).toBe(0);
  expect(plan.value.manual.filter((m) => m.problem.kind === 'missing-lock')).toHaveLength(20);
  for (const m of plan.value.manual.filter((x) => x.problem.kind === 'missing-lock'))
    expect(m.why).toMatch(/^the convention does not explain this table for rule EMAIL: /);

  const claim = { kind: 'claim', rule: 'EMAIL', value: 'user3@example.com', account: { PK: 'ACCT#a3', SK: 'PROFILE' } };
  const refused = await call('tx.preview', { connectionId, table, convention, request: claim });
  expect(refused).toMatchObject({ ok: false, error: { kind: 'validation' } });
  expect(!refused.ok && refused.error.message).toMatch(
    /rule EMAIL: .*Writes to the locks of EMAIL need a reviewed convention: check it in the Convention tab and save it/,
  );
  // A signup or a deleted account would write EMAIL locks too: held back the same way.
  for (const request of [
    { kind: 'signup', account: { PK: 'ACCT#new', SK: 'PROFILE' }, values: { EMAIL: 'new@example.com', HANDLE: 'newbie' } },
    { kind: 'delete-account', account: { PK: 'ACCT#a3', SK: 'PROFILE' } },
  ]) {
    const held = await call('tx.preview', { connectionId, table, convention, request });
    expect(!held.ok && held.error.message).toMatch(/Writes to the locks of EMAIL need a reviewed convention/);
  }
  // Another rule of the same convention is not held back.
  const handle = await call('tx.preview', { connectionId, table, convention, request: { kind: 'release', rule: 'HANDLE', value: 'u3' } });
  expect(handle.ok).toBe(true);

  // Saved through the Convention tab: a person reviewed it, and the claim is theirs to make.
  const saved = await call('conventions.save', { connectionId, table, convention });
  expect(saved.ok).toBe(true);
  const reviewed = await call('tx.preview', { connectionId, table, convention, request: claim });
  expect(reviewed.ok).toBe(true);
});
