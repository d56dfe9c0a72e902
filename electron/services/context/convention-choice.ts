/**
 * The one convention policy of a request, for the app and the CLI alike: a convention given by the
 * caller is checked once against the described table (and its lock table); otherwise a saved one
 * is used; otherwise one is detected from a bounded sample of the table.
 */
import type { Convention, Item } from '../../../shared/model';
import { checkConvention, checkLockTable } from '../../../shared/conventions/file';
import { detectConvention, type Detection, type DetectOptions } from '../../../shared/conventions/detect';
import { err, ok, type Result } from '../../../shared/result';
import { sampleItems } from '../audit/sample';
import { describeTable } from '../dynamo/tables';
import type { ConventionContext, ConventionSource, TableContext } from './request-context';

/**
 * Checks a convention against the described table and, when it keeps its locks elsewhere, against
 * that table's description (read here, the only DescribeTable besides the request's own).
 * Errors name the field as in a convention file (`keys.range`, `lockTable`).
 */
export async function checkAgainstTable(ctx: TableContext, convention: Convention): Promise<Result<Convention>> {
  const checked = checkConvention(convention, ctx.table.keys);
  if (!checked.ok || convention.lockTable === undefined) return checked;
  const lockTable = await describeTable(ctx.client, convention.lockTable, { local: ctx.local });
  if (!lockTable.ok && lockTable.error.kind !== 'not-found') return lockTable;
  return checkLockTable(checked.value, lockTable.ok ? lockTable.value.keys : undefined);
}

/** Detects the convention from a bounded sample of the described table. */
export async function detectForTable(ctx: TableContext, sampleSize?: number, options: DetectOptions & { readonly signal?: AbortSignal } = {}): Promise<Result<{ readonly detection: Detection; readonly sample: readonly Item[] }>> {
  const sample = await sampleItems(ctx.client, ctx.table.name, sampleSize, { errorContext: ctx.errorContext, ...(options.signal ? { signal: options.signal } : {}) });
  if (!sample.ok) return sample;
  const { signal: _signal, ...detectOptions } = options;
  const detected = detectConvention(ctx.table.keys, sample.value, detectOptions);
  return detected.ok ? ok({ detection: detected.value, sample: sample.value }) : detected;
}

/** A check error of a caller's convention, named as the request's `convention` argument. */
export function asConventionArgument(error: { readonly message: string; readonly field?: string }): Result<never> {
  const field = error.field ? `convention.${error.field}` : 'convention';
  const message = error.field && error.message.startsWith(`${error.field}: `) ? `convention.${error.message}` : `convention: ${error.message}`;
  return err('validation', message, { field });
}

/** The convention of a request: given (checked once), else saved, else detected. */
export async function chooseConvention(ctx: TableContext, given: Convention | undefined, saved: () => Promise<Convention | undefined>): Promise<Result<ConventionContext>> {
  const chosen = (convention: Convention, conventionSource: ConventionSource): Result<ConventionContext> => ok({ ...ctx, convention, conventionSource });
  if (given) {
    const checked = await checkAgainstTable(ctx, given);
    if (checked.ok) return chosen(given, 'given');
    return checked.error.kind === 'validation' ? asConventionArgument(checked.error) : checked;
  }
  const kept = await saved();
  if (kept) return chosen(kept, 'saved');
  const detected = await detectForTable(ctx);
  return detected.ok ? chosen(detected.value.detection.convention, 'detected') : detected;
}
