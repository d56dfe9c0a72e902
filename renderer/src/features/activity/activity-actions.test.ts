import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../../shared/domain';
import { activityActions } from './activity-actions';

describe('activityActions', () => {
  it('names each action and its key; a Put takes the key attributes the other actions use', () => {
    const request: JsonValue = {
      TransactItems: [
        { Put: { TableName: 't', Item: { owner: { S: 'ACCT#1' }, PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' } } } },
        { ConditionCheck: { TableName: 't', Key: { PK: { S: 'ACCT#1' }, SK: { S: 'PROFILE' } } } },
      ],
    };
    expect(activityActions(request)).toEqual([
      { operation: 'Put', key: 'PK=UNIQ#HANDLE#ada · SK=LOCK' },
      { operation: 'ConditionCheck', key: 'PK=ACCT#1 · SK=PROFILE' },
    ]);
  });

  it('reads a release (one Delete) and numbers', () => {
    expect(activityActions({ TransactItems: [{ Delete: { Key: { userId: { S: 'NAME#x' }, v: { N: '3' } } } }] })).toEqual([
      { operation: 'Delete', key: 'userId=NAME#x · v=3' },
    ]);
  });

  it('gives nothing for a request of another shape', () => {
    expect(activityActions(null)).toEqual([]);
    expect(activityActions({ TransactItems: 'no' })).toEqual([]);
  });
});
