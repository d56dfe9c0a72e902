import { describe, expect, it } from 'vitest';
import { AuditEngine } from '../audit/engine';
import type { Convention, Item, KeySchema } from '../model';
import { classifyItem } from './classify';
import { parseConventionFile } from './file';
import { formatLockKey } from './format';
import { parseLockKey } from './parse';
import { S } from './test-layouts';

const COMPOSITE: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
const HASH_ONLY: KeySchema = { hash: { name: 'PK', type: 'S' } };

/** A library that repeats the value in both keys (`PK = SK = User.email#<value>`), and a custom rule with a literal sort key. */
const repeated: Convention = {
  preset: 'custom',
  keys: COMPOSITE,
  account: { kind: 'attribute-equals', attribute: '_et', value: 'UserEntity' },
  rules: [
    { name: 'EMAIL', attribute: 'email', lockKeys: [{ hash: 'User.email#{value}', range: 'User.email#{value}' }], normalize: [] },
    { name: 'USERNAME', attribute: 'username', lockKeys: [{ hash: 'UNIQUE#USERNAME#{value}', range: 'UNIQUE' }], normalize: [] },
  ],
  lockPrefixes: [],
};

/** The value only in the sort key, under a literal partition key. */
const inSortKey: Convention = {
  preset: 'custom',
  keys: COMPOSITE,
  account: { kind: 'key-prefix', prefix: 'USER#' },
  rules: [
    {
      name: 'EMAIL',
      attribute: 'email',
      lockKeys: [{ hash: 'LOCKS', range: 'EMAIL#{tenant}#{value}' }],
      normalize: ['lowercase'],
      scope: { tenant: 'tenantId' },
    },
  ],
  lockPrefixes: [],
};

const key = (pk: string, sk?: string): Item => (sk === undefined ? { PK: S(pk) } : { PK: S(pk), SK: S(sk) });

describe('a value may stand in the partition key, the sort key, or both', () => {
  it('writes and reads a lock whose value is repeated in both keys', () => {
    const rule = repeated.rules[0]!;
    expect(formatLockKey(rule, 'Ada@X.io')).toEqual({ hash: 'User.email#Ada@X.io', range: 'User.email#Ada@X.io' });
    expect(parseLockKey(repeated, 'User.email#Ada@X.io', 'User.email#Ada@X.io')).toMatchObject({
      kind: 'lock',
      ruleIndex: 0,
      value: 'Ada@X.io',
    });
    // The library's entity items share the prefix shape but are not locks.
    expect(parseLockKey(repeated, 'User#123', 'User#123')).toEqual({ kind: 'not-lock' });
  });

  it('reads a lock whose two copies disagree as malformed, naming both texts', () => {
    const parsed = parseLockKey(repeated, 'User.email#ada@x.io', 'User.email#eve@x.io');
    expect(parsed).toMatchObject({ kind: 'malformed', ruleIndex: 0 });
    expect(parsed.kind === 'malformed' && parsed.reason).toBe('the EMAIL value in PK (`ada@x.io`) and in SK (`eve@x.io`) disagree');
    const wrong = parseLockKey(repeated, 'User.email#ada@x.io', 'PROFILE');
    expect(wrong.kind === 'malformed' && wrong.reason).toMatch(
      /^wrong sort key: sort key `PROFILE`, expected `User.email#\{value\}` for rule EMAIL$/,
    );
  });

  it('reads a custom rule with a literal sort key beside it', () => {
    expect(parseLockKey(repeated, 'UNIQUE#USERNAME#ada', 'UNIQUE')).toMatchObject({ kind: 'lock', ruleIndex: 1, value: 'ada' });
    expect(formatLockKey(repeated.rules[1]!, 'ada')).toEqual({ hash: 'UNIQUE#USERNAME#ada', range: 'UNIQUE' });
  });

  it('reads a scoped value from the sort key under a literal partition key', () => {
    const rule = inSortKey.rules[0]!;
    expect(formatLockKey(rule, 'ada@x.io', rule.lockKeys[0], ['acme'])).toEqual({ hash: 'LOCKS', range: 'EMAIL#acme#ada@x.io' });
    expect(parseLockKey(inSortKey, 'LOCKS', 'EMAIL#acme#Ada@X.io')).toMatchObject({
      kind: 'lock',
      value: 'Ada@X.io',
      normalized: 'ada@x.io',
      parts: { tenant: 'acme' },
    });
    expect(parseLockKey(inSortKey, 'LOCKS', 'PHONE#1')).toMatchObject({ kind: 'malformed' });
    expect(parseLockKey(inSortKey, 'USER#1', 'PROFILE')).toEqual({ kind: 'not-lock' });
    const lock = classifyItem(inSortKey, key('LOCKS', 'EMAIL#acme#ada@x.io'));
    expect(lock).toMatchObject({ kind: 'lock', rule: 'EMAIL', normalized: 'ada@x.io', scope: ['acme'] });
  });

  it('reads a value bare in the partition key when the sort key is a literal, and leaves other items alone', () => {
    const bare: Convention = {
      ...inSortKey,
      account: { kind: 'key-prefix', prefix: 'USER#' },
      rules: [{ name: 'EMAIL', attribute: 'email', lockKeys: [{ hash: '{value}', range: 'EMAIL_LOCK' }], normalize: [] }],
    };
    expect(parseLockKey(bare, 'ada@x.io', 'EMAIL_LOCK')).toMatchObject({ kind: 'lock', value: 'ada@x.io' });
    // No literal prefix in the partition key: another sort key means "not this rule", never "malformed".
    expect(parseLockKey(bare, 'USER#1', 'PROFILE')).toEqual({ kind: 'not-lock' });
  });

  it('audits a table in the repeated layout exactly: the planted problems and nothing else', () => {
    const account = (id: string, email: string, username: string): Item => ({
      PK: S(`User#${id}`),
      SK: S(`User#${id}`),
      _et: S('UserEntity'),
      email: S(email),
      username: S(username),
    });
    const items: Item[] = [
      account('1', 'ada@x.io', 'ada'),
      key('User.email#ada@x.io', 'User.email#ada@x.io'),
      key('UNIQUE#USERNAME#ada', 'UNIQUE'),
      account('2', 'bob@x.io', 'bob'),
      key('UNIQUE#USERNAME#bob', 'UNIQUE'), // bob's email lock is missing
      key('User.email#gone@x.io', 'User.email#gone@x.io'), // an orphan
      key('User.email#a@x.io', 'User.email#b@x.io'), // two copies that disagree
    ];
    const engine = new AuditEngine(repeated, { trackDeltas: false });
    engine.addItems(items);
    const report = engine.report({ table: 't', complete: true });
    expect(report.problems.map((p) => [p.kind, p.rule, p.value])).toEqual([
      ['orphan-lock', 'EMAIL', 'gone@x.io'],
      ['missing-lock', 'EMAIL', 'bob@x.io'],
      ['malformed-lock', 'EMAIL', 'User.email#a@x.io'],
    ]);
  });
});

