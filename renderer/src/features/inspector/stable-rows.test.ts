import { describe, expect, it } from 'vitest';
import type { GroupRow } from '../../../../shared/audit/types';
import type { ProblemKind } from '../../../../shared/model';
import { keepSameRows } from './stable-rows';

function account(n: number, problems: readonly ProblemKind[] = []): GroupRow {
  return { kind: 'account', id: `USER#${n}`, key: { PK: `USER#${n}` }, locks: [], problems };
}

describe('keepSameRows', () => {
  it('keeps the old object of a row sent again unchanged, so its memoized row does not re-render', () => {
    const previous = [account(1), account(2)];
    const next = keepSameRows(previous, [account(1), account(2)]);
    expect(next).toBe(previous);
  });

  it('takes the new object of a row whose content changed, and keeps the others', () => {
    const previous = [account(1), account(2)];
    const changed = account(2, ['missing-lock']);
    const next = keepSameRows(previous, [account(1), changed]);
    expect(next[0]).toBe(previous[0]);
    expect(next[1]).toBe(changed);
  });

  it('follows a row that moved to another place in the window', () => {
    const previous = [account(1), account(2), account(3)];
    const next = keepSameRows(previous, [account(0), account(1), account(2)]);
    expect(next[1]).toBe(previous[0]);
    expect(next[2]).toBe(previous[1]);
    expect(next).not.toBe(previous);
    expect(next.map((row) => row.id)).toEqual(['USER#0', 'USER#1', 'USER#2']);
  });
});
