/**
 * The built-in presets (DESIGN.md's four, and ElectroDB's constraint entity), as functions from a table's key schema and a
 * list of protected attributes to a full Convention.
 *
 * Rule names (what `--rule` takes and reports print):
 * - `uniq`, `marker`: the upper-case tag in the key (`EMAIL`, `HANDLE`, `NAME`).
 * - `aws-blog`: the tag as written in the key (`email`, `userName`), usually the attribute name.
 * - `onetable`: `<Model>.<attribute>` (e.g. `User.email`), mirroring OneTable's `_unique#User#email#…`.
 * - `electrodb`: `<entity>.<name>` (e.g. `user.email`), the constraint's `name` and `entity`.
 */
import type { AccountMatcher, Convention, KeySchema, LockKeyTemplate, LockRule, NormalizationStep, PresetName } from '../model';
import { VALUE_PLACEHOLDER } from './format';

/** One protected attribute as a preset takes it; `name` defaults per preset (see the file comment). */
export interface PresetRuleSpec {
  readonly attribute: string;
  /** The account attribute the value is unique within (OneTable's `scope: '${orgId}'`), when scoped. */
  readonly scope?: string;
  /** `N` when accounts store the value as a number. */
  readonly valueType?: 'S' | 'N';
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
  /** electrodb: the service name, the constraint entity and its version, the entity holding the values, the GSI key fields of the constraint entity. */
  readonly service?: string;
  readonly constraintEntity?: string;
  readonly constraintVersion?: string;
  readonly accountEntity?: string;
  readonly gsiFields?: readonly [string, string];
}

/** The name of the scope placeholder presets write (OneTable's `_unique#<scope>#User#email#…`). */
export const SCOPE_NAME = 'scope';
/** Placeholder for a preset rule's scope: OneTable's optional unique scope. */
export const SCOPE_PLACEHOLDER = '{scope}';
/** The `_type` OneTable writes on its unique items. */
export const ONETABLE_UNIQUE_TYPE = '_Unique';
/** ElectroDB's entity and version attributes. */
export const ELECTRODB_ENTITY = '__edb_e__';
export const ELECTRODB_VERSION = '__edb_v__';

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

const rangeFor = (keys: KeySchema, range: string | undefined): Pick<LockKeyTemplate, 'range'> =>
  keys.range && range !== undefined ? { range } : {};

function rule(
  name: string,
  attribute: string,
  lockKeys: readonly LockKeyTemplate[],
  normalize: readonly NormalizationStep[] | undefined,
  extra: Partial<Pick<LockRule, 'scope' | 'lockItem' | 'valueType'>> = {},
): LockRule {
  const out: LockRule = { name, attribute, lockKeys, normalize: normalize ?? [] };
  return {
    ...out,
    ...(extra.scope ? { scope: extra.scope } : {}),
    ...(extra.lockItem ? { lockItem: extra.lockItem } : {}),
    ...(extra.valueType === 'N' ? { valueType: 'N' as const } : {}),
  };
}

const numberType = (r: PresetRuleSpec): Partial<Pick<LockRule, 'valueType'>> => (r.valueType === 'N' ? { valueType: 'N' } : {});

/** Seed 1: `PK=ACCT#…, SK=PROFILE` accounts; locks `UNIQ#<TAG>#<value>` / `LOCK`. */
export function uniqConvention(keys: KeySchema, options: PresetOptions): Convention {
  const account: AccountMatcher = keys.range
    ? { kind: 'key-prefix', prefix: options.accountPrefix ?? 'ACCT#', range: options.accountRange ?? 'PROFILE' }
    : { kind: 'key-prefix', prefix: options.accountPrefix ?? 'ACCT#' };
  const rules = options.rules.map((r) => {
    const tag = r.tag ?? r.attribute.toUpperCase();
    const scope = r.scope === undefined ? {} : { scope: { [SCOPE_NAME]: r.scope } };
    const hash =
      r.scope === undefined
        ? `${UNIQ_PREFIX}${tag}#${VALUE_PLACEHOLDER}`
        : `${UNIQ_PREFIX}${tag}#${SCOPE_PLACEHOLDER}#${VALUE_PLACEHOLDER}`;
    return rule(tag, r.attribute, [{ hash, ...rangeFor(keys, options.lockRange ?? UNIQ_LOCK_RANGE) }], r.normalize, {
      ...scope,
      ...numberType(r),
    });
  });
  return finish('uniq', keys, account, rules, [UNIQ_PREFIX, ...(options.extraLockPrefixes ?? [])], options.ownerAttribute);
}