describe('a convention file holds nothing that would be read as something else', () => {
  const file = (lockKey: object, extra: object = {}, keys: KeySchema = COMPOSITE): unknown => ({
    version: 2,
    preset: 'custom',
    keys,
    account: { kind: 'not-lock' },
    rules: [{ name: 'EMAIL', attribute: 'email', lockKeys: [lockKey], ...extra }],
  });

  it.each([
    ['the value in the sort key', { hash: 'LOCKS', range: 'EMAIL#{value}' }],
    ['the value repeated in both keys', { hash: 'User.email#{value}', range: 'User.email#{value}' }],
    ['the value bare in the partition key under a literal sort key', { hash: '{value}', range: 'EMAIL' }],
    ['literal text after the value', { hash: 'U#{value}#LOCK', range: 'X' }],
  ])('accepts %s', (_what, lockKey) => {
    const parsed = parseConventionFile(file(lockKey));
    expect(parsed.ok).toBe(true);
  });

  it.each([
    [
      'no value anywhere',
      { hash: 'LOCKS', range: 'EMAIL' },
      {},
      'rules[0].lockKeys[0].hash: must contain {value} (in the partition key, the sort key, or both)',
    ],
    [
      'the value twice in the sort key',
      { hash: 'L', range: '{value}#{value}' },
      {},
      'rules[0].lockKeys[0].range: the placeholder {value} appears twice',
    ],
    [
      'placeholders with nothing between them in the sort key',
      { hash: 'L', range: 'E#{t}{value}' },
      { scope: { t: 'tenantId' } },
      'rules[0].lockKeys[0].range: the placeholders {t} and {value} need literal text between them',
    ],
    [
      'a sort-key placeholder with no attribute',
      { hash: 'L#{value}', range: 'T#{tenantId}' },
      {},
      'rules[0].lockKeys[0].range: the placeholder {tenantId} has no attribute',
    ],
    [
      'no literal text to tell a lock by',
      { hash: '{value}', range: '{value}' },
      {},
      'rules[0].lockKeys[0].hash: must start with literal text',
    ],
    ['an empty sort key', { hash: 'L#{value}', range: '' }, {}, 'rules[0].lockKeys[0].range: must not be empty'],
  ])('refuses %s, naming the field', (_what, lockKey, extra, message) => {
    const parsed = parseConventionFile(file(lockKey, extra));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error.message).toContain(message);
  });

  it('refuses a sort-key template on a table without a sort key', () => {
    const parsed = parseConventionFile(file({ hash: 'L#{value}', range: 'L#{value}' }, {}, HASH_ONLY));
    expect(!parsed.ok && parsed.error.message).toBe('rules[0].lockKeys[0].range: must be absent, the table has no sort key');
  });
});
