import { describe, expect, it } from 'vitest';
import type { ConventionWarning } from '../../shared/audit/fit';
import type { AuditReport } from '../../shared/audit/types';
import { auditExitCode, EXIT_OK, EXIT_PROBLEMS } from './command';
import { layoutFor } from '../../shared/conventions/test-layouts';
import type { ScanProgress } from '../../shared/scan-types';
import { auditText, etaMs, formatDuration, progressLine } from './report-text';
import { ANSI } from './style';

const progress = (items: number, elapsedMs: number): ScanProgress => ({
  items,
  pages: 3,
  segments: 4,
  segmentsDone: 1,
  capacityUnits: 0,
  elapsedMs,
  retries: 0,
});
const convention = layoutFor('uniq').convention;
const report: AuditReport = {
  table: 'accounts',
  complete: true,
  convention,
  scanned: 10,
  accounts: 4,
  locks: 6,
  summary: { 'orphan-lock': 1, 'missing-lock': 12, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
  problems: [
    { kind: 'orphan-lock', rule: 'HANDLE', value: 'ghost', lock: { PK: 'UNIQ#HANDLE#ghost', SK: 'LOCK' } },
    { kind: 'missing-lock', rule: 'EMAIL', value: 'a@x.io', accounts: [{ PK: 'ACCT#a', SK: 'PROFILE' }] },
  ],
  warnings: [],
};
const clean: AuditReport = {
  ...report,
  summary: { 'orphan-lock': 0, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
  problems: [],
};
const warning: ConventionWarning = {
  rule: 'EMAIL',
  kind: 'values-elsewhere',
  counts: { rule: 'EMAIL', held: 40, healthy: 0, missing: 40, malformed: 0, embedded: 40, unmatched: 40 },
  message: 'the convention does not explain this table for rule EMAIL: 40 of its 40 missing values stand in keys of another layout',
};

describe('a convention warning', () => {
  it('is a line of the readable report, before the problems', () => {
    const text = auditText({ ...report, warnings: [warning] }, progress(10, 1_000), 'detected');
    expect(text).toContain(`WARNING EMAIL: ${warning.message}`);
    expect(text.indexOf('WARNING EMAIL')).toBeLessThan(text.indexOf('Problems:'));
    expect(auditText(report, progress(10, 1_000), 'detected')).not.toContain('WARNING');
  });

  it('never lets an audit exit 0: a clean report with a warning exits 1', () => {
    expect(auditExitCode(clean)).toBe(EXIT_OK);
    expect(auditExitCode({ ...clean, warnings: [warning] })).toBe(EXIT_PROBLEMS);
    expect(auditExitCode(report)).toBe(EXIT_PROBLEMS);
  });
});

describe('progress', () => {
  it('estimates the time left from the rate so far and the table size', () => {
    expect(etaMs(progress(1_000, 2_000), 4_000)).toBe(6_000);
    expect(progressLine(progress(1_000, 2_000), 4_000)).toMatch(/, ~25%, about 6 s left$/);
  });

  it('gives no ETA when the size is unknown or already passed (DescribeTable counts are hours old)', () => {
    expect(etaMs(progress(1_000, 2_000), undefined)).toBeUndefined();
    expect(etaMs(progress(5_000, 2_000), 4_000)).toBeUndefined();
    expect(progressLine(progress(1_000, 2_000))).not.toContain('left');
  });

  it.each([
    [900, '1 s'],
    [45_000, '45 s'],
    [200_000, '3 min 20 s'],
    [3_900_000, '1 h 5 min'],
  ])('formats %i ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('auditText', () => {
  it('aligns the kind, count and rule columns', () => {
    const text = auditText(report, progress(10, 1_000), 'detected');
    expect(text).toContain('  orphan-lock    1\n  missing-lock  12\n');
    const lines = text.split('\n').filter((l) => l.includes('"ghost"') || l.includes('"a@x.io"'));
    expect(lines.map((l) => l.indexOf('"'))).toEqual([lines[0]!.indexOf('"'), lines[0]!.indexOf('"')]);
    expect(lines[0]).toMatch(/^ {2}orphan-lock {3}HANDLE {2}"ghost"/);
  });

  it('colours only when asked', () => {
    expect(auditText(report, progress(10, 1_000), 'detected')).not.toContain('\u001b[');
    const coloured = auditText(report, progress(10, 1_000), 'detected', ANSI);
    expect(coloured).toContain('\u001b[32mcomplete\u001b[39m');
    expect(coloured).toContain('\u001b[31morphan-lock ');
  });
});
