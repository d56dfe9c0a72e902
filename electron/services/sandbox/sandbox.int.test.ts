import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand, ListTablesCommand, ScanCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { deleteTable, testClient } from '../../testing/dynamo-fixtures';
import { waitForProcessExit } from '../../testing/process-alive';
import { seedDemoData } from './demo-data';
import { DEMO_TABLE_NAMES, EXPECTED_PROBLEMS, USERS_ORPHAN_NAME, type DemoTableName } from './expected-problems';
import { request } from 'node:http';
import { DynamoDBClient as Client } from '@aws-sdk/client-dynamodb';
import { SANDBOX_CREDENTIALS } from './dynamodb-local';
import { sandboxClient, startSandbox, type SandboxHandle, type SandboxStatus } from './sandbox';

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
  const client = sandboxClient(result.value.endpoint, result.value.credentials);
  clients.push(client);
  return { sandbox: result.value, client };
}

/** #16 finding 3: anything reaching the port without the sandbox's key sees none of its tables. */
async function expectPrivate(sandbox: SandboxHandle, table: string): Promise<void> {
  expect(sandbox.credentials.accessKeyId).toMatch(/^[A-Z0-9]{32}$/);
  // Anyone else reaching the port: dummy keys, another random key, the right key in another region.
  for (const [credentials, region] of [
    [SANDBOX_CREDENTIALS, 'us-east-1'],
    [{ accessKeyId: 'LSOTHERKEY0000000000000000000000', secretAccessKey: 'x' }, 'us-east-1'],
    [sandbox.credentials, 'eu-west-1'],
  ] as const) {
    const other = new Client({ endpoint: sandbox.endpoint, region, credentials });
    clients.push(other);
    expect((await other.send(new ListTablesCommand({}))).TableNames).toEqual([]);
    await expect(other.send(new ScanCommand({ TableName: table, Limit: 1 }))).rejects.toThrow(/non-existent table|not found/i);
  }
  // A DNS-rebinding page: the browser sends its own Host name, and it cannot sign with a key it does not know.
  const port = new URL(sandbox.endpoint).port;
  const answer = await new Promise<string>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        headers: {
          Host: `rebind.example:${port}`,
          'Content-Type': 'application/x-amz-json-1.0',
          'X-Amz-Target': 'DynamoDB_20120810.ListTables',
          Authorization: 'AWS4-HMAC-SHA256 Credential=attacker/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00',
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(body));
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
  expect(answer).not.toContain(table);
}

// Each test starts a JVM and seeds: seconds when idle, far more when the whole suite runs in parallel on 2 cores.
describe('startSandbox', { timeout: 180_000 }, () => {
  it('starts in memory, seeds every demo table with the expected item counts, is private to its key (no other key or Host sees a table), and stops with no java left', async () => {
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
    await expectPrivate(sandbox, 'accounts');

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
