/** Seeds large tables through the SDK, for tests that need an audit to still be running when they act. */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../shared/model';
import { batchWriteAll, ensureTable } from '../../electron/services/sandbox/demo-data';

/** Creates `table` in the seed-1 layout (PK+SK) with `accounts` healthy accounts, each with its two locks and a padding attribute. */
export async function seedLargeUniqTable(client: DynamoDBClient, table: string, accounts: number, padding = 900): Promise<number> {
  await ensureTable(client, table, { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } });
  // Padding makes each item ~1 KB so a scan takes seconds, not milliseconds, on DynamoDB Local.
  const bio = { S: 'x'.repeat(padding) };
  const items: Item[] = [];
  for (let i = 0; i < accounts; i++) {
    const id = i.toString(16).padStart(8, '0');
    const email = `user${i}@example.com`;
    const handle = `user${i}`;
    items.push({ PK: { S: `ACCT#${id}` }, SK: { S: 'PROFILE' }, email: { S: email }, username: { S: handle }, bio });
    items.push({ PK: { S: `UNIQ#EMAIL#${email}` }, SK: { S: 'LOCK' }, bio });
    items.push({ PK: { S: `UNIQ#HANDLE#${handle}` }, SK: { S: 'LOCK' }, bio });
  }
  await batchWriteAll(client, table, items, 8);
  return items.length;
}
