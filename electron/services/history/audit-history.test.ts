import { mkdtempSync, readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditReport } from '../../../shared/audit/types';
import { presetConvention, PRESET_DEFAULTS } from '../../../shared/conventions/presets';
import {
  conventionId,
  historyEntry,
  historyPath,
  historyTarget,
  HISTORY_KEEP_BYTES,
  HISTORY_MAX_BYTES,
  readHistory,
  recordAudit,
} from './audit-history';

const keys = { hash: { name: 'PK', type: 'S' as const }, range: { name: 'SK', type: 'S' as const } };
const convention = presetConvention('uniq', keys, PRESET_DEFAULTS.uniq);
const summary = { 'orphan-lock': 2, 'missing-lock': 1, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 };
const report = (table: string, complete = true): AuditReport => ({
  table,
  complete,
  warnings: [],
  ...(complete ? {} : { reason: 'segment 2 failed' }),
  convention,
  scanned: 40,
  accounts: 10,
  locks: 19,
  summary,
  problems: [
    {
      kind: 'orphan-lock',
      rule: 'EMAIL',
      value: 'secret-value@example.com',
      lock: { PK: 'UNIQ#EMAIL#secret-value@example.com', SK: 'LOCK' },
    },
  ],
});
const local = historyTarget({ endpoint: 'http://localhost:8000', region: 'us-east-1' });
const folder = (): string => mkdtempSync(join(tmpdir(), 'locksmith-history-'));

describe('audit history', () => {
  it('appends a summary per audit (0600, no item data) and reads it back oldest first, per table and target', async () => {
    const dir = folder();
    await recordAudit(dir, report('accounts'), { target: local, source: 'live', time: new Date('2026-01-01T00:00:00Z') });
    await recordAudit(dir, report('users', false), {
      target: historyTarget({ profile: 'prod', region: 'eu-west-1' }),
      source: 'export',
      time: new Date('2026-01-02T00:00:00Z'),
    });
    await recordAudit(dir, report('accounts'), { target: local, source: 'live', time: new Date('2026-01-03T00:00:00Z') });
    expect(statSync(historyPath(dir)).mode & 0o777).toBe(0o600);
    expect(readFileSync(historyPath(dir), 'utf8')).not.toContain('secret-value');
    const all = await readHistory(dir);
    expect(all.map((e) => [e.time.slice(0, 10), e.table, e.source, e.complete])).toEqual([
      ['2026-01-01', 'accounts', 'live', true],
      ['2026-01-02', 'users', 'export', false],
      ['2026-01-03', 'accounts', 'live', true],
    ]);
    expect(all[0]).toEqual({
      time: '2026-01-01T00:00:00.000Z',
      table: 'accounts',
      target: { endpoint: 'http://localhost:8000', region: 'us-east-1' },
      convention: { preset: 'uniq', id: conventionId(convention) },
      source: 'live',
      complete: true,
      items: 40,
      accounts: 10,
      locks: 19,
      summary,
    });
    expect(all[1]?.reason).toBe('segment 2 failed');
    expect((await readHistory(dir, { table: 'accounts' })).length).toBe(2);
    expect((await readHistory(dir, { target: { endpoint: 'http://localhost:8000', region: 'us-east-1' } })).map((e) => e.table)).toEqual([
      'accounts',
      'accounts',
    ]);
    expect((await readHistory(dir, { target: { profile: 'prod', region: 'eu-west-1' } })).map((e) => e.table)).toEqual(['users']);
  });

  it('skips a damaged line (torn, not JSON, wrong shape) and reads the rest', async () => {
    const dir = folder();
    await recordAudit(dir, report('a1'), { target: local, source: 'live' });
    appendFileSync(historyPath(dir), '{"time":"2026-01-01T00:00:00Z","table":"torn","targ\n');
    appendFileSync(historyPath(dir), '{"time":"2026-01-01T00:00:00Z","table":"bad","summary":{}}\nnot json at all\n');
    await recordAudit(dir, report('a2'), { target: local, source: 'live' });
    expect((await readHistory(dir)).map((e) => e.table)).toEqual(['a1', 'a2']);
  });

  it('is empty without a file', async () => {
    expect(await readHistory(folder())).toEqual([]);
  });

  it('stays bounded: past the limit it keeps its newest entries', async () => {
    const dir = folder();
    const line = `${JSON.stringify(historyEntry(report('old'), { target: local, source: 'live' }))}\n`;
    writeFileSync(historyPath(dir), line.repeat(Math.ceil(HISTORY_MAX_BYTES / line.length)), { mode: 0o600 });
    await recordAudit(dir, report('newest'), { target: local, source: 'live' });
    const size = statSync(historyPath(dir)).size;
    expect(size).toBeLessThanOrEqual(HISTORY_KEEP_BYTES);
    expect(size).toBeGreaterThan(HISTORY_KEEP_BYTES - 2 * line.length);
    expect(statSync(historyPath(dir)).mode & 0o777).toBe(0o600);
    const entries = await readHistory(dir);
    expect(entries.at(-1)?.table).toBe('newest');
  });

  it('names the target without credentials: no user info, query or fragment in an endpoint', () => {
    expect(historyTarget({ endpoint: 'http://user:pw@localhost:8000/?X-Amz-Security-Token=abc#f', region: 'us-east-1' })).toEqual({
      endpoint: 'http://localhost:8000',
      region: 'us-east-1',
    });
    expect(historyTarget({ profile: 'prod', region: 'eu-west-1' })).toEqual({ profile: 'prod', region: 'eu-west-1' });
  });

  it('gives the same convention the same short id, and another one another', () => {
    expect(conventionId(convention)).toMatch(/^[0-9a-f]{8}$/);
    expect(conventionId(presetConvention('uniq', keys, PRESET_DEFAULTS.uniq))).toBe(conventionId(convention));
    expect(conventionId({ ...convention, ownerAttribute: 'owner' })).not.toBe(conventionId(convention));
  });
});
