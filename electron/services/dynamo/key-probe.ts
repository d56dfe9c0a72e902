/**
 * Questions a table answers about its own key schema without DescribeTable (which DynamoDB Local
 * answers by counting the table): a GetItem of a key of exactly some shape, a Query naming some
 * attribute as the hash key. DynamoDB refuses either with a ValidationException when the shape or
 * the attribute is not the table's; nothing of any item is read (only the key attribute is projected).
 * Used by the CLI's remembered key schemas and by the app's audit start (services/audit/audit-keys.ts).
 */
import { GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { KeyAttribute, KeySchema } from '../../../shared/model';

function probeValue(type: KeyAttribute['type']): AttributeValue {
  if (type === 'N') return { N: '0' };
  if (type === 'B') return { B: new Uint8Array([0]) };
  return { S: 'locksmith#key-probe' };
}

/** The outcome of checking a cached schema against the table itself. */
export type KeyCheck = 'same' | 'different' | 'unknown';

/**
 * Checks `keys` against the table with one GetItem of a key of exactly that shape: DynamoDB answers a
 * key that does not match the table's schema (names, types, a missing or extra range key) with a
 * ValidationException → `different`. A normal answer → `same`. Anything else (no such table, no
 * permission, network) → `unknown`: the caller describes the table and reports what that says.
 */
export async function verifyKeySchema(client: DynamoDBClient, table: string, keys: KeySchema, signal?: AbortSignal): Promise<KeyCheck> {
  const key: Record<string, AttributeValue> = { [keys.hash.name]: probeValue(keys.hash.type) };
  if (keys.range) key[keys.range.name] = probeValue(keys.range.type);
  try {
    // Only the key attribute comes back, if such an item happens to exist: nothing of the item is read.
    await client.send(
      new GetItemCommand({ TableName: table, Key: key, ProjectionExpression: '#k', ExpressionAttributeNames: { '#k': keys.hash.name } }),
      { abortSignal: signal },
    );
    return 'same';
  } catch (error) {
    return (error as { name?: string }).name === 'ValidationException' ? 'different' : 'unknown';
  }
}

/** Whether DynamoDB takes `attribute` as the table's hash key in a Query condition; undefined: no clear answer. */
export async function isHashKey(
  client: DynamoDBClient,
  table: string,
  attribute: KeyAttribute,
  signal?: AbortSignal,
): Promise<boolean | undefined> {
  try {
    await client.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: '#k = :v',
        ExpressionAttributeNames: { '#k': attribute.name },
        ExpressionAttributeValues: { ':v': probeValue(attribute.type) },
        ProjectionExpression: '#k',
        Limit: 1,
      }),
      { abortSignal: signal },
    );
    return true;
  } catch (error) {
    return (error as { name?: string }).name === 'ValidationException' ? false : undefined;
  }
}
