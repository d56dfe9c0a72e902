/**
 * Does a table hold lock items? Detection on a bounded sample answers it for the fleet views (the
 * CLI's `audit --all-tables`, the app's overview): a table without any, or an empty one, is an
 * answer, never an error; only a failed read is.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Detection } from '../../../shared/conventions/detect';
import type { Item, KeySchema } from '../../../shared/model';
import { ok, type Result } from '../../../shared/result';
import { detectSample, startSample, type DetectRequest } from '../context/convention-choice';
import type { RecentSamples } from './recent-samples';

/** What a sample says about a table's locks. */
export type TableLocks =
  /** Detection found a convention: its evidence and confidence (below 1: a person should confirm it). */
  | { readonly kind: 'locks'; readonly detection: Detection }
  /** The sample holds items but none that reads as a lock. */
  | { readonly kind: 'no-locks'; readonly sampled: number; readonly why: string }
  /** The sample came back empty. */
  | { readonly kind: 'empty' };

/** How the app runs a survey beside the table a person opens (the CLI's fleet audit needs neither). */
export interface SurveyPacing {
  /** Awaited before the read and before detection, the survey's two costly steps (the app: until no table is being opened). */
  readonly yieldTo?: () => Promise<void>;
  /** Shares the sample with the audit start of the same table. */
  readonly samples?: RecentSamples;
}

/** Samples `table` and tells whether it holds lock items (a failed read is the only error). */
export async function surveyTable(
  client: DynamoDBClient,
  table: { readonly name: string; readonly keys: KeySchema },
  request: DetectRequest = {},
  pacing: SurveyPacing = {},
): Promise<Result<TableLocks>> {
  await pacing.yieldTo?.();
  const read = (): Promise<Result<Item[]>> => startSample(client, table.name, request);
  const sample = await (pacing.samples ? pacing.samples.sample(client, table.name, read) : read());
  if (!sample.ok) return sample;
  if (sample.value.length === 0) return ok({ kind: 'empty' });
  await pacing.yieldTo?.();
  const detected = detectSample(table.keys, sample.value, request.preset);
  return ok(
    detected.ok
      ? { kind: 'locks', detection: detected.value }
      : { kind: 'no-locks', sampled: sample.value.length, why: detected.error.message },
  );
}
