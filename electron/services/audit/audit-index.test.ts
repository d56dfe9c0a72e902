import { describe, expect, it } from 'vitest';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../../shared/conventions/presets';
import type { Convention } from '../../../shared/model';
import { AuditIndexes, canonicalJson, MAX_AUDIT_INDEXES, type AuditIndex } from './audit-index';

const convention = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);
const index = (table: string, startedAt: number, conv: Convention = convention): AuditIndex => ({
  table,
  convention: conv,
  startedAt,
  finishedAt: startedAt + 10,
  holders: () => [],
});

describe('AuditIndexes', () => {
  it('finds an audit of the same table under the same convention, whatever the key order of the convention object', () => {
    const indexes = new AuditIndexes();
    const kept = index('users', 100);
    indexes.remember('c1', kept);
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(convention).reverse()))) as Convention;
    expect(indexes.find('c1', 'users', reordered)).toBe(kept);
    expect(indexes.find('c2', 'users', convention)).toBeUndefined();
    expect(indexes.find('c1', 'other', convention)).toBeUndefined();
    expect(indexes.find('c1', 'users', { ...convention, ownerAttribute: 'owner' })).toBeUndefined();
  });

  it('stops using an audit once Locksmith writes through the connection, and refuses one that started before that write', () => {
    const indexes = new AuditIndexes();
    indexes.remember('c1', index('users', 100));
    indexes.remember('c2', index('users', 100));
    indexes.noteWrite('c1', 150);
    expect(indexes.find('c1', 'users', convention)).toBeUndefined();
    expect(indexes.find('c2', 'users', convention)).toBeDefined();
    indexes.remember('c1', index('users', 140));
    expect(indexes.find('c1', 'users', convention)).toBeUndefined();
    indexes.remember('c1', index('users', 160));
    expect(indexes.find('c1', 'users', convention)?.startedAt).toBe(160);
  });

  it(`keeps the latest audit per table and at most ${MAX_AUDIT_INDEXES} in all`, () => {
    const indexes = new AuditIndexes();
    indexes.remember('c1', index('a', 1));
    indexes.remember('c1', index('a', 2));
    indexes.remember('c1', index('b', 3));
    expect(indexes.find('c1', 'a', convention)?.startedAt).toBe(2);
    indexes.remember('c1', index('c', 4));
    expect(['a', 'b', 'c'].map((t) => indexes.find('c1', t, convention)?.startedAt)).toEqual([undefined, 3, 4]);
  });

  it('canonicalJson sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });
});
