import { describe, expect, it } from 'vitest';
import type { Item } from '../model';
import { classifyItem } from './classify';
import { formatLockKey } from './format';
import { parseLockKey } from './parse';
import { layoutFor, S } from './test-layouts';

const uniq = layoutFor('uniq').convention;
const onetable = layoutFor('onetable').convention;
const marker = layoutFor('marker').convention;
const awsBlog = layoutFor('aws-blog').convention;
const scopedOnetable = layoutFor('onetable', { rules: [{ attribute: 'email', scope: 'orgId' }] }).convention;

describe('parseLockKey', () => {
  it.each([
    // [label, convention, hash, range, expected kind, rule name or reason fragment, value]
    ['uniq email', uniq, 'UNIQ#EMAIL#ada@lovelace.io', 'LOCK', 'lock', 'EMAIL', 'ada@lovelace.io'],
    ['# inside the value', uniq, 'UNIQ#HANDLE#a#b#c', 'LOCK', 'lock', 'HANDLE', 'a#b#c'],
    ['surrounding spaces kept raw', uniq, 'UNIQ#HANDLE# ada ', 'LOCK', 'lock', 'HANDLE', ' ada '],
    ['unicode', marker, 'NAME#백과', undefined, 'lock', 'NAME', '백과'],
    ['aws-blog tag', awsBlog, 'userName#Ada', undefined, 'lock', 'userName', 'Ada'],
    ['onetable current', onetable, '_unique#User#email#a@b.c', '_unique#', 'lock', 'User.email', 'a@b.c'],
    [
      'onetable scoped, no scope declared',
      onetable,
      '_unique#acme#User#email#a@b.c',
      '_unique#',
      'malformed',
      'does not say which account attribute holds its {scope}',
      undefined,
    ],
    ['onetable scoped', scopedOnetable, '_unique#acme#User#email#a@b.c', '_unique#', 'lock', 'User.email', 'a@b.c'],
    ['onetable scoped, value with #', scopedOnetable, '_unique#acme#User#email#a#b', '_unique#', 'lock', 'User.email', 'a#b'],
    ['onetable scoped, empty scope', scopedOnetable, '_unique##User#email#a', '_unique#', 'not-lock', undefined, undefined],
    ['onetable legacy', onetable, '_Unique:User:email:a@b.c', '_unique:', 'lock', 'User.email', 'a@b.c'],
    ['onetable legacy, # sort key', onetable, '_Unique:User:email:a:b', '_unique#', 'lock', 'User.email', 'a:b'],
    ['empty value', uniq, 'UNIQ#EMAIL#', 'LOCK', 'malformed', 'empty EMAIL value', undefined],
    ['literal undefined', uniq, 'UNIQ#HANDLE#undefined', 'LOCK', 'malformed', 'literal `undefined`', undefined],
    ['literal null', marker, 'NAME#null', undefined, 'malformed', 'literal `null`', undefined],
    ['wrong sort key', uniq, 'UNIQ#EMAIL#a@b.c', 'PROFILE', 'malformed', 'wrong sort key: sort key `PROFILE`, expected `LOCK`', undefined],
    ['missing sort key', onetable, '_unique#User#email#a@b.c', undefined, 'malformed', 'wrong sort key: no sort key', undefined],
    ['prefix without rule', uniq, 'UNIQ#PHONE#555', 'LOCK', 'malformed', 'lock prefix `UNIQ#` but the key matches no rule', undefined],
    ['onetable unknown attr', onetable, '_unique#User#phone#555', '_unique#', 'malformed', 'matches no rule', undefined],
    ['other model ignored', onetable, '_unique#Org#name#acme', '_unique#', 'not-lock', undefined, undefined],
    ['account', uniq, 'ACCT#a1', 'PROFILE', 'not-lock', undefined, undefined],
  ] as const)('%s', (_label, convention, hash, range, kind, detail, value) => {
    const parsed = parseLockKey(convention, hash, range);
    expect(parsed.kind).toBe(kind);
    if (parsed.kind === 'lock') {
      expect(convention.rules[parsed.ruleIndex]?.name).toBe(detail);
      expect(parsed.value).toBe(value);
    }
    if (parsed.kind === 'malformed') expect(parsed.reason).toContain(detail);
  });

  it('round-trips every canonical template through formatLockKey', () => {
    for (const convention of [uniq, onetable, marker, awsBlog]) {
      for (const rule of convention.rules) {
        for (const value of ['ada', 'a#b', ' 백과 ', 'x:y']) {
          const key = formatLockKey(rule, value);
          const parsed = parseLockKey(convention, key.hash, key.range);
          expect(parsed).toMatchObject({ kind: 'lock', value });
        }
      }
    }
  });
});

describe('classifyItem', () => {
  const l = layoutFor('uniq');

  it.each<[string, Item, string]>([
    ['account', l.account('a1', { email: 'Ada@X.io', username: 'ada' }), 'account'],
    ['lock', l.lock('EMAIL', 'ada@x.io'), 'lock'],
    ['malformed', l.raw('UNIQ#EMAIL#', 'LOCK'), 'malformed'],
    ['account prefix with another sort key', l.raw('ACCT#a1', 'ORDER#1'), 'other'],
    ['unrelated item', l.raw('CONFIG', 'v1'), 'other'],
  ])('%s', (_label, item, kind) => {
    expect(classifyItem(uniq, item).kind).toBe(kind);
  });

  it('reads account values normalized per rule, skipping empty and non-scalar ones', () => {
    const c = classifyItem(uniq, { ...l.account('a1', { email: ' Ada@X.io ', username: '   ' }), tags: { SS: ['x'] } });
    expect(c).toEqual({
      kind: 'account',
      key: { PK: 'ACCT#a1', SK: 'PROFILE' },
      values: [{ rule: 'EMAIL', ruleIndex: 0, value: ' Ada@X.io ', normalized: 'ada@x.io' }],
    });
  });

  it('reads numeric account values as their decimal text', () => {
    const conv = layoutFor('aws-blog', { rules: [{ attribute: 'phone' }] }).convention;
    const c = classifyItem(conv, { pk: S('u1'), phone: { N: '5551234' } });
    expect(c).toMatchObject({ kind: 'account', values: [{ rule: 'phone', value: '5551234' }] });
  });

  it('reads the owner of a lock when the convention has an owner attribute', () => {
    const owned = layoutFor('uniq', { ownerAttribute: 'owner' });
    expect(classifyItem(owned.convention, owned.lock('EMAIL', 'a@x.io', { owner: S('ACCT#a1') }))).toMatchObject({
      kind: 'lock',
      owner: 'ACCT#a1',
      normalized: 'a@x.io',
    });
    expect(classifyItem(owned.convention, owned.lock('EMAIL', 'a@x.io'))).not.toHaveProperty('owner');
  });

  it('recognises OneTable accounts by _type and never treats a lock as an account', () => {
    const o = layoutFor('onetable');
    expect(classifyItem(onetable, o.account('u1', { email: 'a@x.io' })).kind).toBe('account');
    expect(classifyItem(onetable, o.raw('Org#1', 'Org#', { _type: S('Org') })).kind).toBe('other');
    expect(classifyItem(onetable, o.raw('_unique#User#email#a@x.io', '_unique#', { _type: S('User') })).kind).toBe('lock');
  });
});
