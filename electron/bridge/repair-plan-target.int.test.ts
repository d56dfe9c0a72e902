/**
 * A repair plan is made only from an audit run of the connection as it points now: after the
 * connection moved (another region here; a restarted sandbox alike), that run described another
 * database, and `repair.plan` refuses it rather than plan from its problems.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { AuditEvent } from '../../shared/contract/views';
import { layoutFor } from '../../shared/conventions/test-layouts';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { composeApp, type ComposedApp } from './compose';
import type { SenderVerdict } from './pipeline';

const trusted: SenderVerdict = { trusted: true, label: 'repair plan target' };
const quiet = { refused: () => undefined, failed: () => undefined };
const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
let dir = '';
let table = '';
let app: ComposedApp;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-repair-target-'));
  table = await createTempTable(admin, layout.convention.keys, 'repair-target');
  await putItems(admin, table, [
    layout.account('a1', { email: 'ada@lovelace.io', username: 'ada' }),
    layout.lock('EMAIL', 'ada@lovelace.io'),
    layout.lock('HANDLE', 'ghost'),
  ]);
  app = composeApp({ mode: 'browser', version: 'repair-target', env: { LOCKSMITH_DATA_DIR: join(dir, 'data') }, log: quiet });
});
afterAll(async () => {
  await app.shutdown();
  await deleteTable(admin, table);
  admin.destroy();
  await rm(dir, { recursive: true, force: true });
});

it('plans from a run of this connection as it points now, and refuses the run once it points elsewhere', async () => {
  const call = async <T>(
    method: string,
    args: Record<string, unknown>,
  ): Promise<{ ok: true; value: T } | { ok: false; error: { kind: string; message: string } }> =>
    (await app.dispatch(method, args, 'http', trusted)) as { ok: true; value: T } | { ok: false; error: { kind: string; message: string } };
  const added = await call<{ id: string }>('connections.addEndpoint', { endpoint, region: 'us-east-1' });
  if (!added.ok) throw new Error(added.error.message);
  const connectionId = added.value.id;
  const started = await call<{ runId: string }>('audit.start', { connectionId, table, convention: layout.convention });
  if (!started.ok) throw new Error(started.error.message);
  const { runId } = started.value;
  await new Promise<void>((resolve) => {
    app.hub.subscribe('audit.events', { runId }, (event) => {
      if ((event as AuditEvent).type === 'done') resolve();
    });
  });
  const here = await call<{ actionCount: number }>('repair.plan', { connectionId, table, runId });
  expect(here.ok && here.value.actionCount).toBeGreaterThan(0);

  const moved = await call('connections.setRegion', { id: connectionId, region: 'eu-west-1' });
  expect(moved.ok).toBe(true);
  const elsewhere = await call('repair.plan', { connectionId, table, runId });
  expect(elsewhere).toMatchObject({ ok: false, error: { kind: 'validation' } });
  expect(!elsewhere.ok && elsewhere.error.message).toContain('not made on this connection as it points now');
});
