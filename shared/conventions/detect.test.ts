import { describe, expect, it } from 'vitest';
import type { Item } from '../model';
import { detectConvention } from './detect';
import { conventionToFile, parseConventionFile } from './file';
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
  it('detects uniq, pairing HANDLE with username by value overlap and lowercase for emails from evidence', () => {
    const result = detectConvention(PRESET_KEYS.uniq, uniqSample(300));
    if (!result.ok) throw new Error(result.error.message);
    const { convention, evidence, confidence } = result.value;
    expect(convention.preset).toBe('uniq');
    expect(convention.account).toEqual({ kind: 'key-prefix', prefix: 'ACCT#', range: 'PROFILE' });
    expect(convention.rules.map((r) => [r.name, r.attribute, r.normalize.join('+')])).toEqual([
      // lowercase from evidence (lower-case locks, mixed-case emails); trim and the handle's steps are uniq's documented defaults.
      ['EMAIL', 'email', 'trim+lowercase'],
      ['HANDLE', 'username', 'trim+lowercase'],
    ]);
    expect(convention.ownerAttribute).toBeUndefined();
    expect(evidence.join('\n')).toMatch(/rule HANDLE ↔ attribute `username` \(normalized: trim, lowercase\): 200 values in common/);
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
    expect(result.value.convention.rules).toEqual([
      { name: 'NAME', attribute: 'name', lockKeys: [{ hash: 'NAME#{value}' }], normalize: ['nfc'] },
    ]);
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
    items.push(
      l.raw('_unique#Org#name#acme', '_unique#', { _type: S('_Unique') }),
      l.raw('Org#acme', 'Org#', { _type: S('Org'), name: S('acme') }),
    );
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
    [
      'a numeric sort key',
      { hash: { name: 'PK', type: 'S' as const }, range: { name: 'SK', type: 'N' as const } },
      [{ PK: S('UNIQ#EMAIL#a'), SK: { N: '1' } }],
      /sort key SK is of type N: lock items need string \(S\) keys/,
    ],
    [
      'no lock-shaped keys',
      PRESET_KEYS.uniq,
      [{ PK: S('ACCT#1'), SK: S('PROFILE'), email: S('a@b.c') }],
      /no lock convention fits 1 sampled items.*--preset/,
    ],
  ])('fails clearly on %s', (_label, keys, sample, message) => {
    const result = detectConvention(keys, sample);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(message);
  });
});

describe('detectConvention and what the library does to values', () => {
  const withRange = { hash: { name: 'pk', type: 'S' as const }, range: { name: 'sk', type: 'S' as const } };
  /** OneTable users as `User.create` writes them (the lock holds the email as given), plus one user without a lock. */
  function onetableSample(locked: readonly string[], unlocked: readonly string[]): Item[] {
    const user = (e: string, i: number): Item => ({ pk: S(`User#${i}`), sk: S('User#'), _type: S('User'), email: S(e) });
    return [
      ...locked.flatMap((e, i) => [user(e, i), { pk: S(`_unique#User#email#${e}`), sk: S('_unique#'), _type: S('_Unique') }]),
      ...unlocked.map((e, i) => user(e, 100 + i)),
    ];
  }

  it('OneTable: lower-case locks and a mixed-case user without a lock → no normalization, full confidence', () => {
    const result = detectConvention(withRange, onetableSample(['ada@x.com', 'cy@x.com', 'dee@x.com'], ['Bob@X.com']));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.preset).toBe('onetable');
    expect(result.value.convention.rules.map((r) => [r.name, r.normalize])).toEqual([['User.email', []]]);
    expect(result.value.confidence).toBe(1);
    expect(result.value.evidence.join('\n')).toMatch(
      /rule User\.email ↔ attribute `email`: 3 values in common \(3 sampled locks\) — no normalization: dynamodb-onetable writes the value as given/,
    );
  });

  it('OneTable: a sample missing the lock of `Ada@X.com` (legal beside `ada@x.com`) keeps no normalization, in doubt', () => {
    const result = detectConvention(withRange, onetableSample(['ada@x.com', 'cy@x.com', 'dee@x.com'], ['Ada@X.com']));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.rules.map((r) => r.normalize)).toEqual([[]]);
    expect(result.value.confidence).toBe(0.5);
    expect(result.value.evidence.join('\n')).toMatch(/the sample disagrees on lowercase/);
  });

  it('aws-blog (the AWS reference code): `email#` locks as given, a mixed-case account without one → no normalization', () => {
    const items: Item[] = [];
    for (const [id, email, name] of [
      ['u-1', 'ada@lovelace.io', 'ada'],
      ['u-2', 'grace@navy.mil', 'grace'],
    ] as const)
      items.push({ pk: S(id), email: S(email), userName: S(name) }, { pk: S(`email#${email}`) }, { pk: S(`userName#${name}`) });
    items.push({ pk: S('u-5'), email: S('Edsger@Dijkstra.nl'), userName: S('edsger') });
    const result = detectConvention({ hash: { name: 'pk', type: 'S' } }, items);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.preset).toBe('aws-blog');
    expect(result.value.convention.rules.map((r) => [r.name, r.normalize])).toEqual([
      ['email', []],
      ['userName', []],
    ]);
    expect(result.value.confidence).toBe(1);
  });

  it('uniq: lowercase resting only on an account value without a lock is kept, with lower confidence and said so', () => {
    const l = layoutFor('uniq', { rules: [{ attribute: 'phone', tag: 'PHONE' }] });
    const items: Item[] = [
      l.account('a1', { phone: 'ext-abc' }),
      l.account('a2', { phone: 'ext-DEF' }),
      l.raw('UNIQ#PHONE#ext-abc', 'LOCK'),
    ];
    const result = detectConvention(PRESET_KEYS.uniq, items);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.rules.map((r) => r.normalize)).toEqual([['lowercase']]);
    expect(result.value.confidence).toBe(0.5);
    expect(result.value.evidence.join('\n')).toMatch(
      /lowercase: unproven \(confidence lowered\) — every sampled lock is lower-case and 1 account values are not/,
    );
  });
});

