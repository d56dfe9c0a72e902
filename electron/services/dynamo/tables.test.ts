import { describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EMPTY_LOCAL_HINT, listAllTables, listTables, toKeySchema, toTableInfo } from './tables';

/** A stand-in for the SDK client that answers ListTables from a list of pages (the edge: AWS itself). */
function fakeClient(pages: { TableNames: string[]; LastEvaluatedTableName?: string }[]): DynamoDBClient {
  let call = 0;
  return { send: () => Promise.resolve(pages[call++]) } as unknown as DynamoDBClient;
}

describe('toKeySchema', () => {
  it('reads hash and range with their types', () => {
    expect(
      toKeySchema(
        [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'n', KeyType: 'RANGE' },
        ],
        [
          { AttributeName: 'PK', AttributeType: 'S' },
          { AttributeName: 'n', AttributeType: 'N' },
        ],
      ),
    ).toEqual({ hash: { name: 'PK', type: 'S' }, range: { name: 'n', type: 'N' } });
  });

  it('is undefined without a hash key', () => {
    expect(toKeySchema([], [])).toBeUndefined();
  });
});

describe('toTableInfo', () => {
  it('maps keys, GSIs, counts, status and billing mode', () => {
    const info = toTableInfo({
      TableName: 'accounts',
      KeySchema: [{ AttributeName: 'userId', KeyType: 'HASH' }],
      AttributeDefinitions: [
        { AttributeName: 'userId', AttributeType: 'S' },
        { AttributeName: 'email', AttributeType: 'S' },
        { AttributeName: 'bin', AttributeType: 'B' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'by-email',
          KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'KEYS_ONLY' },
          IndexStatus: 'ACTIVE',
        },
        {
          IndexName: 'by-bin',
          KeySchema: [
            { AttributeName: 'email', KeyType: 'HASH' },
            { AttributeName: 'bin', KeyType: 'RANGE' },
          ],
        },
      ],
      ItemCount: 12,
      TableSizeBytes: 3400,
      TableStatus: 'ACTIVE',
      BillingModeSummary: { BillingMode: 'PAY_PER_REQUEST' },
    });
    expect(info).toEqual({
      name: 'accounts',
      keys: { hash: { name: 'userId', type: 'S' } },
      gsis: [
        { name: 'by-email', hash: { name: 'email', type: 'S' }, projection: 'KEYS_ONLY', status: 'ACTIVE' },
        { name: 'by-bin', hash: { name: 'email', type: 'S' }, range: { name: 'bin', type: 'B' }, projection: 'ALL' },
      ],
      itemCount: 12,
      sizeBytes: 3400,
      status: 'ACTIVE',
      billingMode: 'PAY_PER_REQUEST',
    });
  });
});

describe('listTables', () => {
  it('explains an empty list at a local endpoint', async () => {
    const page = await listTables(fakeClient([{ TableNames: [] }]), undefined, { local: true });
    expect(page).toEqual({ ok: true, value: { names: [], hint: EMPTY_LOCAL_HINT } });
    expect(EMPTY_LOCAL_HINT).toMatch(/-sharedDb/);
  });

  it('gives no hint for AWS or for a non-empty list', async () => {
    expect(await listTables(fakeClient([{ TableNames: [] }]), undefined, { local: false })).toEqual({ ok: true, value: { names: [] } });
    expect(await listTables(fakeClient([{ TableNames: ['a'] }]), undefined, { local: true })).toEqual({
      ok: true,
      value: { names: ['a'] },
    });
  });

  it('follows the cursor to the end', async () => {
    const all = await listAllTables(fakeClient([{ TableNames: ['a', 'b'], LastEvaluatedTableName: 'b' }, { TableNames: ['c'] }]));
    expect(all).toEqual({ ok: true, value: { names: ['a', 'b', 'c'] } });
  });
});
