import { describe, expect, it } from 'vitest';
import { fleetExit, tableExit, type TableOutcome } from './all-tables';
import { fleetText } from './all-tables-text';
import { main } from './main';
import { captureIo } from './testing-io';

const summary = { 'orphan-lock': 1, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 2 };
const audited = (exit: number): TableOutcome => ({
  table: `t${exit}`,
  locks: true,
  status: 'audited',
  complete: exit !== 2,
  exit,
  summary,
  items: 10,
  accounts: 2,
  lockItems: 5,
  convention: { preset: 'uniq', source: 'detected', confidence: 1 },
});
const none: TableOutcome = {
  table: 'orders',
  locks: false,
  status: 'no-locks',
  complete: true,
  reason: 'no lock items in a sample of 2 items',
};
const empty: TableOutcome = { table: 'empty', locks: false, status: 'empty', complete: true, reason: 'the table is empty' };
const doubtful: TableOutcome = {
  table: 'doubtful',
  locks: true,
  status: 'needs-convention',
  complete: false,
  convention: { preset: 'uniq', source: 'detected', confidence: 0.5 },
  evidence: ['lock tag HANDLE: no attribute holds their values'],
  reason: 'needs a convention',
};

describe('audit --all-tables: the exit code', () => {
  it('is the worst table’s: an audited table counts with its single audit’s code, one without locks or empty with 0', () => {
    expect(fleetExit([])).toBe(0);
    expect(fleetExit([none, empty, audited(0)])).toBe(0);
    expect(fleetExit([none, audited(1), audited(0)])).toBe(1);
    expect(fleetExit([audited(1), audited(2)])).toBe(2);
  });

  it('counts a table that needs a convention, failed or was not started as incomplete (2)', () => {
    expect(tableExit(doubtful)).toBe(2);
    expect(tableExit({ table: 'x', locks: null, status: 'failed', complete: false, reason: 'AccessDenied' })).toBe(2);
    expect(tableExit({ table: 'y', locks: null, status: 'not-started', complete: false })).toBe(2);
    expect(fleetExit([audited(1), doubtful])).toBe(2);
  });
});

describe('audit --all-tables: the readable summary', () => {
  it('gives a line per table, and the evidence under one that needs a convention', () => {
    const text = fleetText({
      endpoint: 'http://localhost:8000',
      region: 'us-east-1',
      complete: false,
      tables: [audited(1), none, empty, doubtful],
    });
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('4 tables at http://localhost:8000 (us-east-1)');
    expect(lines[1]).toMatch(
      /^ {2}t1 +uniq \(detected, confidence 1\) +10 items, 2 accounts, 5 locks {2}3 problems: orphan-lock 1, malformed-lock 2 {2}complete$/,
    );
    expect(lines[2]).toMatch(/^ {2}orders +— +no locks: no lock items in a sample of 2 items$/);
    expect(lines[3]).toMatch(/^ {2}empty +— +no locks: the table is empty$/);
    expect(lines[4]).toMatch(/^ {2}doubtful +uniq \(detected, confidence 0\.5\) +NEEDS A CONVENTION — needs a convention$/);
    expect(lines[5]).toBe('      lock tag HANDLE: no attribute holds their values');
  });
});

describe('audit --all-tables: flags', () => {
  it.each([
    [['--table', 'users'], 'use either --table or --all-tables'],
    [['--export', './x'], '--all-tables audits the live tables'],
    [['--preset', 'nope'], 'unknown preset'],
    [['--convention', '/nonexistent-folder'], 'names a folder of <table>.json files'],
  ])('refuses %j before connecting', async (flags, message) => {
    const io = captureIo();
    expect(await main(['audit', '--all-tables', '--endpoint', 'http://127.0.0.1:9', ...flags], io)).toBe(2);
    expect(io.err()).toContain(message);
  });
});
