/** After an execute: re-read every written item with a consistent GetItem and compare it with what the request wrote. */
import { GetItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Preview } from '../../../shared/transactions/types';
import { expectedWrites, verifyWrites, type Verification } from '../../../shared/transactions/verify';
import { withRetry } from '../dynamo/retry';
import { fromSdkItem, toSdkInput } from './sdk-json';

/** Re-reads the items `preview` wrote (consistent reads) and says whether each is as written. */
export async function rereadWrites(
  client: DynamoDBClient,
  preview: Pick<Preview, 'input' | 'actions'>,
  signal?: AbortSignal,
): Promise<Verification> {
  const expected = expectedWrites(preview.input, preview.actions);
  // Keys go through the same JSON → SDK conversion as the request itself (B as bytes).
  const keys =
    toSdkInput({
      ClientRequestToken: preview.input.ClientRequestToken,
      TransactItems: expected.map((e) => ({ Delete: { TableName: e.table, Key: e.key } })),
    }).TransactItems ?? [];
  const reread = await Promise.all(
    expected.map(async (e, i) => {
      const key = keys[i]?.Delete?.Key;
      if (!key) return undefined;
      const out = await withRetry(
        () => client.send(new GetItemCommand({ TableName: e.table, Key: key, ConsistentRead: true }), { abortSignal: signal }),
        { signal },
      );
      return fromSdkItem(out.Item);
    }),
  );
  return verifyWrites(expected, reread);
}

/** rereadWrites, with a failed re-read reported as "not verified" (the write itself succeeded). */
export async function verifyExecuted(client: DynamoDBClient, preview: Pick<Preview, 'input' | 'actions'>): Promise<Verification> {
  try {
    return await rereadWrites(client, preview);
  } catch (error) {
    return {
      verified: false,
      differences: [
        `the re-read failed (${error instanceof Error ? error.message : String(error)}): the write succeeded but could not be verified`,
      ],
      unchecked: [],
    };
  }
}
