/**
 * Choosing the convention for a command: a convention file, a preset (rules detected from a
 * sample, the preset's defaults when the sample says nothing), or full auto-detection.
 */
import { readFile } from 'node:fs/promises';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PRESET_NAMES } from '../../shared/model';
import type { Convention, Item, KeySchema, PresetName } from '../../shared/model';
import type { Detection } from '../../shared/conventions/detect';
import { ok, type Result } from '../../shared/result';
import type { ErrorContext } from '../services/dynamo/errors';
import type { FlagValues } from './command';
import { CliError, usageError } from './command';
import { optionalString } from './args';

/** Where the convention came from, and the detection behind it when there was one. */
export interface ResolvedConvention {
  readonly convention: Convention;
  readonly source: 'file' | 'preset' | 'preset-defaults' | 'detected';
  readonly detection?: Detection;
}

/** What resolveConvention needs. */
export interface ConventionRequest {
  /** Sampled for detection, unless `sample` is given. */
  readonly client?: DynamoDBClient;
  /** Where detection's sample comes from instead of a Scan (an export's first items). */
  readonly sample?: () => Promise<Item[]>;
  readonly table: string;
  readonly keys: KeySchema;
  readonly values: FlagValues;
  readonly signal?: AbortSignal;
  readonly errorContext?: ErrorContext;
  readonly segments?: number;
}

/** Validates --preset (pure; exported for tests). */
export function presetFlag(values: FlagValues): PresetName | undefined {
  const preset = optionalString(values, 'preset');
  if (preset === undefined) return undefined;
  if (!(PRESET_NAMES as readonly string[]).includes(preset))
    usageError(`--preset: unknown preset ${JSON.stringify(preset)} (presets: ${PRESET_NAMES.join(', ')})`, 'preset');
  return preset as PresetName;
}

/** Reads and checks a convention file; errors name the file and the bad field. */
export async function loadConventionFile(path: string, keys: KeySchema): Promise<Convention> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new CliError({ kind: 'validation', message: `--convention: cannot read ${path} (${code})`, field: 'convention' });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError({
      kind: 'validation',
      message: `${path}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      field: 'convention',
    });
  }
  const { parseConventionFile } = await import('../../shared/conventions/file');
  const parsed = parseConventionFile(json, keys);
  if (!parsed.ok) throw new CliError({ ...parsed.error, message: `${path}: ${parsed.error.message}` });
  return parsed.value;
}

/** Samples the table and runs detection (optionally restricted to one preset): the app's detection, or an export's sample. */
async function detectFromSample(request: ConventionRequest, preset?: PresetName): Promise<Result<Detection>> {
  if (request.sample || !request.client) {
    const { detectConvention } = await import('../../shared/conventions/detect');
    return detectConvention(request.keys, request.sample ? await request.sample() : [], preset ? { preset } : {});
  }
  const { detectFromTable } = await import('../services/context/convention-choice');
  const detected = await detectFromTable(
    request.client,
    { name: request.table, keys: request.keys },
    { segments: request.segments, signal: request.signal, errorContext: request.errorContext, ...(preset ? { preset } : {}) },
  );
  // A failed read is an error of its own (exit 2), not "nothing detected".
  if (!detected.ok && detected.error.kind !== 'validation') throw new CliError(detected.error);
  return detected.ok ? ok(detected.value.detection) : detected;
}

/**
 * The preset's documented defaults for a table whose sample shows no locks, checked against its
 * keys. marker and aws-blog locks carry no sort key of their own: on a table with one, the lock's
 * sort key can only be learnt from existing locks, so without any this refuses instead of guessing.
 */
export async function presetDefaults(preset: PresetName, keys: KeySchema, table: string, why: string): Promise<Convention> {
  const [{ presetConvention, PRESET_DEFAULTS }, { checkConvention }] = await Promise.all([
    import('../../shared/conventions/presets'),
    import('../../shared/conventions/file'),
  ]);
  const instead = 'write a convention file and pass it with --convention (see FORMAT.md)';
  if ((preset === 'marker' || preset === 'aws-blog') && keys.range) {
    throw new CliError({
      kind: 'validation',
      field: 'preset',
      message: `--preset ${preset}: ${table} has a sort key (${keys.range.name}) and the sample shows no locks to learn the lock items' sort key value from (${why})`,
      fix: instead,
    });
  }
  const checked = checkConvention(presetConvention(preset, keys, PRESET_DEFAULTS[preset]), keys);
  if (!checked.ok) {
    throw new CliError({
      kind: 'validation',
      field: 'preset',
      message: `--preset ${preset}: the preset's defaults do not fit ${table}: ${checked.error.message} (and detection found nothing: ${why})`,
      fix: instead,
    });
  }
  return checked.value;
}

/** A convention file's lock table, checked by the app's one check: it exists and shares the accounts table's key attributes. */
async function withLockTable(request: ConventionRequest, convention: Convention): Promise<Convention> {
  if (convention.lockTable === undefined) return convention;
  if (request.client === undefined) {
    // An export holds one table: its locks would all be missing. Say so rather than report them missing.
    throw new CliError({
      kind: 'validation',
      field: 'convention',
      message: `--convention: the convention keeps its locks in ${convention.lockTable}; an audit from one table's export cannot see them (audit the live tables instead)`,
    });
  }
  const { checkLockTableOf } = await import('../services/context/convention-choice');
  const checked = await checkLockTableOf(request.client, convention, { signal: request.signal, errorContext: request.errorContext });
  if (checked.ok) return checked.value;
  throw new CliError(
    checked.error.kind === 'validation' ? { ...checked.error, message: `--convention: ${checked.error.message}` } : checked.error,
  );
}

/** Resolves the convention from --convention, --preset, or detection. */
export async function resolveConvention(request: ConventionRequest): Promise<ResolvedConvention> {
  const file = optionalString(request.values, 'convention');
  const preset = presetFlag(request.values);
  if (file !== undefined && preset !== undefined) usageError('use either --preset or --convention, not both', 'preset');
  if (file !== undefined) return { convention: await withLockTable(request, await loadConventionFile(file, request.keys)), source: 'file' };
  const detected = await detectFromSample(request, preset);
  if (detected.ok) return { convention: detected.value.convention, source: preset ? 'preset' : 'detected', detection: detected.value };
  if (preset) {
    // The sample shows nothing to learn from (e.g. an empty table): the preset's documented defaults still apply.
    return { convention: await presetDefaults(preset, request.keys, request.table, detected.error.message), source: 'preset-defaults' };
  }
  throw new CliError({ ...detected.error, message: `cannot detect the convention of ${request.table}: ${detected.error.message}` });
}
