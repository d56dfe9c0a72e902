import { describe, expect, it } from 'vitest';
import { layoutFor } from '../conventions/test-layouts';
import { decodeCancellation, embeddedArray } from './decoder';

const SEED2_LOG =
  '{"timestamp":"2026-02-11T02:35:58.274Z","message":"Transaction canceled (Duplicated Name): Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed] (Service: DynamoDb, Status Code: 400, Request ID: 67df89f9-381d-404b-85bd-8002de75b6a1) (SDK Attempt Count: 1)","level":"UNDEFINED"}';

const SEED1_REQUEST = JSON.stringify({
  TransactItems: [
    {
      Put: {
        TableName: 'accounts',
        Item: { PK: { S: 'ACCT#a1f9c3' }, SK: { S: 'PROFILE' }, email: { S: 'ada@lovelace.io' }, username: { S: 'ada' } },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: 'accounts',
        Item: { PK: { S: 'UNIQ#EMAIL#ada@lovelace.io' }, SK: { S: 'LOCK' } },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: 'accounts',
        Item: { PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' } },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ],
});

const codes = (text: string): string[] => {
  const r = decodeCancellation({ error: text });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.reasons.map((x) => x.code);
};

describe('decodeCancellation', () => {
  it.each([
    ["seed 2's JSON log line", SEED2_LOG, ['None', 'ConditionalCheckFailed']],
    [
      'a bare exception message',
      'TransactionCanceledException: Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None, TransactionConflict]',
      ['ConditionalCheckFailed', 'None', 'TransactionConflict'],
    ],
    [
      'a CancellationReasons array',
      '[{"Code":"None"},{"Code":"ConditionalCheckFailed","Message":"The conditional request failed"}]',
      ['None', 'ConditionalCheckFailed'],
    ],
    [
      'an SDK error as JSON',
      '{"name":"TransactionCanceledException","CancellationReasons":[{"Code":"None"},{"Code":"None"},{"Code":"ConditionalCheckFailed"}]}',
      ['None', 'None', 'ConditionalCheckFailed'],
    ],
    [
      "Node's inspected error",
      "TransactionCanceledException: ... {\n  CancellationReasons: [ { Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' } ]\n}",
      ['None', 'ConditionalCheckFailed'],
    ],
  ])('reads %s', (_name, text, expected) => {
    expect(codes(text)).toEqual(expected);
  });

  it('without the request, says which position failed', () => {
    const r = decodeCancellation({ error: SEED2_LOG });
    expect(r.ok && r.value.summary).toBe("action 2 of 2 (ConditionalCheckFailed): action 2's condition was false");
  });

  it('with the request and the convention, names the rule and value that is taken', () => {
    const uniq = layoutFor('uniq').convention;
    const r = decodeCancellation({
      error: 'specific reasons [None, None, ConditionalCheckFailed]',
      request: SEED1_REQUEST,
      convention: uniq,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.failed).toHaveLength(1);
    expect(r.value.failed[0]!.message).toBe('handle `ada` is already held — the lock UNIQ#HANDLE#ada / LOCK exists');
    expect(r.value.reasons[0]!.message).toMatch(/^fine: Put ACCT#a1f9c3 \/ PROFILE/);
  });

  it('says "already held" only of a lock Put guarded by attribute_not_exists; another condition is quoted, and no condition means the error is not from this request', () => {
    const uniq = layoutFor('uniq', { ownerAttribute: 'owner' }).convention;
    const request = JSON.stringify({
      TransactItems: [
        {
          Put: {
            TableName: 't',
            Item: { PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' }, owner: { S: 'ACCT#a1' } },
            ConditionExpression: 'attribute_exists(PK) AND #o = :me',
            ExpressionAttributeNames: { '#o': 'owner' },
          },
        },
        { Put: { TableName: 't', Item: { PK: { S: 'UNIQ#HANDLE#bob' }, SK: { S: 'LOCK' } } } },
        {
          Put: {
            TableName: 't',
            Item: { PK: { S: 'UNIQ#HANDLE#cy' }, SK: { S: 'LOCK' } },
            ConditionExpression: 'attribute_not_exists(#pk) AND attribute_not_exists(SK)',
            ExpressionAttributeNames: { '#pk': 'PK' },
          },
        },
      ],
    });
    const r = decodeCancellation({
      error: 'specific reasons [ConditionalCheckFailed, ConditionalCheckFailed, ConditionalCheckFailed]',
      request,
      convention: uniq,
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.reasons.map((x) => x.message)).toEqual([
      'the lock UNIQ#HANDLE#ada / LOCK for handle `ada` did not meet the condition (condition: attribute_exists(PK) AND owner = :me)',
      'Put UNIQ#HANDLE#bob / LOCK has no condition, so DynamoDB cannot have answered ConditionalCheckFailed for it: this error is not from this request (paste the request that was sent with it)',
      'handle `cy` is already held — the lock UNIQ#HANDLE#cy / LOCK exists',
    ]);
  });

  it('with the request only, explains the condition as written', () => {
    const r = decodeCancellation({ error: '[{"Code":"ConditionalCheckFailed"},{"Code":"None"},{"Code":"None"}]', request: SEED1_REQUEST });
    expect(r.ok && r.value.failed[0]!.message).toBe(
      'an item with the key PK=ACCT#a1f9c3 already exists (condition: attribute_not_exists(PK))',
    );
  });

  it('uses a returned item to say who holds the value', () => {
    const owned = layoutFor('uniq', { ownerAttribute: 'owner' }).convention;
    const error = JSON.stringify([
      { Code: 'None' },
      { Code: 'ConditionalCheckFailed', Item: { PK: { S: 'UNIQ#EMAIL#ada@lovelace.io' }, SK: { S: 'LOCK' }, owner: { S: 'ACCT#zz' } } },
      { Code: 'None' },
    ]);
    const r = decodeCancellation({ error, request: SEED1_REQUEST, convention: owned });
    expect(r.ok && r.value.failed[0]).toMatchObject({
      holder: 'ACCT#zz',
      message: 'email `ada@lovelace.io` is already held by ACCT#zz — the lock UNIQ#EMAIL#ada@lovelace.io / LOCK exists',
    });
  });

  it('a lock returned by a Put guarded by another condition names its owner, but is not said to be "already held"', () => {
    const owned = layoutFor('uniq', { ownerAttribute: 'owner' }).convention;
    const request = JSON.stringify({
      TransactItems: [
        {
          Put: {
            TableName: 't',
            Item: { PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' }, owner: { S: 'ACCT#a1' } },
            ConditionExpression: 'attribute_exists(PK) AND #o = :me',
            ExpressionAttributeNames: { '#o': 'owner' },
          },
        },
      ],
    });
    const error = JSON.stringify([
      { Code: 'ConditionalCheckFailed', Item: { PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' }, owner: { S: 'ACCT#zz' } } },
    ]);
    const r = decodeCancellation({ error, request, convention: owned });
    expect(r.ok && r.value.failed[0]).toMatchObject({
      holder: 'ACCT#zz',
      message:
        'the lock UNIQ#HANDLE#ada / LOCK for handle `ada` did not meet the condition (condition: attribute_exists(PK) AND owner = :me): the lock names ACCT#zz',
    });
  });

  it.each([
    ['text without reasons', { error: 'something went wrong' }, /no cancellation reasons found/],
    [
      'a request of another length',
      { error: '[None, ConditionalCheckFailed]', request: SEED1_REQUEST },
      /the request has 3 actions but the error lists 2 reasons/,
    ],
    [
      'a request that is not DynamoDB JSON',
      { error: '[None]', request: '{"TransactItems":[{"Put":{"TableName":"t"}}]}' },
      /TransactItems\[0\] is not a Put/,
    ],
  ])('rejects %s', (_name, input, message) => {
    const r = decodeCancellation(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(message);
  });
});

describe('pasted text is parsed in linear time (#16 finding 5)', () => {
  // Before the fix, 256 KB of `[{` blocked the event loop for 16 s (vitest's 5 s timeout would fail this).
  const SIZE = 256 * 1024;
  it.each([
    ['[{ repeated', '[{'.repeat(SIZE / 2)],
    ['"cancellation reasons" repeated without a bracket', 'cancellation reasons '.repeat(SIZE / 21)],
    ['"cancellation reasons [" repeated without a closing bracket', 'cancellation reasons ['.repeat(SIZE / 22)],
    ['an unclosed list of codes', `[${'a,'.repeat(SIZE / 2)}`],
    ['[ followed by spaces', `${'[ '.repeat(SIZE / 4)}{`],
    ['} ] at the end only', `${'[{'.repeat(SIZE / 4)}${' }]'.repeat(SIZE / 6)}`],
  ])('256 KB of %s: answered with a clear error or a result, in linear time', (_name, text) => {
    const r = decodeCancellation({ error: text });
    expect(r.ok === false ? r.error.kind : 'decoded').toMatch(/validation|decoded/);
  });

  it('finds the embedded array exactly as the old expression did', () => {
    expect(embeddedArray('x CancellationReasons: [ {"Code":"None"}, {"Code":"ConditionalCheckFailed"} ] trailing ] ')).toBe(
      '[ {"Code":"None"}, {"Code":"ConditionalCheckFailed"} ]',
    );
    expect(embeddedArray('no array here ] [ x')).toBeUndefined();
    expect(embeddedArray('[{"a":1}] and [{"b":2}]')).toBe('[{"a":1}] and [{"b":2}]');
  });
});
