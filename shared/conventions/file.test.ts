import { describe, expect, it } from 'vitest';
import { checkConvention, checkKeysFit, conventionToFile, parseConventionFile } from './file';
import { PRESET_KEYS } from './presets';
import { layoutFor } from './test-layouts';
import { PRESET_NAMES } from '../model';

const valid = () => ({
  version: 1,
  preset: 'uniq',
  keys: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } },
  account: { kind: 'key-prefix', prefix: 'ACCT#', range: 'PROFILE' },
  rules: [
    { name: 'EMAIL', attribute: 'email', lockKeys: [{ hash: 'UNIQ#EMAIL#{value}', range: 'LOCK' }], normalize: ['lowercase'] },
    { name: 'HANDLE', attribute: 'username', lockKeys: [{ hash: 'UNIQ#HANDLE#{value}', range: 'LOCK' }] },
  ],
  lockPrefixes: ['UNIQ#'],
});

type Json = ReturnType<typeof valid> & Record<string, unknown>;

describe('parseConventionFile', () => {
  it('accepts a valid file and fills defaults', () => {
    const result = parseConventionFile(valid());
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.rules[1]?.normalize).toEqual([]);
    expect(result.value.account).toEqual({ kind: 'key-prefix', prefix: 'ACCT#', range: 'PROFILE' });
  });

  it.each(PRESET_NAMES.map((p) => [p]))('round-trips the %s preset through conventionToFile', (preset) => {
    const convention = layoutFor(preset, { ownerAttribute: 'owner' }).convention;
    const text = JSON.stringify(conventionToFile(convention));
    expect(parseConventionFile(JSON.parse(text))).toEqual({ ok: true, value: convention });
  });

  it.each<[string, (f: Json) => unknown, string, string]>([
    [
      'no {value}',
      (f) => ((f.rules[1]!.lockKeys[0]!.hash = 'UNIQ#HANDLE#'), f),
      'rules[1].lockKeys[0].hash',
      'rules[1].lockKeys[0].hash: must contain {value} (in the partition key, the sort key, or both)',
    ],
    [
      'two {value}',
      (f) => ((f.rules[0]!.lockKeys[0]!.hash = '{value}#{value}'), f),
      'rules[0].lockKeys[0].hash',
      'the placeholder {value} appears twice',
    ],
    [
      'no literal prefix in either key',
      (f) => ((f.rules[0]!.lockKeys[0]!.hash = '{value}'), (f.rules[0]!.lockKeys[0]!.range = '{value}'), f),
      'rules[0].lockKeys[0].hash',
      'must start with literal text',
    ],
    [
      'two {value} in the sort key',
      (f) => ((f.rules[0]!.lockKeys[0]!.range = 'E#{value}#{value}'), f),
      'rules[0].lockKeys[0].range',
      'rules[0].lockKeys[0].range: the placeholder {value} appears twice',
    ],
    [
      'a sort-key placeholder with no attribute',
      (f) => ((f.rules[0]!.lockKeys[0]!.range = 'T#{tenantId}'), f),
      'rules[0].lockKeys[0].range',
      'the placeholder {tenantId} has no attribute',
    ],
    [
      'placeholders without a literal between them',
      (f) => ((f.rules[0]!.lockKeys[0]!.hash = 'U#{scope}{value}'), f),
      'rules[0].lockKeys[0].hash',
      'need literal text between them',
    ],
    [
      'a scope placeholder with no attribute',
      (f) => ((f.rules[0]!.lockKeys[0]!.hash = 'U#{tenantId}#{value}'), f),
      'rules[0].lockKeys[0].hash',
      'the placeholder {tenantId} has no attribute',
    ],
    [
      'a scope missing from a template',
      (f) => (Object.assign(f.rules[0]!, { scope: { tenantId: 'tenantId' } }), f),
      'rules[0].scope.tenantId',
      'is missing from lockKeys[0]',
    ],
    [
      'a scope on a key attribute',
      (f) => ((f.rules[0]!.lockKeys[0]!.hash = 'U#{t}#{value}'), Object.assign(f.rules[0]!, { scope: { t: 'PK' } }), f),
      'rules[0].scope.t',
      'PK is a key attribute',
    ],
    [
      'a lock item template overwriting a key attribute',
      (f) => (Object.assign(f.rules[0]!, { lockItem: { SK: 'x' } }), f),
      'rules[0].lockItem.SK',
      "would overwrite the lock's key",
    ],
    [
      'a lock item template with an unknown placeholder',
      (f) => (Object.assign(f.rules[0]!, { lockItem: { kind: '{nope}' } }), f),
      'rules[0].lockItem.kind',
      'unknown placeholder {nope}',
    ],
    ['a lock table that is not a table name', (f) => ((f.lockTable = 'a b'), f), 'lockTable', 'not a DynamoDB table name'],
    ['unknown normalization', (f) => ((f.rules[0]!.normalize = ['upper']), f), 'rules[0].normalize[0]', 'rules[0].normalize[0]:'],
    [
      'missing attribute',
      (f) => (delete (f.rules[0] as Partial<(typeof f.rules)[0]>).attribute, f),
      'rules[0].attribute',
      'rules[0].attribute:',
    ],
    ['empty rules', (f) => ((f.rules = []), f), 'rules', 'rules: needs at least one rule'],
    ['unknown field', (f) => ({ ...f, extra: true }), 'extra', 'extra: unknown field'],
    [
      'unknown nested field',
      (f) => (((f.rules[0]!.lockKeys[0] as Record<string, unknown>).sort = 'LOCK'), f),
      'rules[0].lockKeys[0].sort',
      'rules[0].lockKeys[0].sort: unknown field',
    ],
    ['bad account kind', (f) => ({ ...f, account: { kind: 'regex' } }), 'account.kind', 'account.kind:'],
    ['bad key type', (f) => ((f.keys.hash.type = 'X'), f), 'keys.hash.type', 'keys.hash.type:'],
    [
      'missing range on a range table',
      (f) => (delete (f.rules[1]!.lockKeys[0] as { range?: string }).range, f),
      'rules[1].lockKeys[0].range',
      'rules[1].lockKeys[0].range: required, the table has a sort key (SK)',
    ],
    ['duplicate rule name', (f) => ((f.rules[1]!.name = 'EMAIL'), f), 'rules[1].name', 'rules[1].name: duplicate rule name `EMAIL`'],
    ['not an object', () => 'uniq', '', 'convention file:'],
  ])('names the bad field: %s', (_label, mutate, field, message) => {
    const result = parseConventionFile(mutate(valid() as Json));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('validation');
    expect(result.error.field).toBe(field);
    expect(result.error.message).toContain(message);
  });

  it('takes keys from the table when the file has none, and rejects a mismatch', () => {
    const { keys: _keys, ...noKeys } = valid();
    expect(parseConventionFile(noKeys).ok).toBe(false);
    expect(parseConventionFile(noKeys, PRESET_KEYS.uniq).ok).toBe(true);
    const mismatch = parseConventionFile(valid(), { hash: { name: 'pk', type: 'S' }, range: { name: 'SK', type: 'S' } });
    expect(mismatch.ok || mismatch.error.message).toBe("keys.hash: the file says PK (S), the table's hash key is pk (S)");
    const hashOnly = parseConventionFile(valid(), { hash: { name: 'PK', type: 'S' } });
    expect(hashOnly.ok || hashOnly.error.field).toBe('keys.range');
  });

  it('refuses lock templates on a table whose hash key is not a string', () => {
    const f = { ...valid(), keys: { hash: { name: 'PK', type: 'N' }, range: { name: 'SK', type: 'S' } } };
    const result = parseConventionFile(f);
    expect(result.ok || result.error.field).toBe('keys.hash.type');
  });
});

