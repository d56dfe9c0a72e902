/** Creating and loading the benchmark table (seed-1 layout, a GSI on `email` for the lookup benchmark). */
import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { batchWriteAll } from '../electron/services/sandbox/demo-data';
import type { GsiInfo } from '../electron/services/dynamo/tables';
import { datasetChunks } from './dataset';

/** The index the "with GSI" lookups use. */
export const EMAIL_INDEX: GsiInfo = { name: 'by-email', hash: { name: 'email', type: 'S' }, projection: 'KEYS_ONLY', status: 'ACTIVE' };

/** Creates `table` (PK+SK, PAY_PER_REQUEST) with the email GSI and waits until it is ACTIVE. */
export async function createBenchTable(client: DynamoDBClient, table: string): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
        { AttributeName: 'email', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: EMAIL_INDEX.name,
          KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
    }),
  );
  for (;;) {
    const out = await client.send(new DescribeTableCommand({ TableName: table }));
    if (out.Table?.TableStatus === 'ACTIVE') return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Creates a table holding only its key schema (no GSI): for the CLI's start-up baseline. */
export async function createPlainTable(client: DynamoDBClient, table: string): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
    }),
  );
}

/** Loads the generated items with parallel BatchWriteItem writers; returns the items written. */
export async function loadBenchTable(
  client: DynamoDBClient,
  table: string,
  items: number,
  writers = 8,
  onChunk?: (written: number) => void,
): Promise<number> {
  let written = 0;
  for (const chunk of datasetChunks(items, 20_000)) {
    await batchWriteAll(client, table, chunk, writers);
    written += chunk.length;
    onChunk?.(written);
  }
  return written;
}
