/**
 * Reliability: DynamoDB Local killed (SIGKILL) mid-lookup and between preview and execute, on
 * private instances so the run's shared one is untouched. (Killed mid-audit: electron/cli/audit-killed.int.test.ts.)
 * A persistent data folder lets the second case restart the database and read back what was written: nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import type { Item } from '../../../shared/model';
import { keyOf } from '../../../shared/plain-key';
import { createDynamoClient } from '../../services/dynamo/client';
import { lookupValue } from '../../services/lookup/lookup';
import { startDynamoDbLocal, type DynamoDbLocalHandle } from '../../services/sandbox/dynamodb-local';
import { PreviewStore } from '../../services/transactions/preview-store';
import { executePreview, previewTransaction, readActivity } from '../../services/transactions/service';
import { createTempTable, putItems, testClient } from '../dynamo-fixtures';
import { isProcessAlive } from '../process-alive';
import { recordFigures } from './figures';

const layout = layoutFor('uniq');
const conv = layout.convention;
const handles: DynamoDbLocalHandle[] = [];
const clients: DynamoDBClient[] = [];
let folder = '';

async function start(dataDir?: string): Promise<DynamoDbLocalHandle> {
  const started = await startDynamoDbLocal({ heap: '256m', ...(dataDir ? { dataDir } : {}) });
  if (!started.ok) throw new Error(started.error.message);
  handles.push(started.value);
  return started.value;
}

function client(endpoint: string): DynamoDBClient {
  const c = createDynamoClient({ label: 'killed', endpoint, region: 'us-east-1' }, { env: {} });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'locksmith-killed-'));
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await Promise.all(handles.map((h) => h.stop()));
  await rm(folder, { recursive: true, force: true });
});

describe('DynamoDB Local killed', () => {
  it('mid-lookup: the answer says incomplete with the reason and flags the verdict, and the JVM is gone', async () => {
    const dynamo = await start();
    const admin = testClient(dynamo.endpoint);
    clients.push(admin);
    const name = await createTempTable(admin, conv.keys, 'killed-lookup');
    const padding = 'x'.repeat(6_000);
    const items: Item[] = Array.from({ length: 800 }, (_, i) => ({
      ...layout.account(`k${i}`, { username: `k${i}` }),
      padding: { S: padding },
    }));
    items.push(layout.lock('HANDLE', 'k799'));
    await putItems(admin, name, items);
    let killed = false;
    const answer = await lookupValue({
      client: client(dynamo.endpoint),
      table: { name, gsis: [] },
      convention: conv,
      value: 'k799',
      rule: 'HANDLE',
      segments: 1,
      errorContext: { endpoint: dynamo.endpoint },
      onProgress: () => {
        if (killed) return;
        killed = true;
        process.kill(dynamo.pid, 'SIGKILL');
      },
    });
    expect(killed).toBe(true);
    await dynamo.exited;
    expect(isProcessAlive(dynamo.pid)).toBe(false);
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.value.complete).toBe(false);
    expect(answer.value.reason).toMatch(/^scan failed: (cannot reach|connection to) http:\/\/127\.0\.0\.1:\d+/);
    expect(answer.value.rules[0]?.notes.join(' ')).toMatch(/did not finish .*the verdict may be wrong/);
    expect(answer.value.scan?.items ?? 0).toBeLessThan(items.length);
  });

  it('between preview and execute: execute fails as unreachable; after a restart the table holds no lock and the account is intact', async () => {
    const dataDir = join(folder, 'db');
    const first = await start(dataDir);
    const admin = testClient(first.endpoint);
    clients.push(admin);
    const account = layout.account('a1', { username: 'ada' });
    const name = await createTempTable(admin, conv.keys, 'killed-tx');
    await putItems(admin, name, [account]);
    const logDir = join(folder, 'log');
    const ctx = {
      connectionId: 'killed',
      client: client(first.endpoint),
      connection: { label: 'killed', region: 'us-east-1', endpoint: first.endpoint },
      writable: true,
      deps: { store: new PreviewStore(), dataDir: logDir, retry: { maxAttempts: 3, baseMs: 1, capMs: 5 } },
    };
    const preview = await previewTransaction(ctx, {
      table: name,
      convention: conv,
      operation: { kind: 'claim', rule: 'HANDLE', value: 'ada', account: keyOf(account, conv.keys) },
    });
    if (!preview.ok) throw new Error(preview.error.message);
    process.kill(first.pid, 'SIGKILL');
    await first.exited;
    const result = await executePreview(ctx, { previewId: preview.value.id, confirmation: preview.value.confirm });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'unreachable', message: expect.stringMatching(/^cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/) },
    });
    const [logged] = await readActivity({ dataDir: logDir });
    expect(logged).toMatchObject({ previewId: preview.value.id, outcome: { status: 'error', error: { kind: 'unreachable' } } });

    const second = await start(dataDir);
    const after = testClient(second.endpoint);
    clients.push(after);
    const items = (await after.send(new ScanCommand({ TableName: name, ConsistentRead: true }))).Items ?? [];
    expect(items).toEqual([account]);
    await recordFigures('killed', { kills: 2, lookupItems: 801, writesLost: 0, partialWrites: 0, restarts: 1 });
  });
});
