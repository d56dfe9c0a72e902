import { describe, expect, it } from 'vitest';
import { presetConvention, PRESET_DEFAULTS } from '../conventions/presets';
import { layoutFor } from '../conventions/test-layouts';
import type { Convention, KeySchema, PlainKey, PresetName } from '../model';
import { PRESET_NAMES } from '../model';
import { keyOf } from '../plain-key';
import { buildTransaction } from './build';
import { lockDeleteViolations, preflightViolations } from './preflight';
import type { BuiltTransaction, TransactItemJson, TransactionSpec } from './types';

interface Case {
  readonly name: string;
  readonly convention: Convention;
  readonly account: PlainKey;
  readonly other: PlainKey;
  readonly rule: string;
  readonly attribute: string;
}

const hashOnly: KeySchema = { hash: { name: 'PK', type: 'S' } };

function caseFor(preset: PresetName, owner: boolean): Case {
  const layout = layoutFor(preset, owner ? { ownerAttribute: 'owner' } : {});
  const rule = layout.convention.rules[0]!;
  return {
    name: `${preset}${owner ? ' + owner' : ''}`,
    convention: layout.convention,
    account: keyOf(layout.account('a1', {}), layout.convention.keys),
    other: keyOf(layout.account('b2', {}), layout.convention.keys),
    rule: rule.name,
    attribute: rule.attribute,
  };
}

const CASES: Case[] = [
  ...PRESET_NAMES.flatMap((p) => [caseFor(p, false), caseFor(p, true)]),
  {
    name: 'uniq hash-only',
    convention: presetConvention('uniq', hashOnly, PRESET_DEFAULTS.uniq),
    account: { PK: 'ACCT#a1' },
    other: { PK: 'ACCT#b2' },
    rule: 'EMAIL',
    attribute: 'email',
  },
];

const TABLE = 'accounts';
const ops = (b: BuiltTransaction): string[] => b.items.map((i) => Object.keys(i)[0]!);
const body = (i: TransactItemJson): Record<string, unknown> => Object.values(i)[0] as Record<string, unknown>;

