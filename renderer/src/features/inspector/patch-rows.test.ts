import { describe, expect, it } from 'vitest';
import type { AccountGroup, AuditCounts, StrayLockRow } from '../../../../shared/audit/types';
import type { LookupView } from '../../../../shared/contract';
import { applyAuditDelta, EMPTY_AUDIT_ROWS } from './audit-rows';
import { patchRowsWithLookup } from './patch-rows';

const counts: AuditCounts = {
  scanned: 3,
  accounts: 1,
  locks: 2,
  summary: { 'orphan-lock': 1, 'missing-lock': 1, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
};
const grace: AccountGroup = {
  kind: 'account',
  id: 'g',
  key: { PK: 'ACCT#g', SK: 'PROFILE' },
  locks: [
    { rule: 'EMAIL', value: 'grace@navy.mil', normalized: 'grace@navy.mil', status: 'missing' },
    { rule: 'HANDLE', value: 'grace', normalized: 'grace', status: 'ok', lock: { PK: 'UNIQ#HANDLE#grace', SK: 'LOCK' } },
  ],
  problems: ['missing-lock'],
};
const orphan: StrayLockRow = { kind: 'orphan-lock', id: 'o', key: { PK: 'UNIQ#HANDLE#ada', SK: 'LOCK' }, rule: 'HANDLE', value: 'ada' };
const rows = applyAuditDelta(EMPTY_AUDIT_ROWS, { upserted: [grace, orphan], removed: [], counts });

const lookup = (
  rule: string,
  normalized: string,
  verdict: LookupView['rules'][number]['verdict'],
  extra: Partial<LookupView['rules'][number]> = {},
): LookupView => ({
  value: normalized,
  method: 'scan',
  rules: [{ rule, normalized, verdict, holders: [], ...extra }],
});

describe('patchRowsWithLookup', () => {
  it('removes a released orphan and lowers the counts', () => {
    const next = patchRowsWithLookup(rows, lookup('HANDLE', 'ada', 'free'));
    expect(next.list.map((r) => r.id)).toEqual(['g']);
    expect(next.counts?.summary['orphan-lock']).toBe(0);
    expect(next.counts?.locks).toBe(1);
    expect(next.counts?.scanned).toBe(2);
  });

  it('marks a claimed lock ok, clears the problem, keeps the row position', () => {
    const next = patchRowsWithLookup(
      rows,
      lookup('EMAIL', 'grace@navy.mil', 'held', {
        lock: { PK: 'UNIQ#EMAIL#grace@navy.mil', SK: 'LOCK' },
        holders: [{ PK: 'ACCT#g', SK: 'PROFILE' }],
      }),
    );
    const row = next.list[0];
    expect(row?.kind === 'account' && row.problems).toEqual([]);
    expect(row?.kind === 'account' && row.locks[0]?.lock).toEqual({ PK: 'UNIQ#EMAIL#grace@navy.mil', SK: 'LOCK' });
    expect(next.counts?.summary['missing-lock']).toBe(0);
    expect(next.counts?.locks).toBe(3);
    expect(next.counts?.scanned).toBe(4);
    expect(next.list[1]).toBe(rows.list[1]);
  });

  it('leaves the same value in another scope alone (a scoped rule)', () => {
    const scoped: StrayLockRow = { ...orphan, id: 'os', scope: { orgId: 'acme' } };
    const both = applyAuditDelta(EMPTY_AUDIT_ROWS, {
      upserted: [scoped, { ...orphan, id: 'og', scope: { orgId: 'globex' } }],
      removed: [],
      counts,
    });
    const next = patchRowsWithLookup(both, lookup('HANDLE', 'ada', 'free', { scope: { orgId: 'acme' } }));
    expect(next.list.map((r) => r.id)).toEqual(['og']);
  });

  it('returns the same rows when nothing changed', () => {
    expect(patchRowsWithLookup(rows, lookup('HANDLE', 'ada', 'orphan'))).toBe(rows);
  });
});

describe('an incomplete re-check', () => {
  it('never overwrites a complete audit’s rows: a holder scan that did not finish may have missed holders', () => {
    const partial: LookupView = { ...lookup('HANDLE', 'ada', 'free'), complete: false, reason: 'cannot reach DynamoDB (ECONNREFUSED)' };
    expect(patchRowsWithLookup(rows, partial)).toBe(rows);
  });
});
