import { describe, expect, it } from 'vitest';
import type { KeySchema } from '../model';
import { preflight, preflightViolations } from './preflight';
import type { TransactItemJson, TransactWriteInputJson } from './types';

const KEYS: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
const SCHEMAS = { accounts: KEYS };

const put = (pk: string, sk = 'LOCK', extra: Record<string, unknown> = {}): TransactItemJson =>
  ({
    Put: {
      TableName: 'accounts',
      Item: { PK: { S: pk }, SK: { S: sk } },
      ConditionExpression: 'attribute_not_exists(#pk)',
      ExpressionAttributeNames: { '#pk': 'PK' },
      ...extra,
    },
  }) as TransactItemJson;
const input = (items: TransactItemJson[], token = 'tok'): TransactWriteInputJson => ({ TransactItems: items, ClientRequestToken: token });
const messages = (i: TransactWriteInputJson): string[] => preflightViolations(i, SCHEMAS).map((v) => `${v.field}: ${v.message}`);

describe('preflight', () => {
  it('accepts a valid request', () => {
    expect(preflight(input([put('UNIQ#EMAIL#a'), put('UNIQ#EMAIL#b')]), SCHEMAS)).toEqual({ ok: true, value: undefined });
  });

  it.each([
    ['no actions', input([]), /no actions/],
    ['101 actions', input(Array.from({ length: 101 }, (_, i) => put(`UNIQ#EMAIL#${i}`))), /101 actions; DynamoDB allows at most 100/],
    ['a token over 36 characters', input([put('a')], 'x'.repeat(37)), /ClientRequestToken must have 1 to 36 characters \(it has 37\)/],
    [
      'an item touched twice',
      input([put('UNIQ#EMAIL#a'), put('UNIQ#EMAIL#a')]),
      /TransactItems\[1\]\.Put: actions 0 and 1 both touch UNIQ#EMAIL#a \/ LOCK/,
    ],
    [
      'a partition key over 2048 UTF-8 bytes',
      input([put('가'.repeat(683))]),
      /Item\.PK: `PK` is 2049 bytes in UTF-8; DynamoDB allows at most 2048/,
    ],
    [
      'a sort key over 1024 UTF-8 bytes',
      input([put('a', 'é'.repeat(513))]),
      /Item\.SK: `SK` is 1026 bytes in UTF-8; DynamoDB allows at most 1024/,
    ],
    ['an empty key', input([put('')]), /`PK` must not be empty/],
    [
      'a key of the wrong type',
      input([{ Delete: { TableName: 'accounts', Key: { PK: { N: '1' }, SK: { S: 'x' } } } }]),
      /`PK` is S in the table's key schema but the request gives N/,
    ],
    [
      'a missing range key',
      input([{ Delete: { TableName: 'accounts', Key: { PK: { S: 'a' } } } }]),
      /Key\.SK: the key attribute `SK` is missing/,
    ],
    [
      'a non-key attribute in a Key',
      input([{ Delete: { TableName: 'accounts', Key: { PK: { S: 'a' }, SK: { S: 'b' }, x: { S: 'c' } } } }]),
      /`x` is not a key attribute of `accounts`/,
    ],
    ['an unknown table', input([{ Delete: { TableName: 'other', Key: { PK: { S: 'a' } } } }]), /table `other` has no known key schema/],
    [
      'a raw attribute name in a condition',
      input([put('a', 'LOCK', { ConditionExpression: 'attribute_not_exists(PK)', ExpressionAttributeNames: undefined })]),
      /`PK` is written directly; attribute names must go through #placeholders/,
    ],
    [
      'an undefined placeholder',
      input([put('a', 'LOCK', { ConditionExpression: '#pk = :v' })]),
      /:v is used but not defined in ExpressionAttributeValues/,
    ],
    ['an unused placeholder', input([put('a', 'LOCK', { ExpressionAttributeValues: { ':x': { S: 'x' } } })]), /:x is defined but not used/],
    [
      'a ConditionCheck without a condition',
      input([{ ConditionCheck: { TableName: 'accounts', Key: { PK: { S: 'a' }, SK: { S: 'b' } }, ConditionExpression: '' } }]),
      /a ConditionCheck needs a ConditionExpression/,
    ],
    [
      'an item over 400 KB',
      input([put('a', 'LOCK', { Item: { PK: { S: 'a' }, SK: { S: 'LOCK' }, blob: { S: 'x'.repeat(410_000) } } })]),
      /the item is \d+ bytes; DynamoDB allows at most 409600/,
    ],
    [
      'a request over 4 MB',
      input(
        Array.from({ length: 11 }, (_, i) =>
          put(`a${i}`, 'LOCK', { Item: { PK: { S: `a${i}` }, SK: { S: 'LOCK' }, blob: { S: 'x'.repeat(400_000) } } }),
        ),
      ),
      /allows at most 4194304 \(4 MB\) per transaction/,
    ],
  ] as const)('catches %s', (_name, request, expected) => {
    expect(messages(request).join('\n')).toMatch(expected);
    const r = preflight(request, SCHEMAS);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.kind).toBe('validation');
  });

  it('lists several violations in one error, pointing at the first field', () => {
    const r = preflight(input([put(''), put('', 'LOCK')], ''), SCHEMAS);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toMatch(/^\d+ problems before sending/);
      expect(r.error.field).toBe('ClientRequestToken');
    }
  });
});