function build(c: Case, spec: TransactionSpec): BuiltTransaction {
  const built = buildTransaction(TABLE, c.convention, spec);
  if (!built.ok) throw new Error(built.error.message);
  // Every built transaction passes the pre-flight checks on its own.
  expect(preflightViolations({ TransactItems: built.value.items, ClientRequestToken: 't' }, { [TABLE]: c.convention.keys })).toEqual([]);
  expect(built.value.actions.map((a) => a.index)).toEqual(built.value.items.map((_, i) => i));
  for (const item of built.value.items) expect(body(item).ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
  return built.value;
}

/** The guard every lock Delete ends with: none of the rules' attributes, and not the account marker attribute's value. */
function lockOnlyGuard(c: Case): string {
  const attrs = [...new Set(c.convention.rules.map((r) => r.attribute))];
  const parts = attrs.map((_, i) => `attribute_not_exists(#ra${i})`);
  if (c.convention.account.kind === 'attribute-equals') parts.push('(attribute_not_exists(#acct) OR #acct <> :acct)');
  return parts.join(' AND ');
}

describe.each(CASES)('builders on $name', (c) => {
  const pk = c.convention.keys.hash.name;
  const owner = c.convention.ownerAttribute;
  const guard = lockOnlyGuard(c);

  it('claim puts the normalized lock guarded by attribute_not_exists and checks the stored value', () => {
    const b = build(c, { kind: 'claim', rule: c.rule, value: ' Ada@Lovelace.io ', account: c.account, stored: ' Ada@Lovelace.io ' });
    expect(ops(b)).toEqual(['Put', 'ConditionCheck']);
    const put = body(b.items[0]!);
    expect(put.ConditionExpression).toBe('attribute_not_exists(#pk)');
    expect(put.ExpressionAttributeNames).toEqual({ '#pk': pk });
    const item = put.Item as Record<string, { S: string }>;
    const normalized = c.convention.rules.find((r) => r.name === c.rule)!.normalize.includes('lowercase')
      ? 'ada@lovelace.io'
      : ' Ada@Lovelace.io ';
    expect(item[pk]!.S).toContain(c.convention.rules[0]!.normalize.includes('trim') ? normalized.trim() : normalized);
    if (owner) expect(item[owner]).toEqual({ S: String(c.account[pk]) });
    // The key and exactly the attributes the library writes on its locks (OneTable's _type, ElectroDB's entity fields).
    const rule = c.convention.rules.find((r) => r.name === c.rule)!;
    const lockItem = Object.keys(rule.lockItem ?? {});
    expect(Object.keys(item).sort()).toEqual(
      [...(owner ? [owner] : []), pk, ...(c.convention.keys.range ? [c.convention.keys.range.name] : []), ...lockItem].sort(),
    );
    if (rule.lockItem?.['value'] === '{raw}') expect(item['value']).toEqual({ S: ' Ada@Lovelace.io ' });
    const check = body(b.items[1]!);
    expect(check.ConditionExpression).toBe('#attr = :stored');
    expect(check.ExpressionAttributeNames).toEqual({ '#attr': c.attribute });
    expect(check.ExpressionAttributeValues).toEqual({ ':stored': { S: ' Ada@Lovelace.io ' } });
    expect(b.actions[0]!.explanation).toMatch(/only if no item has this key/);
  });

  it('release deletes the lock with attribute_exists and checks the holder is unchanged', () => {
    const b = build(c, {
      kind: 'release',
      rule: c.rule,
      value: 'ada@lovelace.io',
      holder: { key: c.other, seen: { state: 'value', value: 'bob@x.io' } },
      ...(owner ? { lockOwner: { state: 'value', value: String(c.other[pk]) } } : {}),
    });
    expect(ops(b)).toEqual(['Delete', 'ConditionCheck']);
    const del = body(b.items[0]!);
    expect(del.ConditionExpression).toBe(`${owner ? 'attribute_exists(#pk) AND #owner = :owner' : 'attribute_exists(#pk)'} AND ${guard}`);
    expect(Object.values(del.ExpressionAttributeNames as Record<string, string>)).toEqual(
      expect.arrayContaining(c.convention.rules.map((r) => r.attribute)),
    );
    expect(body(b.items[1]!).ConditionExpression).toBe('attribute_not_exists(#attr) OR #attr = :seen');
    expect(b.guards.notGuarded.join(' ')).toMatch(/no condition for "no account holds/);
  });

  it('release without a fresh read of the holder excludes the exact spellings and says what is not guarded', () => {
    const b = build(c, { kind: 'release', rule: c.rule, value: 'Ada@Lovelace.io', holder: { key: c.other } });
    const check = body(b.items[1]!);
    const forms = Object.values(check.ExpressionAttributeValues as Record<string, { S: string }>).map((v) => v.S);
    expect(check.ConditionExpression).toMatch(/^attribute_not_exists\(#attr\) OR \(#attr <> :v( AND #attr <> :typed)?\)$/);
    expect(forms).toContain('Ada@Lovelace.io');
    const rule = c.convention.rules.find((r) => r.name === c.rule)!;
    if (rule.normalize.length > 0) expect(b.guards.notGuarded.join(' ')).toMatch(/other spellings/);
  });

  it('release refuses when the holder read at preview still holds the value', () => {
    const r = buildTransaction(TABLE, c.convention, {
      kind: 'release',
      rule: c.rule,
      value: 'ada',
      holder: { key: c.other, seen: { state: 'value', value: 'ada' } },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.kind).toBe('conflict');
  });

  it('signup puts the account and one guarded lock per rule', () => {
    const values = Object.fromEntries(c.convention.rules.map((r, i) => [r.name, `v${i}-백과`]));
    const b = build(c, { kind: 'signup', account: c.account, values });
    expect(ops(b)).toEqual(['Put', ...c.convention.rules.map(() => 'Put')]);
    for (const item of b.items) expect(body(item).ConditionExpression).toBe('attribute_not_exists(#pk)');
    const account = body(b.items[0]!).Item as Record<string, unknown>;
    for (const [i, r] of c.convention.rules.entries()) expect(account[r.attribute]).toEqual({ S: `v${i}-백과` });
    if (c.convention.account.kind === 'attribute-equals')
      expect(account[c.convention.account.attribute]).toEqual({ S: c.convention.account.value });
    expect(b.confirm).toBe(String(c.account[pk]));
  });

  it('change value puts the new lock, deletes the old one and updates the account on the old value', () => {
    const b = build(c, { kind: 'change-value', account: c.account, rule: c.rule, from: 'old', to: 'new' });
    expect(ops(b)).toEqual(['Put', 'Delete', 'Update']);
    expect(body(b.items[1]!).ConditionExpression).toBe(
      `${owner ? 'attribute_exists(#pk) AND (attribute_not_exists(#owner) OR #owner = :owner)' : 'attribute_exists(#pk)'} AND ${guard}`,
    );
    const update = body(b.items[2]!);
    expect(update.UpdateExpression).toBe('SET #attr = :to');
    expect(update.ConditionExpression).toBe('#attr = :from');
    expect(b.confirm).toBe('new');
  });

  it('delete account deletes the account on its values and each lock', () => {
    const values = Object.fromEntries(c.convention.rules.map((r) => [r.name, `x-${r.name}`]));
    const b = build(c, { kind: 'delete-account', account: c.account, values });
    expect(ops(b)).toEqual(['Delete', ...c.convention.rules.map(() => 'Delete')]);
    expect(body(b.items[0]!).ConditionExpression).toMatch(/^attribute_exists\(#pk\) AND #a0 = :s0/);
    for (const item of b.items.slice(1)) {
      if (owner) expect(body(item).ConditionExpression).toBe(`(attribute_not_exists(#owner) OR #owner = :owner) AND ${guard}`);
      else expect(body(item).ConditionExpression).toBe(guard);
    }
  });
});

describe('builder validation', () => {
  const c = caseFor('uniq', false);

  it.each([
    ['an unknown rule', { kind: 'claim', rule: 'PHONE', value: 'x', account: c.account, stored: 'x' }, /no rule named `PHONE`/],
    [
      'a stored value that is another value',
      { kind: 'claim', rule: 'EMAIL', value: 'ada@x.io', account: c.account, stored: 'bob@x.io' },
      /stores email = `bob@x.io`/,
    ],
    [
      'an account key that is a lock',
      { kind: 'claim', rule: 'EMAIL', value: 'a', account: { PK: 'UNIQ#EMAIL#a', SK: 'LOCK' }, stored: 'a' },
      /not an account key|looks like a lock/,
    ],
    [
      'a wrong account range',
      { kind: 'claim', rule: 'EMAIL', value: 'a', account: { PK: 'ACCT#1', SK: 'OTHER' }, stored: 'a' },
      /SK must be `PROFILE`/,
    ],
    [
      'a number for a string key',
      { kind: 'claim', rule: 'EMAIL', value: 'a', account: { PK: 7, SK: 'PROFILE' }, stored: 'a' },
      /PK is a string key \(S\)/,
    ],
    [
      'a missing range key',
      { kind: 'claim', rule: 'EMAIL', value: 'a', account: { PK: 'ACCT#1' }, stored: 'a' },
      /lacks the key attribute `SK`/,
    ],
    [
      'an extra key attribute',
      { kind: 'claim', rule: 'EMAIL', value: 'a', account: { PK: 'ACCT#1', SK: 'PROFILE', x: 1 }, stored: 'a' },
      /`x`, which is not a key attribute/,
    ],
    [
      'a value empty after trimming',
      { kind: 'claim', rule: 'EMAIL', value: '   ', account: c.account, stored: '   ' },
      /empty after normalization/,
    ],
    [
      'a value too long for the key',
      { kind: 'claim', rule: 'EMAIL', value: '가'.repeat(700), account: c.account, stored: '가'.repeat(700) },
      /bytes in UTF-8/,
    ],
    ['a change to the same value', { kind: 'change-value', rule: 'EMAIL', account: c.account, from: 'a', to: 'a' }, /nothing to change/],
  ] as const)('rejects %s', (_name, spec, message) => {
    const r = buildTransaction(TABLE, c.convention, spec as TransactionSpec);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(message);
  });

  it('a case-only change keeps the shared lock and only updates the account', () => {
    const r = buildTransaction(TABLE, c.convention, {
      kind: 'change-value',
      rule: 'EMAIL',
      account: c.account,
      from: 'Ada@x.io',
      to: 'ada@x.io',
    });
    expect(r.ok && r.value.items.map((i) => Object.keys(i)[0])).toEqual(['ConditionCheck', 'Update']);
  });

  it('a number hash key is written as N and checked against the schema', () => {
    const conv = presetConvention('marker', { hash: { name: 'id', type: 'N' } }, PRESET_DEFAULTS.marker);
    const r = buildTransaction(TABLE, conv, { kind: 'claim', rule: 'NAME', value: 'x', account: { id: 42 }, stored: 'x' });
    // The lock key `NAME#x` cannot be a number: the conversion says so precisely.
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/id is a number key \(N\)/);
  });
});

describe('release of a lock that is not canonical', () => {
  const onetable = layoutFor('onetable').convention;

  it('deletes a legacy OneTable lock by its exact key', () => {
    const legacy = { pk: '_Unique:User:email:Ada@x.io', sk: '_unique:' };
    const r = buildTransaction(TABLE, onetable, { kind: 'release', rule: 'User.email', value: 'Ada@x.io', lockKey: legacy });
    expect(r.ok && r.value.items[0]).toMatchObject({
      Delete: {
        Key: { pk: { S: legacy.pk }, sk: { S: legacy.sk } },
        ConditionExpression: 'attribute_exists(#pk) AND attribute_not_exists(#ra0) AND (attribute_not_exists(#acct) OR #acct <> :acct)',
      },
    });
  });

  it('refuses an explicit key that is another value or no lock', () => {
    for (const lockKey of [
      { pk: '_unique#User#email#other', sk: '_unique#' },
      { pk: 'User#1', sk: 'User#' },
    ]) {
      const r = buildTransaction(TABLE, onetable, { kind: 'release', rule: 'User.email', value: 'ada@x.io', lockKey });
      expect(!r.ok && r.error.message).toMatch(/is not a lock of rule User\.email/);
    }
  });
});

describe('a release deletes only a lock', () => {
  // The attack: a caller-supplied convention whose lock template is the account key itself.
  const base = layoutFor('uniq').convention;
  const overlapping: Convention = {
    ...base,
    rules: [{ ...base.rules[0]!, name: 'HANDLE', attribute: 'username', lockKeys: [{ hash: 'ACCT#{value}', range: 'PROFILE' }] }],
  };

  it('refuses a release whose lock key the convention recognises as an account', () => {
    const r = buildTransaction(TABLE, overlapping, { kind: 'release', rule: 'HANDLE', value: 'zz1' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/ACCT#zz1 \/ PROFILE is an account key under this convention/);
  });

  it('refuses a change of value whose old lock would be an account', () => {
    const r = buildTransaction(TABLE, overlapping, {
      kind: 'change-value',
      rule: 'HANDLE',
      account: { PK: 'ACCT#a1', SK: 'PROFILE' },
      from: 'zz1',
      to: 'zz2',
    });
    expect(r.ok).toBe(false);
  });

  it('refuses any Delete whose key matches no lock template', () => {
    const built = buildTransaction(TABLE, base, { kind: 'release', rule: 'EMAIL', value: 'a@x.io' });
    if (!built.ok) throw new Error(built.error.message);
    const items = built.value.items.map((i) =>
      'Delete' in i ? { Delete: { ...i.Delete, Key: { PK: { S: 'ACCT#a1' }, SK: { S: 'PROFILE' } } } } : i,
    );
    expect(lockDeleteViolations(items, built.value.actions, base).map((v) => v.message)).toEqual([
      expect.stringMatching(/ACCT#a1 \/ PROFILE matches no lock template/),
    ]);
    // An account deletion (delete-account) is the one Delete allowed to target an account.
    const del = buildTransaction(TABLE, base, { kind: 'delete-account', account: { PK: 'ACCT#a1', SK: 'PROFILE' }, values: {} });
    expect(del.ok).toBe(true);
  });

  it('guards in the condition too: the Delete fails on an item that carries a rule attribute', () => {
    const built = buildTransaction(TABLE, base, { kind: 'release', rule: 'EMAIL', value: 'a@x.io' });
    if (!built.ok) throw new Error(built.error.message);
    const del = body(built.value.items[0]!);
    const names = del.ExpressionAttributeNames as Record<string, string>;
    for (const rule of base.rules)
      expect(del.ConditionExpression).toContain(`attribute_not_exists(${Object.keys(names).find((k) => names[k] === rule.attribute)})`);
  });
});
