import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Item, KeySchema } from '../../../shared/model';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { browseItems } from './browse';

const keys: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
const client = testClient(inject('dynamoEndpoint'));
let table = '';
const pk = (item: Record<string, AttributeValue>): string => `${item.PK?.S ?? ''}|${item.SK?.S ?? ''}`;

beforeAll(async () => {
  table = await createTempTable(client, keys, 'browse');
  const items: Item[] = [
    { PK: { S: 'ACCT#a1' }, SK: { S: 'PROFILE' }, email: { S: 'ada@x.io' } },
    { PK: { S: 'ACCT#a1' }, SK: { S: 'ORDER#1' } },
    { PK: { S: 'ACCT#a1' }, SK: { S: 'ORDER#2' } },
    { PK: { S: 'ACCT#b2' }, SK: { S: 'PROFILE' }, email: { S: 'bob@x.io' } },
    { PK: { S: 'UNIQ#EMAIL#ada@x.io' }, SK: { S: 'LOCK' } },
    { PK: { S: 'UNIQ#EMAIL#bob@x.io' }, SK: { S: 'LOCK' } },
  ];
  await putItems(client, table, items);
});
afterAll(async () => {
  await deleteTable(client, table);
  client.destroy();
});

describe('browseItems', () => {
  it('queries a partition, with begins_with on the sort key', async () => {
    const all = await browseItems(client, { table, keys, partition: 'ACCT#a1', limit: 10, consistent: true });
    expect(all.mode).toBe('query');
    expect(all.items.map(pk).sort()).toEqual(['ACCT#a1|ORDER#1', 'ACCT#a1|ORDER#2', 'ACCT#a1|PROFILE']);
    const orders = await browseItems(client, { table, keys, partition: 'ACCT#a1', prefix: 'ORDER#', limit: 10, consistent: true });
    expect(orders.items.map(pk)).toEqual(['ACCT#a1|ORDER#1', 'ACCT#a1|ORDER#2']);
  });

  it('scans with begins_with on the partition key and a filter', async () => {
    const locks = await browseItems(client, { table, keys, prefix: 'UNIQ#', limit: 100, consistent: true });
    expect(locks.mode).toBe('scan');
    expect(locks.items.map(pk).sort()).toEqual(['UNIQ#EMAIL#ada@x.io|LOCK', 'UNIQ#EMAIL#bob@x.io|LOCK']);
    const bob = await browseItems(client, {
      table,
      keys,
      filter: { attribute: 'email', op: 'contains', value: 'bob' },
      limit: 100,
      consistent: true,
    });
    expect(bob.items.map(pk)).toEqual(['ACCT#b2|PROFILE']);
    expect(bob.scanned).toBe(6);
  });

  it('pages with the cursor until every item was seen once', async () => {
    const seen: string[] = [];
    let cursor: Record<string, AttributeValue> | undefined;
    do {
      const page = await browseItems(client, { table, keys, limit: 4, consistent: true, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map(pk));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
  });

  it('a value with expression syntax in it is only ever a value', async () => {
    const page = await browseItems(client, { table, keys, partition: "ACCT#a1' OR 1=1 --", limit: 10 });
    expect(page.items).toEqual([]);
  });
});
