import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { GroupRow } from '../../../shared/audit/types';
import { CHECKING_ROWS } from '../../../shared/audit/deltas';
import { PRESET_DEFAULTS, presetConvention } from '../../../shared/conventions/presets';
import { deleteTable, testClient, uniqueTableName } from '../../testing/dynamo-fixtures';
import { DEMO_TABLES, seedDemoData } from '../sandbox/demo-data';
import { DEMO_TABLE_NAMES, EXPECTED_PROBLEMS, problemSignature } from '../sandbox/expected-problems';
import { createDynamoClient } from '../dynamo/client';
import { FIRST_PAGE_ITEMS, runAudit } from './run-audit';
import { sampleItems } from './sample';

const endpoint = inject('dynamoEndpoint');
const prefix = `${uniqueTableName('audit')}-`;
let admin: DynamoDBClient;
let client: DynamoDBClient;

beforeAll(async () => {
  admin = testClient(endpoint);
  client = createDynamoClient({ label: 'test', endpoint, region: 'us-east-1' });
  const seeded = await seedDemoData(admin, { prefix });
  if (!seeded.ok) throw new Error(seeded.error.message);
});

afterAll(async () => {
  for (const name of DEMO_TABLE_NAMES) await deleteTable(admin, `${prefix}${DEMO_TABLES[name].name}`);
  admin.destroy();
  client.destroy();
});

