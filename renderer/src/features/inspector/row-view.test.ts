import { describe, expect, it } from 'vitest';
import type { AccountGroup, GroupRow, StrayLockRow } from '../../../../shared/audit/types';
import type { KeySchema } from '../../../../shared/model';
import { applyAuditDeltas, EMPTY_AUDIT_ROWS, type AuditRows } from './audit-rows';
import { filterRows, sortRows, type SortCriterion } from './row-view';

const keys: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
const account = (n: number, email: string, status: 'ok' | 'missing' | 'duplicate' = 'ok'): AccountGroup => ({
  kind: 'account',
  id: `ACCT#${String(n).padStart(5, '0')}`,
  key: { PK: `ACCT#${String(n).padStart(5, '0')}`, SK: 'PROFILE' },
  locks: [{ rule: 'EMAIL', value: email, normalized: email.toLowerCase(), status }],
  problems: status === 'missing' ? ['missing-lock'] : status === 'duplicate' ? ['duplicate-value'] : [],
});
const orphan = (value: string): StrayLockRow => ({
  kind: 'orphan-lock',
  id: `UNIQ#EMAIL#${value}`,
  key: { PK: `UNIQ#EMAIL#${value}`, SK: 'LOCK' },
  rule: 'EMAIL',
  value,
});

