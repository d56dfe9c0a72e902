import { describe, expect, it } from 'vitest';
import { MAX_TRANSACTION_ACTIONS, OPEN_TRANSACTIONS, packFixes, type PackableFix } from './batch';

/** A fix touching the given items (one action each). */
const fix = (...items: string[]): PackableFix => ({ items });
/** `n` independent two-action fixes (a lock and its own account each). */
const independent = (n: number): PackableFix[] => Array.from({ length: n }, (_, i) => fix(`lock${i}`, `acct${i}`));

describe('packFixes', () => {
  const cases: { name: string; fixes: PackableFix[]; limit?: number; expected: number[][] }[] = [
    { name: 'no fixes: no transactions', fixes: [], expected: [] },
    { name: 'independent fixes share one transaction', fixes: [fix('a', 'A'), fix('b', 'B'), fix('c')], expected: [[0, 1, 2]] },
    {
      name: 'two fixes on one account go apart (DynamoDB refuses one item twice)',
      fixes: [fix('email', 'A'), fix('handle', 'A')],
      expected: [[0], [1]],
    },
    {
      name: 'a later fix fills the first transaction it fits in',
      fixes: [fix('x', 'A'), fix('y', 'A'), fix('z', 'B')],
      expected: [[0, 2], [1]],
    },
    {
      name: 'the limit counts actions, not fixes',
      fixes: [fix('a', 'A'), fix('b', 'B'), fix('c', 'C')],
      limit: 5,
      expected: [[0, 1], [2]],
    },
    {
      name: 'a one-action fix fills the gap left by two-action fixes',
      fixes: [fix('a', 'A'), fix('b', 'B'), fix('c', 'C'), fix('d')],
      limit: 5,
      expected: [[0, 1, 3], [2]],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const packed = packFixes(c.fixes, c.limit);
      expect(packed.ok).toBe(true);
      if (packed.ok) expect(packed.value.map((t) => t.fixes)).toEqual(c.expected);
    });
  }

  it('splits 150 two-action fixes into transactions of at most 100 actions, every fix once, in order', () => {
    const packed = packFixes(independent(150));
    if (!packed.ok) throw new Error(packed.error.message);
    expect(packed.value.map((t) => t.actions)).toEqual([100, 100, 100]);
    expect(packed.value.flatMap((t) => t.fixes)).toEqual(Array.from({ length: 150 }, (_, i) => i));
    expect(Math.max(...packed.value.map((t) => t.actions))).toBeLessThanOrEqual(MAX_TRANSACTION_ACTIONS);
  });

  it('never puts one item twice in a transaction, and is deterministic', () => {
    // 60 claims on 20 accounts (3 rules each): each account's fixes must land in three transactions.
    const fixes = Array.from({ length: 60 }, (_, i) => fix(`lock${i}`, `acct${i % 20}`));
    const first = packFixes(fixes);
    const second = packFixes(fixes);
    if (!first.ok) throw new Error(first.error.message);
    expect(second).toEqual(first);
    for (const t of first.value) {
      const items = t.fixes.flatMap((i) => fixes[i]!.items);
      expect(new Set(items).size).toBe(items.length);
    }
    expect(first.value).toHaveLength(3);
  });

  it('offers room only in the last few open transactions', () => {
    // Every fix touches account A: each needs its own transaction; a free fix then joins a recent one, not the first.
    const fixes = [...Array.from({ length: OPEN_TRANSACTIONS + 2 }, (_, i) => fix(`l${i}`, 'A')), fix('free')];
    const packed = packFixes(fixes);
    if (!packed.ok) throw new Error(packed.error.message);
    expect(packed.value).toHaveLength(OPEN_TRANSACTIONS + 2);
    expect(packed.value[2]!.fixes).toEqual([2, OPEN_TRANSACTIONS + 2]);
  });

  it.each([
    ['a fix without actions', [fix()], 'has no actions'],
    ['a fix touching one item twice', [fix('a', 'a')], 'touches one item twice'],
    ['a fix larger than a transaction', [fix('a', 'b', 'c')], 'more than the 2 of one transaction'],
  ])('refuses %s', (_, fixes, message) => {
    const packed = packFixes(fixes, 2);
    expect(packed.ok).toBe(false);
    if (!packed.ok) expect(packed.error.message).toContain(message);
  });
});
