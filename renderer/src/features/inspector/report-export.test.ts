import { describe, expect, it } from 'vitest';
import type { AuditReport } from '../../../../shared/audit/types';
import { csvField, reportToCsv, reportToJson } from './report-export';

const report: AuditReport = {
  table: 'accounts',
  complete: false,
  reason: 'segment 2 failed: connection refused',
  scanned: 10,
  accounts: 4,
  locks: 6,
  convention: {
    preset: 'uniq',
    keys: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } },
    account: { kind: 'key-prefix', prefix: 'ACCT#', range: 'PROFILE' },
    rules: [],
    lockPrefixes: ['UNIQ#'],
  },
  summary: { 'orphan-lock': 1, 'missing-lock': 0, 'duplicate-value': 1, 'owner-mismatch': 0, 'malformed-lock': 0 },
  problems: [
    { kind: 'orphan-lock', rule: 'HANDLE', value: 'ada', lock: { PK: 'UNIQ#HANDLE#ada', SK: 'LOCK' } },
    {
      kind: 'duplicate-value',
      rule: 'EMAIL',
      value: '=cmd|"x"',
      accounts: [
        { PK: 'ACCT#1', SK: 'PROFILE' },
        { PK: 'ACCT#2', SK: 'PROFILE' },
      ],
    },
  ],
  warnings: [],
};

describe('report export', () => {
  it('JSON round-trips to the same report', () => {
    expect(JSON.parse(reportToJson(report))).toEqual(report);
  });

  it('CSV has a header, one line per problem and marks an incomplete report', () => {
    const lines = reportToCsv(report).trimEnd().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('"kind","rule","value","lock","accounts","reason"');
    expect(lines[1]).toContain('"orphan-lock","HANDLE","ada"');
    expect(lines[3]).toContain('"incomplete"');
  });

  it('CSV quotes inner quotes and defuses formulas', () => {
    const line = reportToCsv(report).split('\r\n')[2] ?? '';
    expect(line).toContain(`"'=cmd|""x"""`);
  });

  it.each([' =1+1', '\u00A0=HYPERLINK("http://x")', '\uFF1D1+1', '\t=1', '  @SUM(A1)', '\u3000+1', '\u200B-1', '\uFF20x'])(
    'CSV neutralises a formula after leading blanks or in full-width form: %j (#16 finding 10)',
    (value) => {
      expect(csvField(value)).toBe(`"'${value.replace(/"/g, '""')}"`);
    },
  );

  it('CSV leaves ordinary values alone', () => {
    expect(csvField('ada@lovelace.io')).toBe('"ada@lovelace.io"');
    expect(csvField(' a = b')).toBe('" a = b"');
  });
});
