/**
 * An audit's key schema without DescribeTable, against the run's DynamoDB Local: read off a sample
 * and confirmed by the table itself, or a convention's keys confirmed — and never the old keys of a
 * table re-created with other ones (swapped hash and range, or no range any more).
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import type { Item, KeySchema } from '../../../shared/model';
import { ok } from '../../../shared/result';
import { createTempTable, deleteTable, putItems, testClient, uniqueTableName } from '../../testing/dynamo-fixtures';
import { ensureTable } from '../sandbox/demo-data';
import { auditKeySchema, candidateKeySchemas } from './audit-keys';
import { sampleItems } from './sample';

const client = testClient(inject('dynamoEndpoint'));
const tables: string[] = [];
const PK_SK: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
const SK_PK: KeySchema = { hash: { name: 'SK', type: 'S' }, range: { name: 'PK', type: 'S' } };

async function table(keys: KeySchema, items: readonly Item[] = []): Promise<string> {
  const name = await createTempTable(client, keys, 'audit-keys');
  tables.push(name);
  if (items.length > 0) await putItems(client, name, items);
  return name;
}

afterAll(async () => {
  for (const name of tables) await deleteTable(client, name);
  client.destroy();
});

describe("an audit's key schema without DescribeTable", () => {
  it('is read off the sample and confirmed by the table: which attribute is the hash key too', async () => {
    const layout = layoutFor('uniq');
    const items = [
      layout.account('a1', { email: 'ada@lovelace.io', username: 'ada' }),
      layout.lock('EMAIL', 'ada@lovelace.io'),
      layout.lock('HANDLE', 'ada'),
    ];
    const name = await table(PK_SK, items);
    expect(await auditKeySchema(client, name, undefined, sampleItems(client, name))).toEqual(PK_SK);
    // The same attributes the other way round: the sample cannot tell, the table can.
    const swapped = await table(SK_PK, items);
    expect(await auditKeySchema(client, swapped, undefined, sampleItems(client, swapped))).toEqual(SK_PK);
  });

  it('finds a number hash key alone', async () => {
    const keys: KeySchema = { hash: { name: 'userId', type: 'N' } };
    const name = await table(keys, [{ userId: { N: '1' }, name: { S: 'a' } }, { userId: { N: '-2' } }]);
    expect(await auditKeySchema(client, name, undefined, sampleItems(client, name))).toEqual(keys);
  });

  it('answers nothing (describe) when the sample leaves too many candidates, is empty, or the table is gone', async () => {
    const wide: Item = { PK: { S: 'a' }, SK: { S: 'b' }, c: { S: 'c' }, d: { S: 'd' } };
    expect(candidateKeySchemas([wide])).toEqual([]);
    expect(candidateKeySchemas([])).toEqual([]);
    expect(candidateKeySchemas([wide, { PK: { S: 'x' }, SK: { N: '1' } }])).toEqual([{ hash: { name: 'PK', type: 'S' } }]);
    const empty = await table(PK_SK);
    expect(await auditKeySchema(client, empty, undefined, sampleItems(client, empty))).toBeUndefined();
    expect(await auditKeySchema(client, uniqueTableName('absent'), PK_SK, undefined)).toBeUndefined();
    expect(await auditKeySchema(client, 'some-table', undefined, Promise.resolve(ok([])))).toBeUndefined();
  });

  it("checks a convention's keys against the table as it is now, after it was re-created with other keys", async () => {
    const name = uniqueTableName('audit-keys-recreated');
    tables.push(name);
    await ensureTable(client, name, PK_SK);
    expect(await auditKeySchema(client, name, PK_SK, undefined)).toEqual(PK_SK);
    await deleteTable(client, name);
    await ensureTable(client, name, SK_PK);
    expect(await auditKeySchema(client, name, PK_SK, undefined)).toEqual(SK_PK);
    await deleteTable(client, name);
    await ensureTable(client, name, { hash: { name: 'PK', type: 'S' } });
    expect(await auditKeySchema(client, name, PK_SK, undefined)).toBeUndefined();
    await deleteTable(client, name);
    await ensureTable(client, name, { hash: { name: 'PK', type: 'N' }, range: { name: 'SK', type: 'S' } });
    expect(await auditKeySchema(client, name, PK_SK, undefined)).toBeUndefined();
  });
});
