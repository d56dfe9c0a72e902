/** Helpers for integration tests against the run's DynamoDB Local: a client, unique temp tables, bulk puts. */
import { randomBytes } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import type { Item, KeySchema } from '../../shared/model';
import { batchWriteAll, ensureTable } from '../services/sandbox/demo-data';
import { SANDBOX_CREDENTIALS, SANDBOX_REGION } from '../services/sandbox/dynamodb-local';

/** A DynamoDB client for DynamoDB Local with dummy credentials (any keys work with -sharedDb). */
export function testClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: SANDBOX_REGION, credentials: SANDBOX_CREDENTIALS });
}

/** A table name unique to this call (tests run in parallel and share one DynamoDB Local). */
export function uniqueTableName(prefix = 'test'): string {
  // Table names: 3–255 chars of [a-zA-Z0-9_.-].
  const safe = prefix.replace(/[^a-zA-Z0-9_.-]/g, '_').slice(0, 200);
  return `${safe}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** Creates a PAY_PER_REQUEST table with the given key schema under a unique name and returns the name. */
export async function createTempTable(client: DynamoDBClient, keys: KeySchema, prefix = 'test'): Promise<string> {
  const name = uniqueTableName(prefix);
  await ensureTable(client, name, keys);
  return name;
}

/** Writes items with parallel BatchWriteItem writers (25 per request, unprocessed items retried). */
export async function putItems(client: DynamoDBClient, table: string, items: readonly Item[], writers = 4): Promise<void> {
  await batchWriteAll(client, table, items, writers);
}

/** Deletes a table; a table that is already gone is fine (teardown must not fail twice). */
export async function deleteTable(client: DynamoDBClient, table: string): Promise<void> {
  try {
    await client.send(new DeleteTableCommand({ TableName: table }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}
