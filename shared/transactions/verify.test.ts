import { describe, expect, it } from 'vitest';
import type { ActionMeta, TransactWriteInputJson } from './types';
import { expectedWrites, verifyWrites } from './verify';

const meta = (index: number, key: Record<string, string>, keyText: string): ActionMeta => ({
  index,
  role: 'put-lock',
  key,
  keyText,
  explanation: '',
  failure: '',
});
// The seed-1 change-value shape: new lock, old lock deleted, account updated, plus a check that writes nothing.
const input: TransactWriteInputJson = {
  ClientRequestToken: 't',
  TransactItems: [
    {
      Put: {
        TableName: 'accounts',
        Item: { PK: { S: 'UNIQ#HANDLE#bea' }, SK: { S: 'LOCK' }, owner: { S: 'ACCT#1' } },
        ConditionExpression: 'attribute_not_exists(#pk)',
      },
    },
    { Delete: { TableName: 'accounts', Key: { PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' } } } },
    {
      Update: {
        TableName: 'accounts',
        Key: { PK: { S: 'ACCT#1' }, SK: { S: 'PROFILE' } },
        UpdateExpression: 'SET #attr = :to',
        ExpressionAttributeNames: { '#attr': 'username' },
        ExpressionAttributeValues: { ':to': { S: 'bea' } },
      },
    },
    {
      ConditionCheck: {
        TableName: 'accounts',
        Key: { PK: { S: 'ACCT#2' }, SK: { S: 'PROFILE' } },
        ConditionExpression: 'attribute_exists(PK)',
      },
    },
  ],
};
const actions = [
  meta(0, { PK: '', SK: '' }, 'UNIQ#HANDLE#bea / LOCK'),
  meta(1, { PK: '', SK: '' }, 'UNIQ#HANDLE#ada / LOCK'),
  meta(2, { PK: '', SK: '' }, 'ACCT#1 / PROFILE'),
  meta(3, { PK: '', SK: '' }, 'ACCT#2 / PROFILE'),
];
const expected = expectedWrites(input, actions);
const lock = { PK: { S: 'UNIQ#HANDLE#bea' }, SK: { S: 'LOCK' }, owner: { S: 'ACCT#1' } };
const account = { PK: { S: 'ACCT#1' }, SK: { S: 'PROFILE' }, username: { S: 'bea' }, email: { S: 'a@x.io' } };

describe('expectedWrites', () => {
  it('expects the Put present with its attributes, the Delete gone, the Update SET applied; a ConditionCheck writes nothing', () => {
    expect(expected.map((e) => [e.operation, e.present, JSON.stringify(e.key), JSON.stringify(e.attributes)])).toEqual([
      ['Put', true, JSON.stringify({ PK: { S: 'UNIQ#HANDLE#bea' }, SK: { S: 'LOCK' } }), JSON.stringify(lock)],
      ['Delete', false, JSON.stringify({ PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' } }), '{}'],
      ['Update', true, JSON.stringify({ PK: { S: 'ACCT#1' }, SK: { S: 'PROFILE' } }), JSON.stringify({ username: { S: 'bea' } })],
    ]);
  });
});

describe('verifyWrites', () => {
  it.each([
    { name: 'all applied', reread: [lock, undefined, account], verified: true, differences: [] },
    {
      name: 'the new lock missing',
      reread: [undefined, undefined, account],
      verified: false,
      differences: ['UNIQ#HANDLE#bea / LOCK is missing (the Put should have written it)'],
    },
    {
      name: 'the old lock still there',
      reread: [lock, { PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' } }, account],
      verified: false,
      differences: ['UNIQ#HANDLE#ada / LOCK still exists (the Delete should have removed it)'],
    },
    {
      name: 'the account changed since',
      reread: [lock, undefined, { ...account, username: { S: 'cy' } }],
      verified: false,
      differences: ['ACCT#1 / PROFILE: username is {"S":"cy"}, expected {"S":"bea"}'],
    },
  ])('$name', ({ reread, verified, differences }) => {
    const v = verifyWrites(expected, reread);
    expect(v.verified).toBe(verified);
    expect(v.differences).toEqual(differences);
  });

  it('never calls an update it cannot read verified', () => {
    const odd = expectedWrites(
      {
        ClientRequestToken: 't',
        TransactItems: [
          {
            Update: {
              TableName: 't',
              Key: { PK: { S: 'A' } },
              UpdateExpression: 'ADD n :one',
              ExpressionAttributeValues: { ':one': { N: '1' } },
            },
          },
        ],
      },
      [],
    );
    expect(verifyWrites(odd, [{ PK: { S: 'A' }, n: { N: '1' } }])).toEqual({
      verified: false,
      differences: [],
      unchecked: ['action 1: ADD n :one'],
    });
  });

  it('compares numbers as numbers', () => {
    const put = expectedWrites(
      { ClientRequestToken: 't', TransactItems: [{ Put: { TableName: 't', Item: { PK: { S: 'A' }, n: { N: '1.50' } } } }] },
      [meta(0, { PK: '' }, 'A')],
    );
    expect(verifyWrites(put, [{ PK: { S: 'A' }, n: { N: '1.5' } }]).verified).toBe(true);
  });
});