/** Seed 2 (hash-only, e.g. `userId`): locks `<TAG>#<value>` such as `NAME#백과`; accounts are every other item. */
export function markerConvention(keys: KeySchema, options: PresetOptions): Convention {
  const rules = options.rules.map((r) => {
    const tag = r.tag ?? r.attribute.toUpperCase();
    return rule(
      tag,
      r.attribute,
      [{ hash: `${tag}#${VALUE_PLACEHOLDER}`, ...rangeFor(keys, options.lockRange) }],
      r.normalize,
      numberType(r),
    );
  });
  return finish('marker', keys, { kind: 'not-lock' }, rules, options.extraLockPrefixes ?? [], options.ownerAttribute);
}

/** AWS blog layout (hash-only): locks `<attr>#<value>` such as `email#…`, `userName#…`; accounts are every other item. */
export function awsBlogConvention(keys: KeySchema, options: PresetOptions): Convention {
  const rules = options.rules.map((r) => {
    const tag = r.tag ?? r.attribute;
    return rule(
      tag,
      r.attribute,
      [{ hash: `${tag}#${VALUE_PLACEHOLDER}`, ...rangeFor(keys, options.lockRange) }],
      r.normalize,
      numberType(r),
    );
  });
  return finish('aws-blog', keys, { kind: 'not-lock' }, rules, options.extraLockPrefixes ?? [], options.ownerAttribute);
}

/**
 * OneTable: accounts have `_type = <Model>`; locks `_unique#<Model>#<attr>#<value>` / `_unique#`,
 * scoped `_unique#<scope>#<Model>#<attr>#<value>`, legacy `_Unique:<Model>:<attr>:<value>`.
 */
export function onetableConvention(keys: KeySchema, options: PresetOptions): Convention {
  const model = options.model ?? 'User';
  const typeAttribute = options.typeAttribute ?? '_type';
  // OneTable's unique model writes its type on every lock; `table.scan` by type and migrations rely on it.
  const lockItem = { [typeAttribute]: ONETABLE_UNIQUE_TYPE };
  const rules = options.rules.map((r) => {
    const attr = r.tag ?? r.attribute;
    const scoped = `${ONETABLE_PREFIX}${SCOPE_PLACEHOLDER}#${model}#${attr}#${VALUE_PLACEHOLDER}`;
    // A scoped field's lock is only ever the scoped key (OneTable checks nothing else). An unscoped
    // rule keeps the scoped form unmapped, so a scoped lock shows up as malformed (scope not declared)
    // instead of vanishing from the audit.
    const lockKeys: LockKeyTemplate[] =
      r.scope !== undefined
        ? [{ hash: scoped, ...rangeFor(keys, ONETABLE_PREFIX) }]
        : [
            { hash: `${ONETABLE_PREFIX}${model}#${attr}#${VALUE_PLACEHOLDER}`, ...rangeFor(keys, ONETABLE_PREFIX) },
            { hash: scoped, ...rangeFor(keys, ONETABLE_PREFIX) },
            ...ONETABLE_LEGACY_RANGES.map((range) => ({
              hash: `${ONETABLE_LEGACY_PREFIX}${model}:${attr}:${VALUE_PLACEHOLDER}`,
              ...rangeFor(keys, range),
            })),
          ];
    return rule(`${model}.${attr}`, r.attribute, lockKeys, r.normalize, {
      lockItem,
      ...(r.scope === undefined ? {} : { scope: { [SCOPE_NAME]: r.scope } }),
      ...numberType(r),
    });
  });
  const account: AccountMatcher = { kind: 'attribute-equals', attribute: typeAttribute, value: model };
  // Prefixes scoped to the model: other models' `_unique#Org#…` locks are not this convention's business.
  const prefixes = [`${ONETABLE_PREFIX}${model}#`, `${ONETABLE_LEGACY_PREFIX}${model}:`, ...(options.extraLockPrefixes ?? [])];
  return finish('onetable', keys, account, rules, prefixes, options.ownerAttribute);
}

