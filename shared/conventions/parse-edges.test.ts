import { describe, expect, it } from 'vitest';
import type { Convention, LockRule } from '../model';
import { classifyItem } from './classify';
import { parseLockKey } from './parse';
import { layoutFor, S } from './test-layouts';

const rule = (name: string, hash: string, normalize: LockRule['normalize'] = []): LockRule => ({
  name,
  attribute: name.toLowerCase(),
  lockKeys: [{ hash }],
  normalize,
});
const hashOnly = (rules: LockRule[], lockPrefixes: string[] = []): Convention => ({
  preset: 'custom',
  keys: { hash: { name: 'pk', type: 'S' } },
  account: { kind: 'not-lock' },
  rules,
  lockPrefixes,
});

describe('parseLockKey edge cases', () => {
  it.each([
    // Rule order must not matter: the template with a literal suffix is the more specific one.
    [
      'suffix template listed second',
      hashOnly([rule('PLAIN', 'U#{value}'), rule('SUFFIXED', 'U#{value}#LOCK')]),
      'U#ada#LOCK',
      'SUFFIXED',
      'ada',
    ],
    [
      'suffix template listed first',
      hashOnly([rule('SUFFIXED', 'U#{value}#LOCK'), rule('PLAIN', 'U#{value}')]),
      'U#ada#LOCK',
      'SUFFIXED',
      'ada',
    ],
    [
      'without the suffix, the plain one',
      hashOnly([rule('SUFFIXED', 'U#{value}#LOCK'), rule('PLAIN', 'U#{value}')]),
      'U#ada',
      'PLAIN',
      'ada',
    ],
    ['# in a suffixed value', hashOnly([rule('SUFFIXED', 'U#{value}#LOCK')]), 'U#a#b#LOCK', 'SUFFIXED', 'a#b'],
  ] as const)('%s', (_label, convention, hash, name, value) => {
    const parsed = parseLockKey(convention, hash, undefined);
    expect(parsed).toMatchObject({ kind: 'lock', value });
    if (parsed.kind === 'lock') expect(parsed.rule.name).toBe(name);
  });

  it.each([
    [
      'only spaces under trim',
      hashOnly([rule('HANDLE', 'H#{value}', ['trim', 'lowercase'])]),
      'H#   ',
      /HANDLE value is empty after normalization/,
    ],
    ['a suffix template with an empty value', hashOnly([rule('X', 'U#{value}#LOCK')], ['U#']), 'U##LOCK', /empty X value/],
    ['prefix and suffix overlapping', hashOnly([rule('X', 'U#{value}#LOCK')], ['U#']), 'U#LOCK', /matches no rule/],
  ])('malformed: %s', (_label, convention, hash, reason) => {
    const parsed = parseLockKey(convention, hash, undefined);
    expect(parsed.kind).toBe('malformed');
    if (parsed.kind === 'malformed') expect(parsed.reason).toMatch(reason);
  });

  it('classifies a whitespace-only lock of a trimming rule as malformed, not as an orphan of the empty value', () => {
    const uniq = layoutFor('uniq').convention;
    expect(classifyItem(uniq, { PK: S('UNIQ#HANDLE#  '), SK: S('LOCK') })).toMatchObject({ kind: 'malformed', rule: 'HANDLE' });
  });

  it('reads N and B hash keys as accounts or other, never as locks', () => {
    const conv: Convention = { ...hashOnly([rule('X', 'X#{value}')]), keys: { hash: { name: 'pk', type: 'N' } } };
    expect(classifyItem(conv, { pk: { N: '12' }, x: S('a') })).toEqual({
      kind: 'account',
      key: { pk: 12 },
      values: [{ rule: 'X', ruleIndex: 0, value: 'a', normalized: 'a' }],
    });
    const bin: Convention = { ...conv, keys: { hash: { name: 'pk', type: 'B' } } };
    expect(classifyItem(bin, { pk: { B: new Uint8Array([1, 2, 3]) } })).toEqual({ kind: 'account', key: { pk: 'AQID' }, values: [] });
  });
});
