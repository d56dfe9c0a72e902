/**
 * The four built-in presets of DESIGN.md, as functions from a table's key schema and a
 * list of protected attributes to a full Convention.
 *
 * Rule names (what `--rule` takes and reports print):
 * - `uniq`, `marker`: the upper-case tag in the key (`EMAIL`, `HANDLE`, `NAME`).
 * - `aws-blog`: the tag as written in the key (`email`, `userName`), usually the attribute name.
 * - `onetable`: `<Model>.<attribute>` (e.g. `User.email`), mirroring OneTable's `_unique#User#email#…`.
 */
import type { AccountMatcher, Convention, KeySchema, LockKeyTemplate, LockRule, NormalizationStep, PresetName } from '../model';
import { VALUE_PLACEHOLDER } from './format';

/** One protected attribute as a preset takes it; `name` defaults per preset (see the file comment). */
export interface PresetRuleSpec {
  readonly attribute: string;
  /** The tag written in the lock key; defaults to the upper-cased attribute (uniq, marker) or the attribute (aws-blog, onetable). */
  readonly tag?: string;
  readonly normalize?: readonly NormalizationStep[];
}

/** Options shared by every preset builder. */
export interface PresetOptions {
  readonly rules: readonly PresetRuleSpec[];
  readonly ownerAttribute?: string;
  /** uniq: the account key prefix (default `ACCT#`) and range (default `PROFILE`). */
  readonly accountPrefix?: string;
  readonly accountRange?: string;
  /** The sort key of lock items: uniq defaults to `LOCK`; marker and aws-blog (usually hash-only) have none unless given. */
  readonly lockRange?: string;
  /** onetable: the model that owns the rules (default `User`) and the type attribute (default `_type`). */
  readonly model?: string;
  readonly typeAttribute?: string;
  /** Extra hash-key prefixes that mark a lock even when no rule matches (reported as malformed). */
  readonly extraLockPrefixes?: readonly string[];
}

/** Placeholder for OneTable's optional unique scope (`_unique#<scope>#User#email#…`); parsing only. */
export const SCOPE_PLACEHOLDER = '{scope}';

/** The uniq preset's lock prefix and lock range (seed 1). */
export const UNIQ_PREFIX = 'UNIQ#';
/** Range key of every uniq lock. */
export const UNIQ_LOCK_RANGE = 'LOCK';
/** OneTable's current lock prefix and lock sort key. */
export const ONETABLE_PREFIX = '_unique#';
/** OneTable's legacy lock prefix. */
export const ONETABLE_LEGACY_PREFIX = '_Unique:';
/**
 * Sort keys accepted for OneTable's legacy `_Unique:` locks. OneTable's published source only
 * shows the current `_unique#` form; for the legacy form we read `_unique:` (the separator of that
 * era) and also accept `_unique#`, so neither is flagged as a wrong sort key.
 */
export const ONETABLE_LEGACY_RANGES: readonly string[] = ['_unique:', '_unique#'];

const rangeFor = (keys: KeySchema, range: string | undefined): Pick<LockKeyTemplate, 'range'> => (keys.range && range !== undefined ? { range } : {});

function rule(name: string, attribute: string, lockKeys: readonly LockKeyTemplate[], normalize: readonly NormalizationStep[] | undefined): LockRule {
  return { name, attribute, lockKeys, normalize: normalize ?? [] };
}

/** Seed 1: `PK=ACCT#…, SK=PROFILE` accounts; locks `UNIQ#<TAG>#<value>` / `LOCK`. */
export function uniqConvention(keys: KeySchema, options: PresetOptions): Convention {
  const account: AccountMatcher = keys.range
    ? { kind: 'key-prefix', prefix: options.accountPrefix ?? 'ACCT#', range: options.accountRange ?? 'PROFILE' }
    : { kind: 'key-prefix', prefix: options.accountPrefix ?? 'ACCT#' };
  const rules = options.rules.map((r) => {
    const tag = r.tag ?? r.attribute.toUpperCase();
    return rule(tag, r.attribute, [{ hash: `${UNIQ_PREFIX}${tag}#${VALUE_PLACEHOLDER}`, ...rangeFor(keys, options.lockRange ?? UNIQ_LOCK_RANGE) }], r.normalize);
  });
  return finish('uniq', keys, account, rules, [UNIQ_PREFIX, ...(options.extraLockPrefixes ?? [])], options.ownerAttribute);
}

/** Seed 2 (hash-only, e.g. `userId`): locks `<TAG>#<value>` such as `NAME#백과`; accounts are every other item. */
export function markerConvention(keys: KeySchema, options: PresetOptions): Convention {
  const rules = options.rules.map((r) => {
    const tag = r.tag ?? r.attribute.toUpperCase();
    return rule(tag, r.attribute, [{ hash: `${tag}#${VALUE_PLACEHOLDER}`, ...rangeFor(keys, options.lockRange) }], r.normalize);
  });
  return finish('marker', keys, { kind: 'not-lock' }, rules, options.extraLockPrefixes ?? [], options.ownerAttribute);
}

