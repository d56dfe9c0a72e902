import { describe, expect, it } from 'vitest';
import type { Item, KeySchema } from '../model';
import { classifyItem } from './classify';
import { detectConvention } from './detect';
import { learnLayout } from './detect-layout';
import { conventionToFile, parseConventionFile } from './file';
import { S } from './test-layouts';

const composite: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
const hashOnly: KeySchema = { hash: { name: 'PK', type: 'S' } };
const N = (n: number): { N: string } => ({ N: String(n) });

/** A library nobody here knows: `PK = SK = User.email#<value>` (case kept), plus a custom `UNIQUE#USERNAME#<value>` / `UNIQUE`. */
function unknownLibrary(keys: KeySchema, users: number): Item[] {
  const items: Item[] = [];
  const key = (hash: string, range: string): Item => (keys.range ? { PK: S(hash), SK: S(range) } : { PK: S(hash) });
  for (let i = 0; i < users; i++) {
    const email = i % 4 === 0 ? `Grace.Hopper${i}@Navy.mil` : `ada${i}@lovelace.io`;
    items.push({
      ...key(`USER#u${i}`, `USER#u${i}`),
      __typename: S('Account'),
      email: S(email),
      username: S(`handle_${i}`),
      plan: S('free'),
    });
    items.push(key(`User.email#${email}`, `User.email#${email}`));
    items.push({ ...key(`UNIQUE#USERNAME#handle_${i}`, 'UNIQUE'), ...(keys.range ? {} : {}) });
  }
  return items;
}

describe('learnLayout', () => {
  it('learns a value repeated in both key attributes and a custom literal sort key, at confidence 1', () => {
    const result = detectConvention(composite, unknownLibrary(composite, 40));
    if (!result.ok) throw new Error(result.error.message);
    const { convention, confidence, evidence } = result.value;
    expect(convention.preset).toBe('custom');
    expect(convention.account).toEqual({ kind: 'attribute-equals', attribute: '__typename', value: 'Account' });
    expect(convention.rules.map((r) => [r.attribute, r.lockKeys, r.normalize])).toEqual([
      ['email', [{ hash: 'User.email#{value}', range: 'User.email#{value}' }], []],
      ['username', [{ hash: 'UNIQUE#USERNAME#{value}', range: 'UNIQUE' }], []],
    ]);
    expect(confidence).toBe(1);
    expect(evidence.join('\n')).toMatch(/read back: the learned convention reads 80 of 80 sampled locks as written/);
  });

  it('learns the same library on a hash-only table (the partition key alone)', () => {
    const result = detectConvention(hashOnly, unknownLibrary(hashOnly, 30));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.rules.map((r) => r.lockKeys)).toEqual([
      [{ hash: 'User.email#{value}' }],
      [{ hash: 'UNIQUE#USERNAME#{value}' }],
    ]);
    expect(result.value.confidence).toBe(1);
  });

  it('learns a scoped, lower-cased rule, a number rule and the account key prefix', () => {
    const items: Item[] = [];
    for (let i = 0; i < 30; i++) {
      const tenant = ['acme', 'globex', 'initech'][i % 3]!;
      const email = `Person${i}@Example.com`;
      items.push({ PK: S(`TENANT#${tenant}#ACCT#${i}`), SK: S('PROFILE'), tenantId: S(tenant), email: S(email), employeeNo: N(1000 + i) });
      items.push({ PK: S(`UNIQ#${tenant}#EMAIL#${email.toLowerCase()}`), SK: S('LOCK') }, { PK: S(`EMPNO#${1000 + i}`), SK: S('LOCK') });
    }
    const learned = learnLayout(composite, items);
    if (typeof learned === 'string') throw new Error(learned);
    const c = learned.convention;
    expect(c.account).toEqual({ kind: 'key-prefix', prefix: 'TENANT#', range: 'PROFILE' });
    expect(c.rules.map((r) => [r.attribute, r.lockKeys[0], r.normalize, r.scope, r.valueType])).toEqual([
      ['email', { hash: 'UNIQ#{tenantId}#EMAIL#{value}', range: 'LOCK' }, ['lowercase'], { tenantId: 'tenantId' }, undefined],
      ['employeeNo', { hash: 'EMPNO#{value}', range: 'LOCK' }, [], undefined, 'N'],
    ]);
    expect(learned.confidence).toBe(1);
    expect(classifyItem(c, items[1]!)).toMatchObject({ kind: 'lock', rule: 'email', value: 'person0@example.com', scope: ['acme'] });
  });

  it('does not take an item keyed by its own value, or children under a parent id, for locks', () => {
    const items: Item[] = [];
    for (let i = 0; i < 20; i++) {
      // The account's key holds its own id and handle; its orders and settings live under the id.
      items.push({ PK: S(`ACCT#a${i}`), SK: S(`HANDLE#h${i}`), id: S(`a${i}`), handle: S(`h${i}`), email: S(`e${i}@x.io`) });
      items.push({
        PK: S(`ACCT#a${i}`),
        SK: S('SETTINGS'),
        theme: S(i % 2 ? 'dark' : 'light'),
        lang: S(`l${i}`),
        tz: S(`z${i}`),
        font: S(`f${i}`),
      });
      items.push(
        { PK: S(`ACCT#a${i}`), SK: S(`ORDER#${i}-1`), total: N(i), status: S('paid') },
        { PK: S(`ACCT#a${i}`), SK: S(`ORDER#${i}-2`), total: N(i + 1), status: S('paid') },
      );
      items.push({ PK: S(`EMAIL#e${i}@x.io`), SK: S('LOCK') });
    }
    const learned = learnLayout(composite, items);
    if (typeof learned === 'string') throw new Error(learned);
    expect(learned.convention.rules.map((r) => r.attribute)).toEqual(['email']);
    expect(learned.evidence.join('\n')).toMatch(/`id` stands in .* an id, not a protected value/);
  });

  it("says why when no value stands in another item's key", () => {
    expect(learnLayout(composite, [{ PK: S('ACCT#1'), SK: S('PROFILE'), email: S('a@b.c') }])).toMatch(/no sampled key holds a value/);
  });
});