const PROBLEMS_FIRST: SortCriterion[] = [{ id: 'problems', desc: true }];
const counts = {
  scanned: 0,
  accounts: 0,
  locks: 0,
  summary: { 'orphan-lock': 0, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
};
const store = (rows: readonly GroupRow[]): AuditRows => applyAuditDeltas(EMPTY_AUDIT_ROWS, [{ upserted: rows, removed: [], counts }]);
const ids = (rows: readonly GroupRow[]): string[] => rows.map((r) => r.id);

describe('sortRows', () => {
  it('puts problem rows first, grouped by kind in report order, ties in arrival order', () => {
    const rows = [account(3, 'c@x.io'), account(1, 'a@x.io', 'missing'), orphan('z@x.io'), account(2, 'b@x.io')];
    expect(ids(sortRows(undefined, store(rows), PROBLEMS_FIRST, keys).rows)).toEqual([
      'UNIQ#EMAIL#z@x.io',
      'ACCT#00001',
      'ACCT#00003',
      'ACCT#00002',
    ]);
  });

  it('groups by kind whatever order the rows arrived in (a re-run streams them in another order)', () => {
    const rows = [
      account(1, 'a@x.io', 'missing'),
      orphan('y@x.io'),
      account(2, 'b@x.io', 'duplicate'),
      account(3, 'c@x.io', 'missing'),
      orphan('z@x.io'),
      account(4, 'd@x.io'),
    ];
    const kindsInOrder = (arrival: readonly GroupRow[]): string[] =>
      sortRows(undefined, store(arrival), PROBLEMS_FIRST, keys).rows.map((r) =>
        r.kind === 'account' ? (r.problems[0] ?? 'none') : r.kind,
      );
    const expected = ['orphan-lock', 'orphan-lock', 'missing-lock', 'missing-lock', 'duplicate-value', 'none'];
    expect(kindsInOrder(rows)).toEqual(expected);
    expect(kindsInOrder([...rows].reverse())).toEqual(expected);
  });

  it('sorts text case-insensitively, ascending or descending', () => {
    const rows = store([account(1, 'bob@x.io'), account(2, 'Ada@x.io'), account(3, 'carl@x.io')]);
    expect(ids(sortRows(undefined, rows, [{ id: 'rule:EMAIL', desc: false }], keys).rows)).toEqual([
      'ACCT#00002',
      'ACCT#00001',
      'ACCT#00003',
    ]);
    expect(ids(sortRows(undefined, rows, [{ id: 'rule:EMAIL', desc: true }], keys).rows)).toEqual([
      'ACCT#00003',
      'ACCT#00001',
      'ACCT#00002',
    ]);
  });

  it.each([
    [PROBLEMS_FIRST],
    [[{ id: 'rule:EMAIL', desc: true }]],
    [
      [
        { id: 'problems', desc: false },
        { id: 'item', desc: true },
      ],
    ],
  ])('gives the same order incrementally as a full sort, over streamed batches with changes and removals (%j)', (sorting) => {
    // A deterministic stream: rows arrive, some change (a new object for the same id), some go away.
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const present = new Set<string>();
    let rows = EMPTY_AUDIT_ROWS;
    let sorted = sortRows(undefined, rows, sorting, keys);
    let incremental = 0;
    for (let batch = 0; batch < 40; batch++) {
      const upserted: GroupRow[] = [];
      const removed: string[] = [];
      for (let i = 0; i < 50; i++) {
        const n = Math.floor(random() * 600);
        const roll = random();
        const id = `ACCT#${String(n).padStart(5, '0')}`;
        if (roll < 0.1 && present.has(id)) {
          removed.push(id);
          present.delete(id);
        } else if (roll < 0.15) upserted.push(orphan(`u${n}`));
        else {
          upserted.push(account(n, `u${Math.floor(random() * 50)}@x.io`, roll < 0.3 ? 'missing' : 'ok'));
          present.add(id);
        }
      }
      const next = applyAuditDeltas(rows, [{ upserted, removed, counts }]);
      if (next.change?.from === rows) incremental++;
      rows = next;
      sorted = sortRows(sorted, rows, sorting, keys);
      expect(ids(sorted.rows)).toEqual(ids(sortRows(undefined, rows, sorting, keys).rows));
    }
    expect(incremental).toBe(40);
    expect(sorted.rows.length).toBe(rows.list.length);
    expect(sorted.rows.length).toBeGreaterThan(300);
  });

  it('re-sorts fully when the sort changes, and returns the previous order when the rows did not change', () => {
    const rows = store([account(2, 'b@x.io'), account(1, 'a@x.io', 'missing')]);
    const first = sortRows(undefined, rows, PROBLEMS_FIRST, keys);
    expect(sortRows(first, rows, PROBLEMS_FIRST, keys)).toBe(first);
    expect(ids(sortRows(first, rows, [{ id: 'item', desc: false }], keys).rows)).toEqual(['ACCT#00001', 'ACCT#00002']);
  });

  it('sorts by several criteria in order', () => {
    const rows = store([account(1, 'b@x.io', 'missing'), account(2, 'a@x.io'), account(3, 'a@x.io', 'missing')]);
    const order = sortRows(
      undefined,
      rows,
      [
        { id: 'problems', desc: true },
        { id: 'rule:EMAIL', desc: false },
      ],
      keys,
    );
    expect(ids(order.rows)).toEqual(['ACCT#00003', 'ACCT#00001', 'ACCT#00002']);
  });
});

describe('filterRows', () => {
  const rows = [
    account(1, 'ada@x.io', 'duplicate'),
    account(2, 'bob@x.io'),
    orphan('grace@x.io'),
    account(3, 'ADA@x.io', 'duplicate'),
    account(4, 'bob2@x.io', 'missing'),
  ];

  it('returns the same array when nothing is filtered', () => {
    expect(filterRows(rows, { filter: 'all', search: '  ' })).toBe(rows);
  });

  it('keeps problem rows, one kind, or rows containing the search text (case-insensitive)', () => {
    expect(ids(filterRows(rows, { filter: 'problems', search: '' }))).toEqual([
      'ACCT#00001',
      'UNIQ#EMAIL#grace@x.io',
      'ACCT#00003',
      'ACCT#00004',
    ]);
    expect(ids(filterRows(rows, { filter: 'orphan-lock', search: '' }))).toEqual(['UNIQ#EMAIL#grace@x.io']);
    expect(ids(filterRows(rows, { filter: 'all', search: 'BOB' }))).toEqual(['ACCT#00002', 'ACCT#00004']);
    expect(ids(filterRows(rows, { filter: 'missing-lock', search: 'bob' }))).toEqual(['ACCT#00004']);
  });

  it('groups duplicates of one value next to each other', () => {
    const interleaved = [
      account(1, 'ada@x.io', 'duplicate'),
      { ...account(2, 'eve@x.io', 'duplicate') },
      account(3, 'ADA@x.io', 'duplicate'),
    ];
    expect(ids(filterRows(interleaved, { filter: 'duplicate-value', search: '' }))).toEqual(['ACCT#00001', 'ACCT#00003', 'ACCT#00002']);
  });
});