/**
 * ElectroDB's documented unique constraint (electrodb.dev, "Transact Write"): a `constraint` entity
 * keyed by the value — pk `$<service>#value_<value>`, sk `$constraint_<version>#name_<name>#entity_<entity>`,
 * ElectroDB lower-cases both keys — written in the same `service.transaction.write` as the account
 * (`__edb_e__ = <entity>`). ElectroDB's own reads (`constraint.get`, the name index) find only items
 * that also carry the entity's attributes, so the lock item template writes them all.
 */
export function electrodbConvention(keys: KeySchema, options: PresetOptions): Convention {
  const service = (options.service ?? 'app').toLowerCase();
  const constraint = options.constraintEntity ?? 'constraint';
  const version = options.constraintVersion ?? '1';
  const entity = options.accountEntity ?? 'user';
  const [gsiPk, gsiSk] = options.gsiFields ?? ['gsi1pk', 'gsi1sk'];
  const lower = (text: string): string => text.toLowerCase();
  const rules = options.rules.map((r) => {
    const name = r.tag ?? r.attribute;
    const range = lower(`$${constraint}_${version}#name_${name}#entity_${entity}`);
    const lockItem: Record<string, string> = {
      name,
      value: '{raw}',
      entity,
      [gsiPk]: lower(`$${service}#name_${name}#entity_${entity}`),
      [gsiSk]: `${lower(`$${constraint}_${version}#value_`)}${VALUE_PLACEHOLDER}`,
      [ELECTRODB_ENTITY]: constraint,
      [ELECTRODB_VERSION]: version,
    };
    // The key holds the value lower-cased: the join must fold case too, whatever the rule says.
    const normalize: NormalizationStep[] = [...(r.normalize ?? [])];
    if (!normalize.includes('lowercase')) normalize.push('lowercase');
    return rule(
      `${entity}.${name}`,
      r.attribute,
      [{ hash: `$${service}#value_${VALUE_PLACEHOLDER}`, ...rangeFor(keys, range) }],
      normalize,
      { lockItem, ...numberType(r) },
    );
  });
  const account: AccountMatcher = { kind: 'attribute-equals', attribute: ELECTRODB_ENTITY, value: entity };
  return finish('electrodb', keys, account, rules, options.extraLockPrefixes ?? [], options.ownerAttribute);
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
    case 'electrodb':
      return electrodbConvention(keys, options);
  }
}

/**
 * The normalization each library-modelling preset's library applies to a value before writing its
 * lock, which detection takes as it is (never inferred from a sample): dynamodb-onetable writes
 * `_unique#User#email#${value}` as given, the AWS reference code `email#${user.email}` as given,
 * ElectroDB lower-cases its keys (its default key casing). uniq and marker model an application's
 * own code: their steps are inferred from the sample.
 */
export const LIBRARY_NORMALIZATION: Readonly<Partial<Record<PresetName, readonly NormalizationStep[]>>> = {
  onetable: [],
  'aws-blog': [],
  electrodb: ['lowercase'],
};

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
  // The reference code writes `email#${user.email}` as given: no normalization (LIBRARY_NORMALIZATION).
  'aws-blog': { rules: [{ attribute: 'email' }, { attribute: 'userName' }] },
  electrodb: { service: 'app', accountEntity: 'user', rules: [{ attribute: 'email' }] },
};

/** The key schema each preset expects when a table is created for it (sandbox, tests). */
export const PRESET_KEYS: Readonly<Record<PresetName, KeySchema>> = {
  uniq: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } },
  marker: { hash: { name: 'userId', type: 'S' } },
  onetable: { hash: { name: 'pk', type: 'S' }, range: { name: 'sk', type: 'S' } },
  'aws-blog': { hash: { name: 'pk', type: 'S' } },
  electrodb: { hash: { name: 'pk', type: 'S' }, range: { name: 'sk', type: 'S' } },
};
