import { describe, expect, it } from 'vitest';
import {
  addCanonicalLock,
  addLockTo,
  canonicalLock,
  hasCanonicalLock,
  lockCount,
  locksOf,
  singleLock,
  storeLocks,
  type CanonicalForm,
  type Entry,
  type LockState,
} from './state';

const FORM: CanonicalForm = { kind: 'canonical', prefix: 'UNIQ#EMAIL#', suffix: '', range: 'LOCK' };
const entry = (value = 'ada@x.io'): Entry => ({ ruleIndex: 1, value, scope: undefined, holders: undefined, locks: undefined });
const stored = (e: Entry, hash: string): LockState => ({
  kind: 'lock',
  hash,
  range: 'LOCK',
  id: undefined,
  ruleIndex: 1,
  raw: 'x',
  owner: undefined,
  entry: e,
  stray: false,
});

describe('canonical locks in the join state', () => {
  it('rebuilds the lock the item was, field for field', () => {
    const e = entry();
    expect(canonicalLock(e, { ...FORM, suffix: '#X' })).toEqual({
      kind: 'lock',
      hash: 'UNIQ#EMAIL#ada@x.io#X',
      range: 'LOCK',
      id: undefined,
      ruleIndex: 1,
      raw: 'ada@x.io',
      owner: undefined,
      entry: e,
      stray: false,
    });
    expect(canonicalLock(e, { ...FORM, range: undefined }).range).toBeUndefined();
  });

  it('reads as one lock, rebuilt on every read until stored', () => {
    const e = entry();
    addCanonicalLock(e, FORM);
    expect(hasCanonicalLock(e)).toBe(true);
    expect(lockCount(e)).toBe(1);
    expect(locksOf(e)[0]).not.toBe(locksOf(e)[0]);
    expect(singleLock(e)?.hash).toBe('UNIQ#EMAIL#ada@x.io');
    const [kept] = storeLocks(e);
    expect(hasCanonicalLock(e)).toBe(false);
    expect(locksOf(e)[0]).toBe(kept);
    expect(storeLocks(e)[0]).toBe(kept);
  });

  it('stores the canonical lock first when a second lock joins (arrival order)', () => {
    const e = entry();
    addCanonicalLock(e, FORM);
    const legacy = stored(e, 'OLD#ada@x.io');
    addLockTo(e, legacy);
    expect(locksOf(e).map((l) => l.hash)).toEqual(['UNIQ#EMAIL#ada@x.io', 'OLD#ada@x.io']);
    expect(singleLock(e)).toBeUndefined();
  });

  it('is only ever the first lock of an entry', () => {
    const e = entry();
    addLockTo(e, stored(e, 'OLD#ada@x.io'));
    expect(() => addCanonicalLock(e, FORM)).toThrow(/first lock/);
  });
});