describe('detectConvention of ElectroDB entities with capital letters', () => {
  const withRange = { hash: { name: 'pk', type: 'S' as const }, range: { name: 'sk', type: 'S' as const } };
  /** What electrodb 3.9 writes for entity `userProfile` and the documented constraint entity (keys lower-cased, attributes as given). */
  function sample(withEntityAttribute: boolean): Item[] {
    return ['James.Bond@MI6.gov', 'm@mi6.gov', 'q@mi6.gov'].flatMap((e, i): Item[] => [
      {
        pk: S('$mi6#designation_00'),
        sk: S(`$userprofile_1#id_${i}`),
        id: S(String(i)),
        email: S(e),
        __edb_e__: S('userProfile'),
        __edb_v__: S('1'),
      },
      {
        pk: S(`$mi6#value_${e.toLowerCase()}`),
        sk: S('$constraint_1#name_emailaddress#entity_userprofile'),
        value: S(e),
        ...(withEntityAttribute ? { name: S('emailAddress'), entity: S('userProfile') } : {}),
        gsi1pk: S('$mi6#name_emailaddress#entity_userprofile'),
        gsi1sk: S(`$constraint_1#value_${e.toLowerCase()}`),
        __edb_e__: S('constraint'),
        __edb_v__: S('1'),
      },
    ]);
  }

  it.each([
    ['auto-detected, entity and name from the lock item', {}, true, 'emailAddress'],
    ['with --preset electrodb', { preset: 'electrodb' as const }, true, 'emailAddress'],
    ["without `entity` on the lock: the accounts' __edb_e__ spelled the same lower-cased", {}, false, 'emailaddress'],
  ])('%s', (_label, options, withEntityAttribute, name) => {
    const result = detectConvention(withRange, sample(withEntityAttribute), options);
    if (!result.ok) throw new Error(result.error.message);
    const c = result.value.convention;
    expect(c.preset).toBe('electrodb');
    expect(c.account).toEqual({ kind: 'attribute-equals', attribute: '__edb_e__', value: 'userProfile' });
    expect(c.rules.map((r) => [r.name, r.attribute, r.normalize, r.lockKeys, r.lockItem?.entity, r.lockItem?.name])).toEqual([
      [
        `userProfile.${name}`,
        'email',
        ['lowercase'],
        [{ hash: '$mi6#value_{value}', range: `$constraint_1#name_${name.toLowerCase()}#entity_userprofile` }],
        'userProfile',
        name,
      ],
    ]);
    expect(result.value.confidence).toBe(1);
  });
});

describe('detectConvention with thin accounts and sort keys', () => {
  const hashOnly = { hash: { name: 'pk', type: 'S' as const } };
  const withRange = { hash: { name: 'pk', type: 'S' as const }, range: { name: 'sk', type: 'S' as const } };

  it('does not take thin accounts keyed `USER#…` for locks of a tag `USER`', () => {
    const items: Item[] = [];
    for (let i = 0; i < 10; i++)
      items.push({ pk: S(`USER#${i}`), email: S(`u${i}@x.io`), name: S(`n${i}`) }, { pk: S(`EMAIL#u${i}@x.io`) }, { pk: S(`NAME#n${i}`) });
    const result = detectConvention(hashOnly, items);
    if (!result.ok) throw new Error(result.error.message);
    const c = result.value.convention;
    expect(c.preset).toBe('marker');
    expect(c.rules.map((r) => `${r.name}:${r.attribute}`)).toEqual(['EMAIL:email', 'NAME:name']);
    expect(c.lockPrefixes).toEqual([]);
  });

  it('gives tag-shaped locks on a table with a sort key their literal sort key, so the file loads back', () => {
    const items: Item[] = [];
    for (let i = 0; i < 10; i++)
      items.push(
        { pk: S(`user#${i}`), sk: S('profile'), email: S(`u${i}@x.io`), userName: S(`n${i}`) },
        { pk: S(`email#u${i}@x.io`), sk: S('lock') },
        { pk: S(`userName#n${i}`), sk: S('lock') },
      );
    const result = detectConvention(withRange, items);
    if (!result.ok) throw new Error(result.error.message);
    const c = result.value.convention;
    expect(c.preset).toBe('aws-blog');
    expect(c.rules.map((r) => r.lockKeys)).toEqual([
      [{ hash: 'email#{value}', range: 'lock' }],
      [{ hash: 'userName#{value}', range: 'lock' }],
    ]);
    expect(parseConventionFile(conventionToFile(c), withRange)).toEqual({ ok: true, value: c });
  });

  it('reads tag-shaped locks whose sort key repeats the hash key as the value standing in both key attributes', () => {
    const items: Item[] = [];
    for (let i = 0; i < 10; i++)
      items.push({ pk: S(`u${i}`), sk: S('profile'), email: S(`u${i}@x.io`) }, { pk: S(`email#u${i}@x.io`), sk: S(`email#u${i}@x.io`) });
    const result = detectConvention(withRange, items);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.preset).toBe('custom');
    expect(result.value.convention.rules.map((r) => r.lockKeys)).toEqual([[{ hash: 'email#{value}', range: 'email#{value}' }]]);
  });
});
