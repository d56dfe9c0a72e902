import { describe, expect, it } from 'vitest';
import type { AccountGroup, AuditCounts, StrayLockRow } from '../../../../shared/audit/types';
import { applyAuditDelta, applyAuditDeltas, EMPTY_AUDIT_ROWS } from './audit-rows';

const counts = (scanned: number): AuditCounts => ({
  scanned,
  accounts: 1,
  locks: 1,
  summary: { 'orphan-lock': 0, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
});
const account = (id: string, status: 'ok' | 'missing' = 'ok'): AccountGroup => ({
  kind: 'account',
  id,
  key: { PK: id, SK: 'PROFILE' },
  locks: [{ rule: 'EMAIL', value: `${id}@x.io`, normalized: `${id}@x.io`, status }],
  problems: status === 'missing' ? ['missing-lock'] : [],
});
const orphan: StrayLockRow = { kind: 'orphan-lock', id: 'o1', key: { PK: 'UNIQ#HANDLE#ada', SK: 'LOCK' }, rule: 'HANDLE', value: 'ada' };

describe('applyAuditDelta', () => {
  it('adds rows in arrival order and records counts', () => {
    const state = applyAuditDelta(EMPTY_AUDIT_ROWS, { upserted: [account('a'), orphan], removed: [], counts: counts(2) });
    expect(state.list.map((r) => r.id)).toEqual(['a', 'o1']);
    expect(state.counts?.scanned).toBe(2);
  });

  it('keeps the array identity when a delta changes no row', () => {
    const first = applyAuditDelta(EMPTY_AUDIT_ROWS, { upserted: [account('a')], removed: [], counts: counts(1) });
    const second = applyAuditDelta(first, { upserted: [account('a')], removed: ['missing'], counts: counts(5) });
    expect(second.list).toBe(first.list);
    expect(second.counts?.scanned).toBe(5);
  });

  it('replaces a changed row in place and keeps unchanged rows identical', () => {
    const first = applyAuditDelta(EMPTY_AUDIT_ROWS, { upserted: [account('a'), account('b')], removed: [], counts: counts(2) });
    const second = applyAuditDelta(first, { upserted: [account('b', 'missing')], removed: [], counts: counts(2) });
    expect(second.list).not.toBe(first.list);
    expect(second.list[0]).toBe(first.list[0]);
    expect(second.list.map((r) => r.id)).toEqual(['a', 'b']);
    const b = second.byId.get('b');
    expect(b?.kind === 'account' ? b.problems : undefined).toEqual(['missing-lock']);
  });

  it('removes rows by id', () => {
    const first = applyAuditDelta(EMPTY_AUDIT_ROWS, { upserted: [account('a'), orphan], removed: [], counts: counts(2) });
    const second = applyAuditDelta(first, { upserted: [], removed: ['o1'], counts: counts(2) });
    expect(second.list.map((r) => r.id)).toEqual(['a']);
  });
});

describe('applyAuditDeltas', () => {
  it('gives the same rows as applying the deltas one by one, with the last counts', () => {
    const deltas = [
      { upserted: [account('a'), orphan], removed: [], counts: counts(2) },
      { upserted: [account('b'), account('a', 'missing')], removed: [], counts: counts(3) },
      { upserted: [], removed: ['o1'], counts: counts(4) },
    ];
    const batched = applyAuditDeltas(EMPTY_AUDIT_ROWS, deltas);
    const sequential = deltas.reduce(applyAuditDelta, EMPTY_AUDIT_ROWS);
    expect(batched.list).toEqual(sequential.list);
    // A changed row moves to the end of the arrival order.
    expect(batched.list.map((r) => r.id)).toEqual(['b', 'a']);
    expect(batched.counts?.scanned).toBe(4);
  });

  it('records what the batch changed, by row object, relative to the store it started from', () => {
    const first = applyAuditDeltas(EMPTY_AUDIT_ROWS, [{ upserted: [account('a'), account('b'), orphan], removed: [], counts: counts(3) }]);
    const oldA = first.byId.get('a');
    const newA = account('a', 'missing');
    const transient = account('c');
    const next = applyAuditDeltas(first, [
      { upserted: [newA, transient], removed: ['o1'], counts: counts(4) },
      { upserted: [account('c', 'missing')], removed: [], counts: counts(5) },
    ]);
    expect(next.change?.from).toBe(first);
    // c was added and replaced within the batch: only its last version counts as added.
    expect(next.change?.added.map((r) => [r.id, r.kind === 'account' ? r.problems : r.kind])).toEqual([
      ['a', ['missing-lock']],
      ['c', ['missing-lock']],
    ]);
    expect(next.change?.removed).toEqual([oldA, orphan]);
  });

  it('in place: updates the map of the store it is given, never the shared empty store, with the same result', () => {
    const deltas = [{ upserted: [account('a'), orphan], removed: [], counts: counts(2) }];
    const first = applyAuditDeltas(EMPTY_AUDIT_ROWS, deltas, { inPlace: true });
    expect(EMPTY_AUDIT_ROWS.byId.size).toBe(0);
    const next = applyAuditDeltas(first, [{ upserted: [account('b')], removed: ['o1'], counts: counts(3) }], { inPlace: true });
    expect(next.byId).toBe(first.byId);
    expect(next.list.map((r) => r.id)).toEqual(['a', 'b']);
    expect(next.change?.removed).toEqual([orphan]);
    const copied = applyAuditDeltas(applyAuditDeltas(EMPTY_AUDIT_ROWS, deltas), [
      { upserted: [account('b')], removed: ['o1'], counts: counts(3) },
    ]);
    expect(copied.list).toEqual(next.list);
  });

  it('in place after a counts-only first delta: the shared empty store stays empty, so the next run starts clean', () => {
    // Run 1 starts with a delta that carries counts but no row (its store shares the empty map).
    const countsOnly = applyAuditDeltas(EMPTY_AUDIT_ROWS, [{ upserted: [], removed: [], counts: counts(0) }], { inPlace: true });
    applyAuditDeltas(countsOnly, [{ upserted: [account('a'), orphan], removed: [], counts: counts(2) }], { inPlace: true });
    expect(EMPTY_AUDIT_ROWS.byId.size).toBe(0);
    // Run 2 of the same table: the same rows arrive again and every one of them is listed.
    const rerun = applyAuditDeltas(EMPTY_AUDIT_ROWS, [{ upserted: [account('a'), orphan], removed: [], counts: counts(2) }], {
      inPlace: true,
    });
    expect(rerun.list.map((r) => r.id)).toEqual(['a', 'o1']);
  });

  it('returns the state itself for an empty batch', () => {
    expect(applyAuditDeltas(EMPTY_AUDIT_ROWS, [])).toBe(EMPTY_AUDIT_ROWS);
  });
});