describe('the file format version', () => {
  it('names a newer format as such, and anything else as not a version', () => {
    const newer = parseConventionFile({ ...valid(), version: 3 });
    expect(!newer.ok && newer.error.message).toBe(
      'version: 3 is a newer format than this Locksmith reads (versions 1 and 2): update Locksmith, or save the convention again from this version',
    );
    const odd = parseConventionFile({ ...valid(), version: 'two' });
    expect(!odd.ok && odd.error.message).toBe('version: must be 1 or 2');
  });
});

describe('placeholder names every JavaScript object already has', () => {
  const withRule = (rule: object): unknown => ({ ...valid(), rules: [rule] });
  it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__'])(
    'refuses {%s} in a template (it would be filled with a built-in, not an attribute)',
    (name) => {
      const result = parseConventionFile(
        withRule({ name: 'HANDLE', attribute: 'username', lockKeys: [{ hash: `UNIQ#{${name}}#{value}`, range: 'LOCK' }] }),
      );
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.message).toMatch(new RegExp(`\\{${name}\\} is a name every JavaScript object already has`));
    },
  );
});

describe('parseConventionFile cross-field checks', () => {
  const base = () => valid() as Json;

  it.each<[string, (f: Json) => unknown, string, RegExp]>([
    [
      'a numeric sort key with lock templates',
      (f) => ({ ...f, keys: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'N' } } }),
      'rules[0].lockKeys[0].range',
      /rules\[0\]\.lockKeys\[0\]\.range: the table's sort key SK is of type N; lock sort keys must be strings \(S\)/,
    ],
    [
      'an account range on a hash-only table',
      (f) => ({
        ...f,
        keys: { hash: { name: 'PK', type: 'S' } },
        rules: [{ name: 'EMAIL', attribute: 'email', lockKeys: [{ hash: 'UNIQ#EMAIL#{value}' }] }],
      }),
      'account.range',
      /account\.range: must be absent, the table has no sort key/,
    ],
    [
      'the same lock key in two rules',
      (f) => ((f.rules[1]!.lockKeys[0]!.hash = 'UNIQ#EMAIL#{value}'), f),
      'rules[1].lockKeys[0].hash',
      /rules\[1\]\.lockKeys\[0\]\.hash: the same lock key as rules\[0\]\.lockKeys\[0\]/,
    ],
    [
      'an empty account prefix without a range',
      (f) => ({ ...f, account: { kind: 'key-prefix', prefix: '' } }),
      'account.prefix',
      /account\.prefix: must not be empty/,
    ],
  ])('names the bad field: %s', (_label, mutate, field, message) => {
    const result = parseConventionFile(mutate(base()));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.field).toBe(field);
    expect(result.error.message).toMatch(message);
  });

  it('accepts an empty account prefix with a range (accounts keyed by bare ids, `SK = PROFILE`), as detection may propose', () => {
    const result = parseConventionFile({ ...base(), account: { kind: 'key-prefix', prefix: '', range: 'PROFILE' } });
    expect(result.ok && result.value.account).toEqual({ kind: 'key-prefix', prefix: '', range: 'PROFILE' });
  });
});