describe('runAudit on the sandbox demo data', () => {
  it.each(DEMO_TABLE_NAMES)('finds exactly the expected problems of %s', async (name) => {
    const expected = EXPECTED_PROBLEMS[name];
    const spec = DEMO_TABLES[name];
    const convention = presetConvention(expected.preset, spec.keys, PRESET_DEFAULTS[expected.preset]);
    const { report, progress, error } = await runAudit({ client, table: `${prefix}${spec.name}`, convention, segments: 4 });
    expect(error).toBeUndefined();
    expect(report.complete).toBe(true);
    expect(report.reason).toBeUndefined();
    expect(report.summary).toEqual(expected.summary);
    expect(report.problems.map(problemSignature).sort()).toEqual(expected.problems.map(problemSignature).sort());
    expect({ scanned: report.scanned, accounts: report.accounts, locks: report.locks }).toEqual({
      scanned: expected.items,
      accounts: expected.accounts,
      locks: expected.locks,
    });
    expect(progress).toMatchObject({ items: expected.items, segments: 4, segmentsDone: 4 });
  });

  it('streams deltas that add up to the final rows, with progress', async () => {
    const spec = DEMO_TABLES.accounts;
    const convention = presetConvention('uniq', spec.keys, PRESET_DEFAULTS.uniq);
    const rows = new Map<string, GroupRow>();
    let deltas = 0;
    let lastItems = -1;
    const { report } = await runAudit({
      client,
      table: `${prefix}${spec.name}`,
      convention,
      segments: 8,
      deltaIntervalMs: 0,
      maxRowsPerDelta: 500,
      onDelta: (delta, progress) => {
        deltas++;
        expect(progress.items).toBeGreaterThanOrEqual(lastItems);
        lastItems = progress.items;
        for (const id of delta.removed) rows.delete(id);
        for (const row of delta.upserted) rows.set(row.id, row);
      },
    });
    expect(deltas).toBeGreaterThan(1);
    const expected = EXPECTED_PROBLEMS.accounts;
    // One row per account, per orphan lock and per malformed lock.
    expect(rows.size).toBe(expected.accounts + expected.summary['orphan-lock'] + expected.summary['malformed-lock']);
    expect([...rows.values()].filter((r) => r.kind === 'orphan-lock')).toHaveLength(expected.summary['orphan-lock']);
    expect(report.complete).toBe(true);
  });

  it('streams bounded deltas, holds orphans and marks waiting accounts checking until the scan ends, and starts with a small page per segment', async () => {
    const spec = DEMO_TABLES.accounts;
    const convention = presetConvention('uniq', spec.keys, PRESET_DEFAULTS.uniq);
    const sizes: number[] = [];
    const rows = new Map<string, GroupRow>();
    let firstProgressItems: number | undefined;
    let scanEnded = false;
    let provisionalWhileRunning = 0;
    let sentWhileRunning = 0;
    const checkingWhileRunning = new Set<string>();
    const { report } = await runAudit({
      client,
      table: `${prefix}${spec.name}`,
      convention,
      segments: 4,
      deltaIntervalMs: 0,
      maxRowsPerDelta: 40,
      onProgress: (progress) => {
        firstProgressItems ??= progress.items;
        if (progress.segmentsDone === progress.segments) scanEnded = true;
      },
      onDelta: (delta) => {
        sizes.push(delta.upserted.length);
        for (const row of delta.upserted) {
          // Before the last segment finished, no orphan row may go out, and an account still waiting for a
          // lock only marked checking, without a missing lock among its problems.
          const waiting = row.kind === 'account' && row.locks.some((l) => l.lock === undefined && l.status === 'missing');
          if (!scanEnded && (row.kind === 'orphan-lock' || (waiting && (!row.checking || row.problems.includes('missing-lock')))))
            provisionalWhileRunning++;
          if (!scanEnded && row.kind === 'account' && row.checking) checkingWhileRunning.add(row.id);
          if (!scanEnded) sentWhileRunning++;
          rows.set(row.id, row);
        }
        for (const id of delta.removed) rows.delete(id);
      },
    });
    expect(report.complete).toBe(true);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(40);
    expect(provisionalWhileRunning).toBe(0);
    expect(sentWhileRunning).toBeGreaterThan(0);
    expect(checkingWhileRunning.size).toBeGreaterThan(0);
    expect(checkingWhileRunning.size).toBeLessThanOrEqual(CHECKING_ROWS);
    // Every row ends settled.
    expect([...rows.values()].filter((r) => r.kind === 'account' && r.checking)).toEqual([]);
    // The first page of one segment holds FIRST_PAGE_ITEMS items at most.
    expect(firstProgressItems).toBeLessThanOrEqual(FIRST_PAGE_ITEMS);
    const expected = EXPECTED_PROBLEMS.accounts;
    expect(rows.size).toBe(expected.accounts + expected.summary['orphan-lock'] + expected.summary['malformed-lock']);
    // Held accounts went out at the end as they finally are: every missing lock is among the rows.
    expect([...rows.values()].flatMap((r) => (r.kind === 'account' ? r.locks.filter((l) => l.status === 'missing') : []))).toHaveLength(
      expected.summary['missing-lock'],
    );
  });

  it('rides out injected throttling and still finds exactly the expected problems', async () => {
    let scans = 0;
    const throttled = createDynamoClient(
      { label: 'throttled', endpoint, region: 'us-east-1' },
      {
        middleware: [
          (stack) =>
            stack.add(
              (next, context) => async (args) => {
                // Every other Scan call among the first 8 is throttled.
                if (context.commandName === 'ScanCommand' && ++scans <= 8 && scans % 2 === 1) {
                  throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
                    name: 'ThrottlingException',
                    $fault: 'client',
                    $metadata: { httpStatusCode: 400 },
                  });
                }
                return next(args);
              },
              { step: 'initialize', name: 'throttleScans' },
            ),
        ],
      },
    );
    const spec = DEMO_TABLES.accounts;
    const { report, progress } = await runAudit({
      client: throttled,
      table: `${prefix}${spec.name}`,
      convention: presetConvention('uniq', spec.keys, PRESET_DEFAULTS.uniq),
      segments: 4,
      retry: { maxAttempts: 5, baseMs: 1, capMs: 10 },
    });
    throttled.destroy();
    expect(progress.retries).toBe(4);
    expect(report.complete).toBe(true);
    expect(report.problems.map(problemSignature).sort()).toEqual(EXPECTED_PROBLEMS.accounts.problems.map(problemSignature).sort());
  });

  it('reports a cancelled audit as incomplete, with the reason', async () => {
    const spec = DEMO_TABLES.accounts;
    const controller = new AbortController();
    controller.abort();
    const { report, error } = await runAudit({
      client,
      table: `${prefix}${spec.name}`,
      convention: presetConvention('uniq', spec.keys, PRESET_DEFAULTS.uniq),
      signal: controller.signal,
    });
    expect(report).toMatchObject({ complete: false, reason: 'cancelled' });
    expect(error?.kind).toBe('cancelled');
  });
});

describe('sampleItems', () => {
  it('returns at most n whole items, spread over segments', async () => {
    const table = `${prefix}${DEMO_TABLES.accounts.name}`;
    const sample = await sampleItems(client, table, 101, { segments: 4 });
    expect(sample.ok).toBe(true);
    if (!sample.ok) return;
    expect(sample.value).toHaveLength(101);
    expect(new Set(sample.value.map((i) => `${i.PK?.S}|${i.SK?.S}`)).size).toBe(101);
  });

  it('maps a missing table to not-found', async () => {
    const sample = await sampleItems(client, 'missing-table-xyz', 10);
    expect(sample).toEqual({ ok: false, error: { kind: 'not-found', message: 'table missing-table-xyz not found' } });
  });
});
