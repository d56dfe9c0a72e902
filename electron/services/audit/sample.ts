/** A bounded sample of a table for convention detection: a few pages from every segment, read in parallel. */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/model';
import { ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { toAppError } from '../dynamo/errors';
import type { ErrorContext } from '../dynamo/errors';
import { withRetry } from '../dynamo/retry';

/** Options for sampleItems. */
export interface SampleOptions {
  /** Segments read in parallel; each contributes up to n/segments items. Default 4. */
  readonly segments?: number;
  readonly signal?: AbortSignal;
  readonly errorContext?: ErrorContext;
}

/** Default sample size: enough for detection's evidence, small enough to be instant on any table. */
export const DEFAULT_SAMPLE_SIZE = 2_000;

/**
 * Reads at most `n` items. Segments split the key space, so taking the start of every segment
 * spreads the sample over the table instead of reading only its first partition.
 */
export async function sampleItems(
  client: DynamoDBClient,
  table: string,
  n: number = DEFAULT_SAMPLE_SIZE,
  options: SampleOptions = {},
): Promise<Result<Item[]>> {
  const segments = Math.max(1, Math.min(options.segments ?? 4, Math.max(1, n)));
  const quota = Math.ceil(n / segments);
  const readSegment = async (segment: number): Promise<Item[]> => {
    const out: Item[] = [];
    let startKey: Record<string, AttributeValue> | undefined;
    do {
      const request = {
        TableName: table,
        Segment: segment,
        TotalSegments: segments,
        Limit: Math.min(1_000, quota - out.length),
        ExclusiveStartKey: startKey,
      };
      const page = await withRetry(() => client.send(new ScanCommand(request), { abortSignal: options.signal }), {
        signal: options.signal,
      });
      out.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey && out.length < quota);
    return out.slice(0, quota);
  };
  try {
    const parts = await Promise.all(Array.from({ length: segments }, (_, s) => readSegment(s)));
    return ok(parts.flat().slice(0, n));
  } catch (error) {
    return { ok: false, error: toAppError(error, { ...options.errorContext, table }) };
  }
}
