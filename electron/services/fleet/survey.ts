/**
 * Does a table hold lock items? Detection on a bounded sample answers it for the fleet views (the
 * CLI's `audit --all-tables`, the app's overview): a table without any, or an empty one, is an
 * answer, never an error; only a failed read is.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { detectConvention, type Detection } from '../../../shared/conventions/detect';
import type { KeySchema } from '../../../shared/model';
import { ok, type Result } from '../../../shared/result';
import { startSample, type DetectRequest } from '../context/convention-choice';

/** What a sample says about a table's locks. */
export type TableLocks =
  /** Detection found a convention: its evidence and confidence (below 1: a person should confirm it). */
  | { readonly kind: 'locks'; readonly detection: Detection }
  /** The sample holds items but none that reads as a lock. */
  | { readonly kind: 'no-locks'; readonly sampled: number; readonly why: string }
  /** The sample came back empty. */
  | { readonly kind: 'empty' };

/** Samples `table` and tells whether it holds lock items (a failed read is the only error). */
export async function surveyTable(
  client: DynamoDBClient,
  table: { readonly name: string; readonly keys: KeySchema },
  request: DetectRequest = {},
): Promise<Result<TableLocks>> {
  const sample = await startSample(client, table.name, request);
  if (!sample.ok) return sample;
  if (sample.value.length === 0) return ok({ kind: 'empty' });
  const detected = detectConvention(table.keys, sample.value, request.preset ? { preset: request.preset } : {});
  return ok(
    detected.ok
      ? { kind: 'locks', detection: detected.value }
      : { kind: 'no-locks', sampled: sample.value.length, why: detected.error.message },
  );
}
