import { describe, expect, it } from 'vitest';
import type { AuditReport } from '../../shared/audit/types';
import { layoutFor } from '../../shared/conventions/test-layouts';
import type { ScanProgress } from '../../shared/scan-types';
import { auditText, etaMs, formatDuration, progressLine } from './report-text';
import { ANSI } from './style';

const progress = (items: number, elapsedMs: number): ScanProgress => ({ items, pages: 3, segments: 4, segmentsDone: 1, capacityUnits: 0, elapsedMs, retries: 0 });
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
};

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

  it.each([[900, '1 s'], [45_000, '45 s'], [200_000, '3 min 20 s'], [3_900_000, '1 h 5 min']])('formats %i ms as %s', (ms, text) => {
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
