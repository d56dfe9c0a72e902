import { DescribeTableCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTempTable, deleteTable, putItems, testClient, uniqueTableName } from './dynamo-fixtures';

describe('integration fixtures', () => {
  const client = testClient(inject('dynamoEndpoint'));
  afterAll(() => client.destroy());

  it('gives unique, valid table names', () => {
    const names = new Set(Array.from({ length: 100 }, () => uniqueTableName('t')));
    expect(names.size).toBe(100);
    for (const n of names) expect(n).toMatch(/^[a-zA-Z0-9_.-]{3,255}$/);
  });

  it('creates a hash+range table, puts more than one batch, and deletes it (twice is fine)', async () => {
    const table = await createTempTable(client, { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } }, 'fixtures');
    const items = Array.from({ length: 60 }, (_, i) => ({ PK: { S: `ACCT#${i}` }, SK: { S: 'PROFILE' } }));
    await putItems(client, table, items);
    const scan = await client.send(new ScanCommand({ TableName: table, Select: 'COUNT' }));
    expect(scan.Count).toBe(60);
    await deleteTable(client, table);
    await deleteTable(client, table);
    await expect(client.send(new DescribeTableCommand({ TableName: table }))).rejects.toThrow();
  });

  it('creates hash-only tables with number keys', async () => {
    const table = await createTempTable(client, { hash: { name: 'id', type: 'N' } }, 'fixtures');
    const out = await client.send(new DescribeTableCommand({ TableName: table }));
    expect(out.Table?.KeySchema).toEqual([{ AttributeName: 'id', KeyType: 'HASH' }]);
    await deleteTable(client, table);
  });
});
