import { describe, expect, it } from 'vitest';
import type { Item } from '../model';
import { detectConvention } from './detect';
import { PRESET_KEYS } from './presets';
import { layoutFor, S } from './test-layouts';

const KOREAN = ['백과', '사전', '하늘', '바다', '구름', '나무', '별빛', '달님', '산들', '여름'];

/** seed 1: accounts with email (mixed case) and username; locks UNIQ#EMAIL# (lower-cased) and UNIQ#HANDLE#. */
function uniqSample(n: number, owner = false): Item[] {
  const l = layoutFor('uniq', owner ? { ownerAttribute: 'owner' } : {});
  const items: Item[] = [];
  for (let i = 0; i < n; i++) {
    const email = i % 3 === 0 ? `User${i}@Example.com` : `user${i}@example.com`;
    const extra: Item = owner ? { owner: S(l.accountHash(`a${i}`)) } : {};
    items.push(l.account(`a${i}`, { email, username: `hacker_${i}`, displayName: `Person ${i}` }));
    if (i % 2 === 0) items.push(l.lock('EMAIL', email.toLowerCase(), extra));
    if (i % 3 !== 1) items.push(l.lock('HANDLE', `hacker_${i}`, extra));
  }
  return items;
}

describe('detectConvention', () => {
  it('detects uniq, pairing HANDLE with username by value overlap and lowercase for emails', () => {
    const result = detectConvention(PRESET_KEYS.uniq, uniqSample(300));
    if (!result.ok) throw new Error(result.error.message);
    const { convention, evidence, confidence } = result.value;
    expect(convention.preset).toBe('uniq');
    expect(convention.account).toEqual({ kind: 'key-prefix', prefix: 'ACCT#', range: 'PROFILE' });
    expect(convention.rules.map((r) => [r.name, r.attribute, r.normalize.join('+')])).toEqual([
      ['EMAIL', 'email', 'lowercase'],
      ['HANDLE', 'username', ''],
    ]);
    expect(convention.ownerAttribute).toBeUndefined();
    expect(evidence.join('\n')).toMatch(/rule HANDLE ↔ attribute `username`: 200 values in common/);
    expect(evidence[0]).toMatch(/^350 of 650 sampled items have lock keys shaped `UNIQ#<RULE>#…`/);
    expect(confidence).toBe(1);
  });

  it('detects an owner attribute whose values are account hash keys', () => {
    const result = detectConvention(PRESET_KEYS.uniq, uniqSample(100, true));
    expect(result.ok && result.value.convention.ownerAttribute).toBe('owner');
  });

  it('detects the Korean marker layout (NAME#백과) on a hash-only table', () => {
    const l = layoutFor('marker');
    const items: Item[] = [];
    KOREAN.forEach((name, i) => {
      items.push(l.account(`550e8400-e29b-41d4-a716-44665544000${i}`, { name, date: '2025-01-01T00:00:00' }));
      items.push(l.raw(`NAME#${name}`));
    });
    const result = detectConvention(PRESET_KEYS.marker, items);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.preset).toBe('marker');
    expect(result.value.convention.account).toEqual({ kind: 'not-lock' });
    expect(result.value.convention.rules).toEqual([{ name: 'NAME', attribute: 'name', lockKeys: [{ hash: 'NAME#{value}' }], normalize: [] }]);
  });

  it('detects aws-blog tags written as attribute names', () => {
    const l = layoutFor('aws-blog');
    const items: Item[] = [];
    for (let i = 0; i < 20; i++) {
      items.push(l.account(`id-${i}`, { email: `u${i}@x.io`, userName: `user${i}`, plan: 'free' }));
      items.push(l.raw(`email#u${i}@x.io`), l.raw(`userName#user${i}`));
    }
    const result = detectConvention(PRESET_KEYS['aws-blog'], items);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.preset).toBe('aws-blog');
    expect(result.value.convention.rules.map((r) => `${r.name}:${r.attribute}`)).toEqual(['email:email', 'userName:userName']);
  });

  it('detects OneTable with current, scoped and legacy locks, ignoring other models', () => {
    const l = layoutFor('onetable');
    const items: Item[] = [];
    for (let i = 0; i < 30; i++) {
      items.push(l.account(`u${i}`, { email: `u${i}@x.io`, name: `n${i}` }));
      if (i % 3 === 0) items.push(l.raw(`_unique#User#email#u${i}@x.io`, '_unique#', { _type: S('_Unique') }));
      if (i % 3 === 1) items.push(l.raw(`_Unique:User:email:u${i}@x.io`, '_unique:', { _type: S('_Unique') }));
      if (i % 3 === 2) items.push(l.raw(`_unique#acme#User#email#u${i}@x.io`, '_unique#', { _type: S('_Unique') }));
    }
    items.push(l.raw('_unique#Org#name#acme', '_unique#', { _type: S('_Unique') }), l.raw('Org#acme', 'Org#', { _type: S('Org'), name: S('acme') }));
    const result = detectConvention(PRESET_KEYS.onetable, items);
    if (!result.ok) throw new Error(result.error.message);
    const c = result.value.convention;
    expect(c.preset).toBe('onetable');
    expect(c.account).toEqual({ kind: 'attribute-equals', attribute: '_type', value: 'User' });
    expect(c.rules.map((r) => `${r.name}:${r.attribute}`)).toEqual(['User.email:email']);
    expect(result.value.evidence.join('\n')).toMatch(/1 locks of other models ignored/);
  });

  it('uses a forced preset structure and still detects the rules', () => {
    const l = layoutFor('marker');
    const items = [l.account('u1', { nick: 'ada' }), l.raw('nick#ada'), l.account('u2', { nick: 'bob' }), l.raw('nick#bob')];
    const result = detectConvention(PRESET_KEYS.marker, items, { preset: 'marker' });
    expect(result.ok && result.value.convention.rules.map((r) => `${r.name}:${r.attribute}`)).toEqual(['nick:nick']);
  });

  it('keeps a lock tag no attribute matches as a malformed-lock prefix', () => {
    const l = layoutFor('marker');
    const items = [l.account('u1', { name: 'ada' }), l.raw('NAME#ada'), l.raw('PHONE#555')];
    const result = detectConvention(PRESET_KEYS.marker, items);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.lockPrefixes).toEqual(['PHONE#']);
    expect(result.value.evidence.join('\n')).toMatch(/lock tag PHONE: 1 sampled locks, no attribute holds their values/);
  });

  it.each([
    ['an empty sample', PRESET_KEYS.uniq, [], /table is empty/],
    ['a numeric hash key', { hash: { name: 'id', type: 'N' as const } }, [{ id: { N: '1' } }], /string \(S\) hash key/],
    ['no lock-shaped keys', PRESET_KEYS.uniq, [{ PK: S('ACCT#1'), SK: S('PROFILE'), email: S('a@b.c') }], /no lock convention fits 1 sampled items.*--preset/],
  ])('fails clearly on %s', (_label, keys, sample, message) => {
    const result = detectConvention(keys, sample);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(message);
  });
});
