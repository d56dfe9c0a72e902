import { describe, expect, it } from 'vitest';
import { layoutFor } from '../../../../shared/conventions/test-layouts';
import { reasonValue } from './reason-value';

const convention = layoutFor('uniq').convention;
const request = JSON.stringify({
  TransactItems: [
    { Put: { TableName: 'accounts', Item: { PK: { S: 'ACCT#a1' }, SK: { S: 'PROFILE' } } } },
    { Put: { TableName: 'accounts', Item: { PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' } } } },
  ],
});

describe('reasonValue', () => {
  it('reads the value from the ALL_OLD item first', () => {
    expect(reasonValue(convention, 0, { PK: { S: 'UNIQ#EMAIL#a@x.io' }, SK: { S: 'LOCK' } }, '')).toEqual({
      rule: 'EMAIL',
      value: 'a@x.io',
    });
  });

  it('falls back to the pasted request, by action index', () => {
    expect(reasonValue(convention, 1, undefined, request)).toEqual({ rule: 'HANDLE', value: 'ada' });
  });

  it('gives nothing for an account item, a missing action or a request that does not parse', () => {
    expect(reasonValue(convention, 0, undefined, request)).toBeUndefined();
    expect(reasonValue(convention, 5, undefined, request)).toBeUndefined();
    expect(reasonValue(convention, 1, undefined, '{not json')).toBeUndefined();
  });
});
