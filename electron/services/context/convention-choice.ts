/**
 * The one convention policy of a request. The app: a convention given by the caller is checked once
 * against the described table (and its lock table); otherwise the saved one; otherwise one detected
 * from a bounded sample. The CLI (electron/cli/convention-source.ts) asks the same way with its own
 * sources — a file, a preset — and uses the same lock-table check and the same detection.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Convention, Item, KeySchema, PresetName } from '../../../shared/model';
import { checkKeysFit, checkLockTable } from '../../../shared/conventions/file';
import { detectConvention, type Detection } from '../../../shared/conventions/detect';
import { err, ok, type Result } from '../../../shared/result';
import { sampleItems } from '../audit/sample';
import type { ErrorContext } from '../dynamo/errors';
import { describeTable } from '../dynamo/tables';
import type { ChosenConvention, ConventionSource, KeyedTableContext } from './request-context';

/** Options of the reads behind a convention choice. */
export interface ChoiceReads {
  readonly local?: boolean;
  readonly signal?: AbortSignal;
  readonly errorContext?: ErrorContext;
}

/**
 * A convention that keeps its locks in another table, checked against that table's description
 * (read here: it must exist and share the accounts table's key attributes). Errors name `lockTable`.
 */
export async function checkLockTableOf(
  client: DynamoDBClient,
  convention: Convention,
  reads: ChoiceReads = {},
): Promise<Result<Convention>> {
  if (convention.lockTable === undefined) return ok(convention);
  const described = await describeTable(client, convention.lockTable, reads);
  if (!described.ok && described.error.kind !== 'not-found') return described;
  return checkLockTable(convention, described.ok ? described.value.keys : undefined);
}

/**
 * Checks a convention the contract's schema already checked in itself against the described table
 * (its key attributes) and its lock table: the only checks left, each made once. Errors name the
 * field as in a convention file (`keys.range`, `lockTable`).
 */
async function checkAgainstTable(ctx: KeyedTableContext, convention: Convention): Promise<Result<Convention>> {
  const checked = checkKeysFit(convention, ctx.table.keys);
  return checked.ok ? checkLockTableOf(ctx.client, checked.value, { local: ctx.local }) : checked;
}

/** What detection reads and how. */
export interface DetectRequest extends ChoiceReads {
  readonly sampleSize?: number;
  readonly segments?: number;
  /** Restrict detection to one preset (the CLI's --preset). */
  readonly preset?: PresetName;
}

/**
 * Samples a table and detects its convention. A failed read comes back with its own kind; a sample
 * that shows no convention comes back as `validation`.
 */
export async function detectFromTable(
  client: DynamoDBClient,
  table: { readonly name: string; readonly keys: KeySchema },
  request: DetectRequest = {},
  started?: Promise<Result<Item[]>>,
): Promise<Result<{ readonly detection: Detection; readonly sample: readonly Item[] }>> {
  const sample = await (started ?? startSample(client, table.name, request));
  if (!sample.ok) return sample;
  const detected = detectSample(table.keys, sample.value, request.preset);
  return detected.ok ? ok({ detection: detected.value, sample: sample.value }) : detected;
}

/** Detections per sample read, by key schema and preset: a sample shared between requests (recent-samples.ts) is detected once. */
const detections = new WeakMap<readonly Item[], Map<string, ReturnType<typeof detectConvention>>>();

/** Detects the convention of a sample: once per sample array, key schema and preset (detection is pure, and on a full sample it is the costliest CPU work of a start). */
export function detectSample(keys: KeySchema, sample: readonly Item[], preset?: PresetName): ReturnType<typeof detectConvention> {
  const key = JSON.stringify([keys.hash, keys.range ?? null, preset ?? null]);
  let bySample = detections.get(sample);
  if (!bySample) detections.set(sample, (bySample = new Map()));
  let detected = bySample.get(key);
  if (!detected) bySample.set(key, (detected = detectConvention(keys, sample, preset ? { preset } : {})));
  return detected;
}

/**
 * Starts reading detection's sample. It needs no description of the table, so a caller that will
 * detect starts it beside its DescribeTable (DynamoDB Local answers that by counting the table's items).
 */
export function startSample(client: DynamoDBClient, table: string, request: DetectRequest = {}): Promise<Result<Item[]>> {
  return sampleItems(client, table, request.sampleSize, {
    ...(request.segments ? { segments: request.segments } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
    ...(request.errorContext ? { errorContext: request.errorContext } : {}),
  });
}

/** Detects the convention of the context's table (from a sample already started, when there is one). */
export function detectForTable(
  ctx: KeyedTableContext,
  sampleSize?: number,
  started?: Promise<Result<Item[]>>,
): ReturnType<typeof detectFromTable> {
  return detectFromTable(ctx.client, ctx.table, { ...(sampleSize ? { sampleSize } : {}), errorContext: ctx.errorContext }, started);
}

/** A check error of a caller's convention, named as the request's `convention` argument. */
function asConventionArgument(error: { readonly message: string; readonly field?: string }): Result<never> {
  const field = error.field ? `convention.${error.field}` : 'convention';
  const message =
    error.field && error.message.startsWith(`${error.field}: `) ? `convention.${error.message}` : `convention: ${error.message}`;
  return err('validation', message, { field });
}

/** The convention of an app request: given (checked once), else saved, else detected (from `sample` when the caller started it). */
export async function chooseConvention<C extends KeyedTableContext>(
  ctx: C,
  given: Convention | undefined,
  saved: Convention | undefined,
  sample?: Promise<Result<Item[]>>,
): Promise<Result<C & ChosenConvention>> {
  const chosen = (convention: Convention, conventionSource: ConventionSource): Result<C & ChosenConvention> =>
    ok({ ...ctx, convention, conventionSource });
  if (given) {
    const checked = await checkAgainstTable(ctx, given);
    if (checked.ok) return chosen(given, 'given');
    return checked.error.kind === 'validation' ? asConventionArgument(checked.error) : checked;
  }
  if (saved) {
    // Saved for a table of that name, maybe before it was re-created with other keys: read with stale
    // keys, every item would be skipped (a "clean" report) and a write would put keys in the wrong attributes.
    const fit = checkKeysFit(saved, ctx.table.keys);
    if (fit.ok) return chosen(saved, 'saved');
    return err(
      'validation',
      `The convention saved for ${ctx.table.name} no longer fits the table (${fit.error.message}): it was re-created with other keys since. Detect the convention again, or save one that fits.`,
      { field: 'convention' },
    );
  }
  const detected = await detectForTable(ctx, undefined, sample);
  return detected.ok ? chosen(detected.value.detection.convention, 'detected') : detected;
}
