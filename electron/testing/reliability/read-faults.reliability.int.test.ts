/**
 * Reliability: audits and lookups under injected faults (resets, timeouts, throttling) and against
 * an endpoint that accepts connections but never answers. Transient faults are ridden out with the
 * exact same report; persistent ones end `complete: false` with the reason — never a hang.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import type { Item } from '../../../shared/model';
import { runAudit } from '../../services/audit/run-audit';
import { createDynamoClient } from '../../services/dynamo/client';
import { lookupValue } from '../../services/lookup/lookup';
import { sendTransaction } from '../../services/transactions/execute';
import { createTempTable, deleteTable, putItems, testClient } from '../dynamo-fixtures';
import { faultInjector, recordCommands, WRITE_COMMANDS, type FaultKind, type FaultRule } from './faults';
import { recordFigures } from './figures';

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
const conv = layout.convention;
const clients: DynamoDBClient[] = [];
const FAST = { maxAttempts: 8, baseMs: 2, capMs: 20 };
const ACCOUNTS = 400;
let name = '';
let blackHole: Server;
const sockets = new Set<Socket>();
let blackHoleEndpoint = '';

beforeAll(async () => {
  name = await createTempTable(admin, conv.keys, 'read-faults');
  // 6 KB of padding: the table spans several 1 MB Scan pages (read size counts before projection), so faults land mid-scan.
  const padding = 'p'.repeat(6_000);
  const items: Item[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    items.push(layout.account(`a${i}`, { username: `user${i}`, email: `u${i}@example.com` }));
    items[items.length - 1]!.padding = { S: padding };
    // Every 10th account has no handle lock (missing-lock); every 25th lock has no account (orphan-lock).
    if (i % 10 !== 0) items.push(layout.lock('HANDLE', `user${i}`));
    items.push(layout.lock('EMAIL', `u${i}@example.com`));
    if (i % 25 === 0) items.push(layout.lock('HANDLE', `gone${i}`));
  }
  await putItems(admin, name, items);
  blackHole = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  const address = blackHole.address();
  blackHoleEndpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  for (const c of clients) c.destroy();
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => blackHole.close(resolve));
  await deleteTable(admin, name);
});

function faulty(rules: readonly FaultRule[], target = endpoint, timeouts?: { connectMs: number; idleMs: number }) {
  const { middleware, log } = faultInjector(rules);
  const client = createDynamoClient(
    { label: 'faults', endpoint: target, region: 'us-east-1' },
    { middleware: [middleware], env: {}, ...(timeouts ? { timeouts } : {}) },
  );
  clients.push(client);
  return { client, log, sent: recordCommands(client) };
}

const figures = { auditsRun: 0, lookupsRun: 0, faultsInjected: 0, stalledCalls: 0, writesSent: 0 };

describe('audit under faults', () => {
  let clean: Awaited<ReturnType<typeof runAudit>>['report'];

  it('resets, timeouts and the three throttles on the first scan calls: retried, the same complete report as a clean run', async () => {
    const plain = createDynamoClient({ label: 'clean', endpoint, region: 'us-east-1' }, { env: {} });
    clients.push(plain);
    clean = (await runAudit({ client: plain, table: name, convention: conv, segments: 4 })).report;
    expect(clean.complete).toBe(true);
    expect(clean.summary).toMatchObject({ 'orphan-lock': ACCOUNTS / 25, 'missing-lock': ACCOUNTS / 10 });

    const kinds: FaultKind[] = [
      'reset',
      'timeout',
      'ProvisionedThroughputExceededException',
      'ThrottlingException',
      'RequestLimitExceeded',
      'reset',
      'timeout',
    ];
    const { client, log, sent } = faulty([{ command: 'ScanCommand', on: (n) => n <= kinds.length, fault: (n) => kinds[n - 1] ?? 'reset' }]);
    const { report, progress } = await runAudit({ client, table: name, convention: conv, segments: 4, retry: FAST });
    expect(log.injected).toBe(kinds.length);
    expect(progress.retries).toBe(kinds.length);
    expect(report.complete).toBe(true);
    expect(report).toEqual(clean);
    expect(sent.filter((c) => WRITE_COMMANDS.has(c))).toEqual([]);
    figures.auditsRun += 2;
    figures.faultsInjected += log.injected;
  });

  it('a scan call failing on every attempt mid-scan: complete false, the reason named, never a partial report passed off as whole', async () => {
    const { client, log } = faulty([{ command: 'ScanCommand', on: (n) => n >= 2, fault: 'ThrottlingException' }]);
    const { report, error } = await runAudit({ client, table: name, convention: conv, segments: 1, retry: FAST });
    expect(report.complete).toBe(false);
    expect(report.reason).toMatch(/^scan failed: throttled by DynamoDB/);
    expect(error?.kind).toBe('throttled');
    expect(report.scanned).toBeGreaterThan(0);
    expect(report.scanned).toBeLessThan(clean.scanned);
    figures.auditsRun += 1;
    figures.faultsInjected += log.injected;
  });

  it('an endpoint that accepts the connection and never answers: the audit ends incomplete within the timeouts', async () => {
    const { client } = faulty([], blackHoleEndpoint, { connectMs: 300, idleMs: 300 });
    const started = Date.now();
    const { report, error } = await runAudit({
      client,
      table: name,
      convention: conv,
      segments: 2,
      retry: { maxAttempts: 2, baseMs: 1, capMs: 5 },
      errorContext: { endpoint: blackHoleEndpoint, table: name },
    });
    expect(report.complete).toBe(false);
    expect(error?.kind).toBe('unreachable');
    expect(report.reason).toMatch(/^scan failed: no answer from http:\/\/127\.0\.0\.1:\d+ in time/);
    expect(Date.now() - started).toBeLessThan(10_000);
    figures.auditsRun += 1;
    figures.stalledCalls += 4;
  });
});

describe('lookup under faults', () => {
  it('a reset on the lock read and throttling on the holder scan: retried, the right verdicts, complete', async () => {
    const { client, log, sent } = faulty([
      { command: 'GetItemCommand', on: (n) => n === 1, fault: 'reset' },
      { command: 'ScanCommand', on: (n) => n <= 2, fault: 'ProvisionedThroughputExceededException' },
    ]);
    const held = await lookupValue({ client, table: { name, gsis: [] }, convention: conv, value: 'user7', segments: 2 });
    expect(held.ok && held.value).toMatchObject({
      complete: true,
      rules: [
        { rule: 'EMAIL', verdict: 'free' },
        { rule: 'HANDLE', verdict: 'held' },
      ],
    });
    const orphan = await lookupValue({ client, table: { name, gsis: [] }, convention: conv, value: 'gone25', rule: 'HANDLE', segments: 2 });
    expect(orphan.ok && orphan.value).toMatchObject({ complete: true, rules: [{ verdict: 'orphan' }] });
    const unprotected = await lookupValue({
      client,
      table: { name, gsis: [] },
      convention: conv,
      value: 'user10',
      rule: 'HANDLE',
      segments: 2,
    });
    expect(unprotected.ok && unprotected.value).toMatchObject({ complete: true, rules: [{ verdict: 'unprotected' }] });
    expect(log.injected).toBe(3);
    expect(sent.filter((c) => WRITE_COMMANDS.has(c))).toEqual([]);
    figures.lookupsRun += 3;
    figures.faultsInjected += log.injected;
  });

  it('the holder scan failing for good after its first page: complete false with the reason, the verdict flagged as provisional', async () => {
    const { client } = faulty([{ command: 'ScanCommand', on: (n) => n >= 2, fault: (n) => (n % 2 === 0 ? 'reset' : 'timeout') }]);
    const started = Date.now();
    const answer = await lookupValue({ client, table: { name, gsis: [] }, convention: conv, value: 'user7', rule: 'HANDLE', segments: 1 });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.value.complete).toBe(false);
    expect(answer.value.reason).toMatch(/^scan failed: (connection to|no answer from) /);
    expect(answer.value.rules[0]?.notes.join(' ')).toMatch(/the scan for holders did not finish .*: the verdict may be wrong/);
    expect(Date.now() - started).toBeLessThan(30_000);
    figures.lookupsRun += 1;
  });
});

describe('a transaction against an endpoint that never answers', () => {
  it('fails with a clear unreachable error after its attempts, instead of hanging', async () => {
    const { client } = faulty([], blackHoleEndpoint, { connectMs: 300, idleMs: 300 });
    const sent = await sendTransaction({
      client,
      input: {
        ClientRequestToken: 'stalled-0000-0000-0000-000000000000',
        TransactItems: [
          {
            Put: {
              TableName: name,
              Item: { PK: { S: 'UNIQ#HANDLE#stalled' }, SK: { S: 'LOCK' } },
              ConditionExpression: 'attribute_not_exists(#pk)',
              ExpressionAttributeNames: { '#pk': 'PK' },
            },
          },
        ],
      },
      retry: { maxAttempts: 3, baseMs: 1, capMs: 5 },
      errorContext: { endpoint: blackHoleEndpoint },
    });
    expect(sent).toMatchObject({ ok: false, attempts: 3, error: { kind: 'unreachable' } });
    figures.stalledCalls += 3;
    await recordFigures('read-faults', { ...figures, items: ACCOUNTS * 3 });
  });
});
