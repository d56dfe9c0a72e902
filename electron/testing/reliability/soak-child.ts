/**
 * The soak, run in its own process with --expose-gc (soak.reliability.int.test.ts starts it):
 * repeated audits, lookups and claim/release cycles through the composed bridge (the same
 * dispatcher the window and browser mode use), until a time or cycle budget runs out. After every
 * cycle: heap used after a full GC and the count of active handles. Prints one JSON summary line.
 * Usage: node --expose-gc --import tsx soak-child.ts <endpoint> <durationMs> <maxCycles>
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import type { AuditEvent } from '../../../shared/contract/views';
import type { Item } from '../../../shared/model';
import { composeApp } from '../../bridge/compose';
import { createTempTable, deleteTable, putItems, testClient } from '../dynamo-fixtures';

const [endpoint = '', durationText = '30000', cyclesText = '200'] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const layout = layoutFor('uniq');
const convention = layout.convention;
const admin = testClient(endpoint);
const dataDir = await mkdtemp(join(tmpdir(), 'locksmith-soak-'));
const app = composeApp({
  mode: 'browser',
  version: 'soak',
  env: { LOCKSMITH_DATA_DIR: dataDir, AWS_CONFIG_FILE: join(dataDir, 'none'), AWS_SHARED_CREDENTIALS_FILE: join(dataDir, 'none') },
  log: { refused: () => undefined, failed: () => undefined },
});
const trusted = { trusted: true as const, label: 'soak' };

async function call<T>(method: string, args: unknown): Promise<T> {
  const result = await app.dispatch(method, args, 'http', trusted);
  if (!result.ok) throw new Error(`${method}: ${result.error.kind}: ${result.error.message}`);
  return result.value as T;
}

const table = await createTempTable(admin, convention.keys, 'soak');
const items: Item[] = [];
for (let i = 0; i < 300; i++) {
  items.push(layout.account(`s${i}`, { username: `s${i}`, email: `s${i}@example.com` }));
  if (i % 7 !== 0) items.push(layout.lock('HANDLE', `s${i}`));
}
const holder = layout.account('holder', { username: 'soak' });
items.push(holder);
await putItems(admin, table, items);
const { id: connectionId } = await call<{ id: string }>('connections.addEndpoint', { endpoint, region: 'us-east-1' });
const onTable = { connectionId, table };
const account = { PK: 'ACCT#holder', SK: 'PROFILE' };

async function audit(): Promise<void> {
  const { runId } = await call<{ runId: string }>('audit.start', { ...onTable, convention, segments: 2 });
  let done: AuditEvent | undefined;
  let wake: () => void = () => undefined;
  // A run that is already over is replayed during subscribe, so `done` may be set before it returns.
  const sub = app.hub.subscribe('audit.events', { runId }, (event) => {
    if ((event as AuditEvent).type !== 'done') return;
    done = event as AuditEvent;
    wake();
  });
  if (!sub.ok) throw new Error(sub.error.message);
  if (!done) await new Promise<void>((resolve) => (wake = resolve));
  sub.value();
  if (done?.type === 'done' && !done.complete) throw new Error(`audit incomplete: ${done.reason}`);
  await call('audit.report', { runId });
}

async function transact(request: unknown, expect: string): Promise<void> {
  const preview = await call<{ previewId: string; confirmText: string }>('tx.preview', { ...onTable, convention, request });
  const outcome = await call<{ status: string }>('tx.execute', { previewId: preview.previewId, confirmation: preview.confirmText });
  if (outcome.status !== expect) throw new Error(`expected ${expect}, got ${JSON.stringify(outcome)}`);
}

const samples: { heap: number; handles: number; kinds: string }[] = [];
const started = Date.now();
const deadline = started + Number(durationText);
let cycles = 0;
let transactions = 0;
while (cycles < Number(cyclesText) && Date.now() < deadline) {
  await audit();
  await call('lookup.run', { ...onTable, convention, value: `s${cycles % 300}` });
  await transact({ kind: 'claim', rule: 'HANDLE', value: 'soak', account }, 'succeeded');
  // The account moves on; its old lock is now an orphan, which release removes.
  await admin.send(new PutItemCommand({ TableName: table, Item: { ...holder, username: { S: `moved${cycles}` } } }));
  await transact({ kind: 'release', rule: 'HANDLE', value: 'soak' }, 'succeeded');
  await admin.send(new PutItemCommand({ TableName: table, Item: holder }));
  transactions += 2;
  cycles += 1;
  gc();
  gc();
  const resources = process.getActiveResourcesInfo();
  samples.push({ heap: process.memoryUsage().heapUsed, handles: resources.length, kinds: [...new Set(resources)].sort().join(',') });
}
const elapsedMs = Date.now() - started;
await app.shutdown();
await deleteTable(admin, table);
admin.destroy();
await rm(dataDir, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({ cycles, transactions, audits: cycles, lookups: cycles, elapsedMs, items: items.length, samples })}\n`,
  () => process.exit(0),
);
