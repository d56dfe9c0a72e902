import { describe, expect, it } from 'vitest';
import type { AccountGroup, StrayLockRow } from '../../../../shared/audit/types';
import { duplicateGroupKey, rowMatches } from './row-filter';

const healthy: AccountGroup = {
  kind: 'account',
  id: 'h',
  key: { PK: 'ACCT#a1', SK: 'PROFILE' },
  locks: [
    {
      rule: 'EMAIL',
      value: 'Ada@Lovelace.io',
      normalized: 'ada@lovelace.io',
      status: 'ok',
      lock: { PK: 'UNIQ#EMAIL#ada@lovelace.io', SK: 'LOCK' },
    },
  ],
  problems: [],
};
const dup: AccountGroup = {
  kind: 'account',
  id: 'd',
  key: { PK: 'ACCT#b2', SK: 'PROFILE' },
  locks: [{ rule: 'EMAIL', value: 'x@y.io', normalized: 'x@y.io', status: 'duplicate' }],
  problems: ['duplicate-value'],
};
const orphan: StrayLockRow = { kind: 'orphan-lock', id: 'o', key: { userId: 'NAME#백과' }, rule: 'NAME', value: '백과' };

describe('rowMatches', () => {
  it('keeps everything with filter all and no search', () => {
    expect([healthy, dup, orphan].filter((r) => rowMatches(r, { filter: 'all', search: '' }))).toHaveLength(3);
  });

  it('problems only drops healthy accounts', () => {
    expect([healthy, dup, orphan].filter((r) => rowMatches(r, { filter: 'problems', search: '' })).map((r) => r.id)).toEqual(['d', 'o']);
  });

  it('a kind filter keeps only rows with that kind', () => {
    expect([healthy, dup, orphan].filter((r) => rowMatches(r, { filter: 'orphan-lock', search: '' })).map((r) => r.id)).toEqual(['o']);
  });

  it('searches values case-insensitively, lock keys and non-ASCII values', () => {
    expect(rowMatches(healthy, { filter: 'all', search: 'ADA@' })).toBe(true);
    expect(rowMatches(healthy, { filter: 'all', search: 'UNIQ#EMAIL' })).toBe(true);
    expect(rowMatches(orphan, { filter: 'all', search: '백과' })).toBe(true);
    expect(rowMatches(orphan, { filter: 'all', search: 'nobody' })).toBe(false);
  });
});

describe('duplicateGroupKey', () => {
  it('names the rule and normalized value of a duplicate', () => {
    expect(duplicateGroupKey(dup)).toBe('EMAIL=x@y.io');
    expect(duplicateGroupKey(healthy)).toBeUndefined();
  });
});
