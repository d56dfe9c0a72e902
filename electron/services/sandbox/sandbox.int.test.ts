import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand, ListTablesCommand, ScanCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { deleteTable, testClient } from '../../testing/dynamo-fixtures';
import { waitForProcessExit } from '../../testing/process-alive';
import { seedDemoData } from './demo-data';
import { DEMO_TABLE_NAMES, EXPECTED_PROBLEMS, USERS_ORPHAN_NAME, type DemoTableName } from './expected-problems';
import { startSandbox, type SandboxHandle, type SandboxStatus } from './sandbox';

async function countItems(client: DynamoDBClient, table: string): Promise<number> {
  let count = 0;
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: table, Select: 'COUNT', ExclusiveStartKey: start }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

const handles: SandboxHandle[] = [];
const clients: DynamoDBClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy();
  await Promise.all(handles.splice(0).map((h) => h.stop()));
});

async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<{ sandbox: SandboxHandle; client: DynamoDBClient }> {
  const result = await startSandbox({ heap: '512m', ...options });
  if (!result.ok) throw new Error(result.error.message);
  handles.push(result.value);
  const client = testClient(result.value.endpoint);
  clients.push(client);
  return { sandbox: result.value, client };
}

// Each test starts a JVM and seeds: seconds when idle, far more when the whole suite runs in parallel on 2 cores.
describe('startSandbox', { timeout: 180_000 }, () => {
  it('starts in memory, seeds every demo table with the expected item counts, and stops with no java left', async () => {
    const statuses: SandboxStatus['phase'][] = [];
    const { sandbox, client } = await start({ onStatus: (s) => statuses.push(s.phase) });
    expect(sandbox.seeded).toEqual(DEMO_TABLE_NAMES);
    expect(statuses[0]).toBe('starting');
    expect(statuses.at(-1)).toBe('ready');
    expect(statuses.filter((s) => s === 'seeded')).toHaveLength(DEMO_TABLE_NAMES.length);

    const { TableNames } = await client.send(new ListTablesCommand({}));
    expect([...(TableNames ?? [])].sort()).toEqual([...DEMO_TABLE_NAMES].sort());
    for (const table of DEMO_TABLE_NAMES) {
      expect({ table, count: await countItems(client, table) }).toEqual({ table, count: EXPECTED_PROBLEMS[table].items });
    }

    await sandbox.stop();
    expect(await waitForProcessExit(sandbox.pid)).toBe(true);
  });

  it('with seed: false creates no tables', async () => {
    const { sandbox, client } = await start({ seed: false });
    expect(sandbox.seeded).toEqual([]);
    expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
  });

  // On disk every write is an fsync'd SQLite transaction, so this uses the two small tables only.
  it('keeps a persistent data dir across restarts and does not re-seed it', { timeout: 300_000 }, async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'locksmith-sandbox-')), 'nested', 'data');
    const tables: DemoTableName[] = ['users', 'onetable_app'];
    try {
      const first = await start({ dataDir, tables });
      expect(first.sandbox.seeded).toEqual(tables);
      // The user frees the orphan marker; a restart must not bring it back.
      await first.client.send(new DeleteItemCommand({ TableName: 'users', Key: { userId: { S: `NAME#${USERS_ORPHAN_NAME}` } } }));
      await first.sandbox.stop();
      expect(await waitForProcessExit(first.sandbox.pid)).toBe(true);

      const second = await start({ dataDir, tables });
      expect(second.sandbox.seeded).toEqual([]);
      expect(await countItems(second.client, 'users')).toBe(EXPECTED_PROBLEMS.users.items - 1);
      expect(await countItems(second.client, 'onetable_app')).toBe(EXPECTED_PROBLEMS.onetable_app.items);
    } finally {
      await Promise.all(handles.map((h) => h.stop()));
      rmSync(dataDir.replace(/[/\\]nested[/\\]data$/, ''), { recursive: true, force: true });
    }
  });

  it('reports a port in use as a conflict', async () => {
    const port = Number(new URL(inject('dynamoEndpoint')).port);
    const result = await startSandbox({ port });
    expect(result.ok ? 'started' : result.error.kind).toBe('conflict');
  });
});

describe('seedDemoData', () => {
  const client = testClient(inject('dynamoEndpoint'));
  const prefix = `seed-${process.pid}-`;
  afterAll(async () => {
    for (const t of DEMO_TABLE_NAMES) await deleteTable(client, `${prefix}${t}`);
    client.destroy();
  });

  it('is idempotent: seeding twice leaves exactly the expected items', async () => {
    const tables: DemoTableName[] = ['users', 'onetable_app'];
    const first = await seedDemoData(client, { tables, prefix });
    const second = await seedDemoData(client, { tables, prefix });
    expect(first.ok && second.ok).toBe(true);
    for (const t of tables) expect(await countItems(client, `${prefix}${t}`)).toBe(EXPECTED_PROBLEMS[t].items);
  });

  it('honours an aborted signal as cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await seedDemoData(client, { tables: ['accounts'], prefix, signal: controller.signal });
    expect(result.ok ? 'seeded' : result.error.kind).toBe('cancelled');
  });
});