describe('checkConvention', () => {
  it('accepts every preset and names the bad field of an edited one', () => {
    for (const preset of PRESET_NAMES) expect(checkConvention(layoutFor(preset).convention).ok).toBe(true);
    const uniq = layoutFor('uniq').convention;
    const edited = { ...uniq, rules: [{ ...uniq.rules[0]!, lockKeys: [{ hash: '{value}', range: '{value}' }] }] };
    const result = checkConvention(edited, PRESET_KEYS.uniq);
    expect(result.ok || result.error.field).toBe('rules[0].lockKeys[0].hash');
  });
});

describe("convention file size limits (the bridge schema's bounds apply to files too)", () => {
  const base = {
    account: { kind: 'key-prefix', prefix: 'ACCT#', range: 'PROFILE' },
    rules: [{ name: 'EMAIL', attribute: 'email', lockKeys: [{ hash: 'UNIQ#EMAIL#{value}', range: 'LOCK' }] }],
  };
  it.each([
    [
      'a huge rule name',
      { ...base, rules: [{ ...base.rules[0], name: 'R'.repeat(5_000_000) }] },
      /^rules\[0\]\.name: must be at most 255 characters/,
    ],
    [
      'a huge attribute name',
      { ...base, rules: [{ ...base.rules[0], attribute: 'a'.repeat(300) }] },
      /^rules\[0\]\.attribute: must be at most 255/,
    ],
    [
      'a huge template',
      { ...base, rules: [{ ...base.rules[0], lockKeys: [{ hash: `U#${'x'.repeat(2000)}{value}`, range: 'LOCK' }] }] },
      /^rules\[0\]\.lockKeys\[0\]\.hash: must be at most 1024/,
    ],
    [
      '10,000 rules',
      { ...base, rules: Array.from({ length: 10_000 }, (_, i) => ({ ...base.rules[0], name: `R${i}` })) },
      /^rules: at most 32 rules/,
    ],
  ])('refuses %s with the field named', (_label, file, message) => {
    const parsed = parseConventionFile(file);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toMatch(message);
  });
});