describe('learnLayout when the sample cannot tell', () => {
  it('lowers the confidence when two attributes hold the same values', () => {
    const items: Item[] = [];
    for (let i = 0; i < 10; i++)
      items.push(
        { PK: S(`ACCT#${i}`), SK: S('PROFILE'), login: S(`p${i}@x.io`), contact: S(`p${i}@x.io`) },
        { PK: S(`U#p${i}@x.io`), SK: S('LOCK') },
      );
    const learned = learnLayout(composite, items);
    if (typeof learned === 'string') throw new Error(learned);
    expect(learned.confidence).toBe(0.5);
    expect(learned.evidence.join('\n')).toMatch(/`login` holds the same values .*\(confidence lowered\)/);
  });
});

describe('detectConvention between a preset and a learned layout', () => {
  it("proposes the learned layout when the preset's reading would not load back (uniq locks, `acct:` accounts on a hash-only table)", () => {
    const items: Item[] = [];
    for (let i = 0; i < 12; i++)
      items.push({ PK: S(`acct:${i}`), nick: S(i % 3 ? `nick${i}` : `Nick${i}`) }, { PK: S(`UNIQ#NICK#nick${i}`) });
    const result = detectConvention(hashOnly, items);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.preset).toBe('custom');
    expect(result.value.convention.account).toEqual({ kind: 'key-prefix', prefix: 'acct:' });
    expect(parseConventionFile(conventionToFile(result.value.convention), hashOnly)).toEqual({ ok: true, value: result.value.convention });
  });

  it('proposes the learned layout when the locks carry what the preset does not write (the value as held)', () => {
    const items: Item[] = [];
    for (let i = 0; i < 12; i++)
      items.push(
        { PK: S(`ACCT#${i}`), SK: S('PROFILE'), email: S(`U${i}@X.io`) },
        { PK: S(`UNIQ#EMAIL#u${i}@x.io`), SK: S('LOCK'), value: S(`U${i}@X.io`) },
      );
    const result = detectConvention(composite, items);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.convention.rules.map((r) => [r.lockKeys, r.lockItem, r.normalize])).toEqual([
      [[{ hash: 'UNIQ#EMAIL#{value}', range: 'LOCK' }], { value: '{raw}' }, ['lowercase']],
    ]);
  });
});