/** AWS blog layout (hash-only): locks `<attr>#<value>` such as `email#…`, `userName#…`; accounts are every other item. */
export function awsBlogConvention(keys: KeySchema, options: PresetOptions): Convention {
  const rules = options.rules.map((r) => {
    const tag = r.tag ?? r.attribute;
    return rule(tag, r.attribute, [{ hash: `${tag}#${VALUE_PLACEHOLDER}`, ...rangeFor(keys, options.lockRange) }], r.normalize);
  });
  return finish('aws-blog', keys, { kind: 'not-lock' }, rules, options.extraLockPrefixes ?? [], options.ownerAttribute);
}

/**
 * OneTable: accounts have `_type = <Model>`; locks `_unique#<Model>#<attr>#<value>` / `_unique#`,
 * scoped `_unique#<scope>#<Model>#<attr>#<value>`, legacy `_Unique:<Model>:<attr>:<value>`.
 */
export function onetableConvention(keys: KeySchema, options: PresetOptions): Convention {
  const model = options.model ?? 'User';
  const rules = options.rules.map((r) => {
    const attr = r.tag ?? r.attribute;
    const lockKeys: LockKeyTemplate[] = [
      { hash: `${ONETABLE_PREFIX}${model}#${attr}#${VALUE_PLACEHOLDER}`, ...rangeFor(keys, ONETABLE_PREFIX) },
      { hash: `${ONETABLE_PREFIX}${SCOPE_PLACEHOLDER}#${model}#${attr}#${VALUE_PLACEHOLDER}`, ...rangeFor(keys, ONETABLE_PREFIX) },
      ...ONETABLE_LEGACY_RANGES.map((range) => ({ hash: `${ONETABLE_LEGACY_PREFIX}${model}:${attr}:${VALUE_PLACEHOLDER}`, ...rangeFor(keys, range) })),
    ];
    return rule(`${model}.${attr}`, r.attribute, lockKeys, r.normalize);
  });
  const account: AccountMatcher = { kind: 'attribute-equals', attribute: options.typeAttribute ?? '_type', value: model };
  // Prefixes scoped to the model: other models' `_unique#Org#…` locks are not this convention's business.
  const prefixes = [`${ONETABLE_PREFIX}${model}#`, `${ONETABLE_LEGACY_PREFIX}${model}:`, ...(options.extraLockPrefixes ?? [])];
  return finish('onetable', keys, account, rules, prefixes, options.ownerAttribute);
}

function finish(
  preset: PresetName,
  keys: KeySchema,
  account: AccountMatcher,
  rules: readonly LockRule[],
  lockPrefixes: readonly string[],
  ownerAttribute: string | undefined,
): Convention {
  const base: Convention = { preset, keys, account, rules, lockPrefixes };
  return ownerAttribute === undefined ? base : { ...base, ownerAttribute };
}

/** Builds the convention of preset `name` for a table. */
export function presetConvention(name: PresetName, keys: KeySchema, options: PresetOptions): Convention {
  switch (name) {
    case 'uniq':
      return uniqConvention(keys, options);
    case 'marker':
      return markerConvention(keys, options);
    case 'onetable':
      return onetableConvention(keys, options);
    case 'aws-blog':
      return awsBlogConvention(keys, options);
  }
}

/** The demo defaults of each preset (the seeds' attributes); detection replaces them with what a table holds. */
export const PRESET_DEFAULTS: Readonly<Record<PresetName, PresetOptions>> = {
  uniq: {
    rules: [
      { attribute: 'email', tag: 'EMAIL', normalize: ['trim', 'lowercase'] },
      { attribute: 'username', tag: 'HANDLE', normalize: ['trim', 'lowercase'] },
    ],
  },
  marker: { rules: [{ attribute: 'name', tag: 'NAME', normalize: ['nfc'] }] },
  onetable: { model: 'User', rules: [{ attribute: 'email' }] },
  'aws-blog': { rules: [{ attribute: 'email', normalize: ['lowercase'] }, { attribute: 'userName' }] },
};

/** The key schema each preset expects when a table is created for it (sandbox, tests). */
export const PRESET_KEYS: Readonly<Record<PresetName, KeySchema>> = {
  uniq: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } },
  marker: { hash: { name: 'userId', type: 'S' } },
  onetable: { hash: { name: 'pk', type: 'S' }, range: { name: 'sk', type: 'S' } },
  'aws-blog': { hash: { name: 'pk', type: 'S' } },
};