describe('version 1 files under format 2', () => {
  it("a v1 file (with the OneTable preset's unmapped {scope} template) stays valid and is written back as v1, unchanged", () => {
    const v1 = {
      version: 1,
      preset: 'onetable',
      keys: { hash: { name: 'pk', type: 'S' }, range: { name: 'sk', type: 'S' } },
      account: { kind: 'attribute-equals', attribute: '_type', value: 'User' },
      rules: [
        {
          name: 'User.email',
          attribute: 'email',
          lockKeys: [
            { hash: '_unique#User#email#{value}', range: '_unique#' },
            { hash: '_unique#{scope}#User#email#{value}', range: '_unique#' },
          ],
          normalize: [],
        },
      ],
      lockPrefixes: ['_unique#User#'],
    };
    const parsed = parseConventionFile(v1);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(conventionToFile(parsed.value)).toEqual(v1);
  });

  it('a v2 rule round-trips with its scope, lock item and value type, as version 2', () => {
    const v2 = {
      version: 2,
      preset: 'custom',
      keys: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } },
      account: { kind: 'key-prefix', prefix: 'ACCT#', range: 'PROFILE' },
      rules: [
        {
          name: 'EMAIL',
          attribute: 'email',
          lockKeys: [{ hash: 'UNIQ#EMAIL#{tenantId}#{value}', range: 'LOCK' }],
          normalize: ['lowercase'],
          scope: { tenantId: 'tenantId' },
          lockItem: { kind: 'lock of {rule}' },
          valueType: 'S',
        },
      ],
      lockPrefixes: ['UNIQ#'],
      lockTable: 'accounts_unique',
    };
    const parsed = parseConventionFile(v2);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.rules[0]).toMatchObject({ scope: { tenantId: 'tenantId' }, lockItem: { kind: 'lock of {rule}' } });
    expect(parsed.value.lockTable).toBe('accounts_unique');
    const { valueType: _s, ...rule } = v2.rules[0]!;
    expect(conventionToFile(parsed.value)).toEqual({ ...v2, rules: [rule] });
  });
});

describe('checkKeysFit: a checked convention against a table’s real keys', () => {
  const convention = layoutFor('uniq').convention;
  it.each([
    [convention.keys, undefined],
    [{ hash: convention.keys.hash }, 'keys.range'],
    [{ ...convention.keys, hash: { name: 'id', type: 'S' as const } }, 'keys.hash'],
    [{ hash: convention.keys.hash, range: { name: 'SK', type: 'N' as const } }, 'keys.range'],
  ])('%j → %s', (tableKeys, field) => {
    const fit = checkKeysFit(convention, tableKeys);
    if (field === undefined) expect(fit).toEqual({ ok: true, value: convention });
    else
      expect(fit).toMatchObject({
        ok: false,
        error: { kind: 'validation', field, message: expect.stringMatching(new RegExp(`^${field}: `)) },
      });
  });
});
