import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditHistoryEntry } from '../../shared/audit/history';
import type { AuditReport } from '../../shared/audit/types';
import { startDynamoDbLocal, type DynamoDbLocalHandle } from '../services/sandbox/dynamodb-local';
import { createTempTable, putItems, testClient } from '../testing/dynamo-fixtures';
import type { TableOutcome } from './all-tables';
import type { CliIo } from './command';
import { main } from './main';
import { PRESET_TABLES } from './testing/preset-tables';
import { cleanEnv, runCli } from './testing-cli';
import { HISTORY_FILE } from '../services/history/audit-history';

// A DynamoDB Local of its own: --all-tables lists every table, and the run's shared one holds other tests' tables.
let local: DynamoDbLocalHandle;
let admin: DynamoDBClient;
let endpoint = '';
const dataDir = mkdtempSync(join(tmpdir(), 'locksmith-fleet-'));
const env = (): NodeJS.ProcessEnv => cleanEnv({ LOCKSMITH_DATA_DIR: dataDir });
const s = (value: string): { S: string } => ({ S: value });
const pair = { hash: { name: 'PK', type: 'S' as const }, range: { name: 'SK', type: 'S' as const } };
const names = { plain: '', empty: '', clean: '', doubtful: '', presets: new Map<string, string>() };

interface Fleet {
  readonly complete: boolean;
  readonly tables: readonly TableOutcome[];
}
const fleet = async (): Promise<{ code: number; doc: Fleet; stderr: string }> => {
  const run = await runCli(['audit', '--all-tables', '--endpoint', endpoint, '--json'], env());
  return { code: run.code, doc: JSON.parse(run.stdout) as Fleet, stderr: run.stderr };
};
const byName = (doc: Fleet, table: string): TableOutcome | undefined => doc.tables.find((t) => t.table === table);

beforeAll(async () => {
  const started = await startDynamoDbLocal({ heap: '256m' });
  if (!started.ok) throw new Error(started.error.message);
  local = started.value;
  endpoint = local.endpoint;
  admin = testClient(endpoint);
  // A table without locks, an empty one, and a clean one first: a fleet with nothing wrong.
  names.plain = await createTempTable(admin, pair, 'orders');
  await putItems(admin, names.plain, [
    { PK: s('order-1'), SK: s('v1'), total: s('12') },
    { PK: s('order-2'), SK: s('v1') },
  ]);
  names.empty = await createTempTable(admin, pair, 'empty');
  names.clean = await createTempTable(admin, pair, 'clean');
  await putItems(admin, names.clean, PRESET_TABLES[0]!.items.slice(0, 6));
}, 60_000);

afterAll(async () => {
  admin?.destroy();
  await local?.stop();
});

