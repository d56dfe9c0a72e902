import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AuditReport } from '../../shared/audit/types';
import type { Item } from '../../shared/model';
import { createTempTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { startDynamoDbLocal } from '../services/sandbox/dynamodb-local';
import type { DynamoDbLocalHandle } from '../services/sandbox/dynamodb-local';
import type { CliIo } from './command';
import { main } from './main';

// A private DynamoDB Local: this test kills it, which must not disturb the shared one.
let dynamo: DynamoDbLocalHandle;
let admin: DynamoDBClient;
let table: string;
const ITEMS = 1_200;

beforeAll(async () => {
  const started = await startDynamoDbLocal({ heap: '256m' });
  if (!started.ok) throw new Error(started.error.message);
  dynamo = started.value;
  admin = testClient(dynamo.endpoint);
  table = await createTempTable(admin, { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } }, 'killed');
  // ~4 KB per item: Scan pages stop at 1 MB read, so one segment needs several pages.
  const padding = 'x'.repeat(4_000);
  const items: Item[] = Array.from({ length: ITEMS }, (_, i) => ({
    PK: { S: `ACCT#${i}` },
    SK: { S: 'PROFILE' },
    email: { S: `u${i}@example.com` },
    padding: { S: padding },
  }));
  await putItems(admin, table, items);
});

afterAll(async () => {
  admin?.destroy();
  await dynamo?.stop();
});

describe('audit when DynamoDB Local dies mid-scan', () => {
  it('reports complete: false and exits 2', async () => {
    let out = '';
    let err = '';
    let killed = false;
    const io: CliIo = {
      stdout: (text) => void (out += text),
      stderr: (text) => {
        err += text;
        // The first progress line means a page has arrived and the scan is under way: kill the JVM now.
        if (!killed && text.startsWith('\r')) {
          killed = true;
          process.kill(dynamo.pid, 'SIGKILL');
        }
      },
      env: {},
      interactive: true,
      signal: new AbortController().signal,
    };
    const code = await main(
      ['audit', '--endpoint', dynamo.endpoint, '--table', table, '--preset', 'uniq', '--segments', '1', '--json'],
      io,
    );
    expect(killed).toBe(true);
    expect(code).toBe(2);
    const report = JSON.parse(out) as AuditReport;
    expect(report.complete).toBe(false);
    expect(report.reason).toMatch(/^scan failed: (cannot reach|connection to) /);
    expect(report.scanned).toBeGreaterThan(0);
    expect(report.scanned).toBeLessThan(ITEMS);
    expect(err).toMatch(/locksmith: incomplete: scan failed: /);
    await dynamo.exited;
  });
});