describe('audit --all-tables', () => {
  it('exits 0 when every table is clean or holds no locks; those are listed, not errors', async () => {
    const { code, doc } = await fleet();
    expect(code).toBe(0);
    expect(doc.complete).toBe(true);
    expect(byName(doc, names.plain)).toMatchObject({ locks: false, status: 'no-locks', complete: true });
    expect(byName(doc, names.empty)).toMatchObject({ locks: false, status: 'empty', complete: true });
    expect(byName(doc, names.clean)).toMatchObject({
      locks: true,
      status: 'audited',
      complete: true,
      exit: 0,
      convention: { preset: 'uniq', source: 'detected', confidence: 1 },
    });
  }, 120_000);

  it('audits every layout as audit --table does (the same summary, the same exit code), and exits 1 for problems', async () => {
    for (const t of PRESET_TABLES) {
      const name = await createTempTable(admin, t.keys, `fleet-${t.preset}`);
      await putItems(admin, name, t.items);
      names.presets.set(t.preset, name);
    }
    const { code, doc } = await fleet();
    expect(code).toBe(1);
    expect(doc.tables.map((t) => t.table).sort()).toEqual([names.plain, names.empty, names.clean, ...names.presets.values()].sort());
    for (const t of PRESET_TABLES) {
      const name = names.presets.get(t.preset)!;
      const single = await runCli(['audit', '--endpoint', endpoint, '--table', name, '--json'], env());
      const report = JSON.parse(single.stdout) as AuditReport;
      expect(byName(doc, name)).toMatchObject({
        locks: true,
        status: 'audited',
        complete: true,
        exit: single.code,
        summary: report.summary,
        items: report.scanned,
        lockItems: report.locks,
        convention: { preset: t.preset },
      });
      expect(report.summary['orphan-lock']).toBe(1);
    }
  }, 180_000);

  it('lists a table whose detection is not sure with its evidence, does not audit it, and exits 2: it needs a convention', async () => {
    names.doubtful = await createTempTable(admin, pair, 'doubtful');
    await putItems(admin, names.doubtful, [
      { PK: s('ACCT#1'), SK: s('PROFILE'), email: s('a@x.io') },
      { PK: s('UNIQ#EMAIL#a@x.io'), SK: s('LOCK') },
      { PK: s('UNIQ#HANDLE#zed'), SK: s('LOCK') },
    ]);
    const { code, doc, stderr } = await fleet();
    expect(code).toBe(2);
    expect(doc.complete).toBe(false);
    const doubtful = byName(doc, names.doubtful);
    expect(doubtful).toMatchObject({
      locks: true,
      status: 'needs-convention',
      complete: false,
      convention: { preset: 'uniq', confidence: 0.5 },
    });
    expect(doubtful?.summary).toBeUndefined();
    expect(doubtful?.evidence?.some((line) => line.includes('HANDLE'))).toBe(true);
    expect(stderr).toContain(`${names.doubtful}: needs a convention`);
    // The readable summary: a line per table, the evidence under the doubtful one.
    const text = await runCli(['audit', '--all-tables', '--endpoint', endpoint], env());
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(new RegExp(`${names.doubtful}\\s+uniq \\(detected, confidence 0\\.5\\)\\s+NEEDS A CONVENTION`));
    expect(text.stdout).toMatch(new RegExp(`${names.empty}\\s+—\\s+no locks: the table is empty`));
    expect(text.stdout).toMatch(
      new RegExp(
        `${names.presets.get('uniq')!}\\s+uniq \\(detected, confidence 1\\)\\s+12 items.*2 problems: orphan-lock 1, missing-lock 1\\s+complete`,
      ),
    );
  }, 180_000);

  it('audits a doubtful table with its file from --convention DIR', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'locksmith-conventions-'));
    const detect = await runCli(['detect', '--endpoint', endpoint, '--table', names.doubtful, '--preset', 'uniq', '--json'], env());
    expect(detect.code).toBe(0);
    writeFileSync(join(dir, `${names.doubtful}.json`), JSON.stringify((JSON.parse(detect.stdout) as { convention: unknown }).convention));
    const run = await runCli(['audit', '--all-tables', '--endpoint', endpoint, '--convention', dir, '--json'], env());
    const doc = JSON.parse(run.stdout) as Fleet;
    const single = await runCli(
      ['audit', '--endpoint', endpoint, '--table', names.doubtful, '--convention', join(dir, `${names.doubtful}.json`), '--json'],
      env(),
    );
    expect(byName(doc, names.doubtful)?.reason).toBeUndefined();
    expect(byName(doc, names.doubtful)).toMatchObject({
      status: 'audited',
      convention: { source: 'file' },
      summary: (JSON.parse(single.stdout) as AuditReport).summary,
      exit: single.code,
    });
    expect(run.code).toBe(1);
  }, 180_000);

  it('records each audited table in the history, read back by locksmith history (a damaged line skipped)', async () => {
    appendFileSync(join(dataDir, HISTORY_FILE), '{"time":"torn\n');
    const run = await runCli(['history', '--json'], env());
    expect(run.code).toBe(0);
    const { entries } = JSON.parse(run.stdout) as { entries: AuditHistoryEntry[] };
    const uniq = names.presets.get('uniq')!;
    const ofUniq = entries.filter((e) => e.table === uniq);
    expect(ofUniq.length).toBeGreaterThanOrEqual(2);
    expect(ofUniq.at(-1)).toMatchObject({
      source: 'live',
      complete: true,
      items: 12,
      target: { endpoint, region: 'us-east-1' },
      convention: { preset: 'uniq' },
      summary: { 'orphan-lock': 1, 'missing-lock': 1 },
    });
    expect(entries.some((e) => e.table === names.plain || e.table === names.empty)).toBe(false);
    const one = await runCli(['history', '--table', uniq], env());
    expect(
      one.stdout
        .trim()
        .split('\n')
        .every((line) => line.includes(uniq) && line.includes('orphan-lock 1')),
    ).toBe(true);
  }, 60_000);

  it('Ctrl+C stops cleanly: what finished is summarised, the rest is not started, exit 2', async () => {
    const controller = new AbortController();
    let out = '';
    const io: CliIo = {
      stdout: (text) => void (out += text),
      // The first table's progress line: a person presses Ctrl+C now.
      stderr: (text) => {
        if (text.startsWith('\r1/')) controller.abort();
      },
      env: { LOCKSMITH_DATA_DIR: dataDir },
      interactive: true,
      signal: controller.signal,
    };
    const code = await main(['audit', '--all-tables', '--endpoint', endpoint, '--json'], io);
    expect(controller.signal.aborted).toBe(true);
    expect(code).toBe(2);
    const doc = JSON.parse(out) as Fleet & { reason?: string };
    expect(doc).toMatchObject({ complete: false, reason: 'cancelled' });
    expect(doc.tables.filter((t) => t.status !== 'not-started').length).toBeGreaterThanOrEqual(1);
    expect(doc.tables.some((t) => t.status === 'not-started')).toBe(true);
  }, 120_000);
});
