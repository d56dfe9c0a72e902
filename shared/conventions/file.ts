/**
 * The convention file: JSON a person can read, edit and keep next to their table
 * (format described in FORMAT.md). Shape is checked with zod; cross-field rules (templates
 * vs. the key schema, unique rule names) are checked after, each error naming its field.
 */
import { z } from 'zod';
import { MAX_NAME_LENGTH, MAX_TEMPLATE_LENGTH, tableNameSchema } from '../contract/arg-limits';
import type { Convention, KeySchema, LockRule, NormalizationStep } from '../model';
import { formatFieldPath } from '../field-path';
import { PRESET_NAMES } from '../model';
import { err, ok, type Result } from '../result';
import { isReservedPlaceholder, lockKeyProblem, scopeNamesOf, splitPlaceholders, VALUE_NAME } from './template';

/** The current convention file format version: 2 adds scopes, lock item templates, number values and a lock table. */
export const CONVENTION_FILE_VERSION = 2 as const;

/** A v1 placeholder that OneTable presets carry without saying which attribute fills it (its locks read as malformed). */
const LEGACY_SCOPE = 'scope';

// The same bounds as the bridge's convention schema (shared/contract/arg-limits.ts): a convention
// file is user input too, and a 20 MB rule name must be refused, not carried into every report.
const name = () => z.string().min(1, 'must not be empty').max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`);
const text = () => z.string().max(MAX_TEMPLATE_LENGTH, `must be at most ${MAX_TEMPLATE_LENGTH} characters`);

const keyAttribute = z.strictObject({
  name: name(),
  type: z.enum(['S', 'N', 'B']),
});

const placeholderName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a placeholder name (letters, digits, _)')
  .refine((n) => !isReservedPlaceholder(n), 'is a name every JavaScript object already has: choose another');

// Each key attribute's template is read on its own, and {value} must stand in one of them (template.ts lockKeyProblem).
const lockKey = z
  .strictObject({
    hash: text(),
    range: text().min(1, 'must not be empty').optional(),
  })
  .superRefine((t, ctx) => {
    const problem = lockKeyProblem(t);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem.message, path: [problem.field] });
  });

/** One lock rule, shared by the convention file and the bridge's convention schema. */
export const lockRuleSchema = z.strictObject({
  name: name(),
  attribute: name(),
  lockKeys: z.array(lockKey).min(1, 'needs at least one lock key template').max(8, 'at most 8 lock key templates').readonly(),
  normalize: z
    .array(z.enum(['trim', 'lowercase', 'nfc'] satisfies readonly NormalizationStep[]))
    .max(3)
    .readonly()
    .default([]),
  scope: z
    .record(placeholderName, name())
    .refine((s) => Object.keys(s).length <= 4, 'at most 4 scope placeholders')
    .readonly()
    .optional(),
  lockItem: z
    .record(name(), text())
    .refine((s) => Object.keys(s).length <= 16, 'at most 16 lock item attributes')
    .readonly()
    .optional(),
  valueType: z.enum(['S', 'N']).optional(),
});

/** How account items are recognised, shared by the convention file and the bridge's convention schema. */
export const accountMatcherSchema = z.discriminatedUnion('kind', [
  z
    .strictObject({ kind: z.literal('key-prefix'), prefix: text(), range: text().min(1, 'must not be empty').optional() })
    // An empty prefix is meaningful only with a range (accounts keyed by bare ids, told apart by `SK = PROFILE`).
    .refine((a) => a.prefix !== '' || a.range !== undefined, {
      path: ['prefix'],
      message: 'must not be empty without a range (use {"kind": "not-lock"} for every item that is not a lock)',
    }),
  z.strictObject({ kind: z.literal('attribute-equals'), attribute: name(), value: text() }),
  z.strictObject({ kind: z.literal('not-lock') }),
]);

/** A table's key schema, shared by the convention file and the bridge's convention schema. */
export const keySchemaSchema = z.strictObject({ hash: keyAttribute, range: keyAttribute.optional() });

/** Preset names a convention may carry. */
export const presetOrCustomSchema = z.enum(['custom', ...PRESET_NAMES] as [Convention['preset'], ...Convention['preset'][]]);

/** The JSON schema of a convention file (zod). */
export const conventionFileSchema = z.strictObject({
  version: z
    .union([z.literal(1), z.literal(CONVENTION_FILE_VERSION)], {
      error: (issue) =>
        typeof issue.input === 'number' && issue.input > CONVENTION_FILE_VERSION
          ? `${issue.input} is a newer format than this Locksmith reads (versions 1 and ${CONVENTION_FILE_VERSION}): update Locksmith, or save the convention again from this version`
          : `must be 1 or ${CONVENTION_FILE_VERSION}`,
    })
    .default(CONVENTION_FILE_VERSION),
  preset: presetOrCustomSchema.default('custom'),
  keys: keySchemaSchema.optional(),
  account: accountMatcherSchema,
  rules: z.array(lockRuleSchema).min(1, 'needs at least one rule').max(32, 'at most 32 rules'),
  lockPrefixes: z.array(name()).max(16, 'at most 16 lock prefixes').default([]),
  ownerAttribute: name().optional(),
  lockTable: tableNameSchema.optional(),
});

/** A convention file as written on disk. */
export type ConventionFile = z.input<typeof conventionFileSchema>;

/**
 * Parses and checks a convention file. `tableKeys` (from DescribeTable) fills in a file
 * without `keys` and must agree with a file that has them.
 */
export function parseConventionFile(json: unknown, tableKeys?: KeySchema): Result<Convention> {
  const parsed = conventionFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      const field = formatFieldPath([...issue.path, issue.keys[0] ?? '']);
      return err('validation', `${field}: unknown field (check its spelling against the format)`, { field });
    }
    const field = formatFieldPath(issue.path);
    return err('validation', `${field === '' ? 'convention file' : field}: ${issue.message}`, { field });
  }
  const file = parsed.data;
  const keys: KeySchema | undefined = file.keys ?? tableKeys;
  if (!keys)
    return err('validation', 'keys: required (the table key schema), or give the table so it can be read from DescribeTable', {
      field: 'keys',
    });
  if (file.keys && tableKeys) {
    const mismatch = compareKeys(file.keys, tableKeys);
    if (mismatch) return err('validation', mismatch.message, { field: mismatch.field });
  }
  const names = new Set<string>();
  // Lock key (hash + range) → where it was first seen: a second identical template could never match.
  const templates = new Map<string, string>();
  for (const [i, r] of file.rules.entries()) {
    if (names.has(r.name)) return err('validation', `rules[${i}].name: duplicate rule name \`${r.name}\``, { field: `rules[${i}].name` });
    names.add(r.name);
    for (const [j, t] of r.lockKeys.entries()) {
      const field = `rules[${i}].lockKeys[${j}].range`;
      if (keys.range && t.range === undefined)
        return err('validation', `${field}: required, the table has a sort key (${keys.range.name})`, { field });
      if (!keys.range && t.range !== undefined) return err('validation', `${field}: must be absent, the table has no sort key`, { field });
      // Locks are read from string keys only (a numeric `LOCK` cannot exist): refuse rather than report every lock malformed.
      if (keys.range && keys.range.type !== 'S')
        return err(
          'validation',
          `${field}: the table's sort key ${keys.range.name} is of type ${keys.range.type}; lock sort keys must be strings (S)`,
          { field },
        );
      if (keys.hash.type !== 'S')
        return err('validation', `keys.hash.type: locks need a string (S) hash key; this table's is ${keys.hash.type}`, {
          field: 'keys.hash.type',
        });
      const id = JSON.stringify([t.hash, t.range ?? null]);
      const first = templates.get(id);
      const at = `rules[${i}].lockKeys[${j}]`;
      if (first !== undefined)
        return err('validation', `${at}.hash: the same lock key as ${first}; one of them could never match`, { field: `${at}.hash` });
      templates.set(id, at);
    }
    const scoped = checkScope(r, i, keys);
    if (scoped) return err('validation', scoped.message, { field: scoped.field });
    const item = checkLockItem(r, i, keys, file.ownerAttribute);
    if (item) return err('validation', item.message, { field: item.field });
  }
  if (file.account.kind === 'key-prefix' && keys.hash.type !== 'S') {
    return err('validation', `account: a key-prefix matcher needs a string (S) hash key; this table's is ${keys.hash.type}`, {
      field: 'account',
    });
  }
  if (file.account.kind === 'key-prefix' && file.account.range !== undefined && !keys.range) {
    return err('validation', 'account.range: must be absent, the table has no sort key', { field: 'account.range' });
  }
  const acct = file.account;
  const accountMatcher: Convention['account'] =
    acct.kind === 'key-prefix'
      ? acct.range === undefined
        ? { kind: 'key-prefix', prefix: acct.prefix }
        : { kind: 'key-prefix', prefix: acct.prefix, range: acct.range }
      : acct;
  const convention: Convention = {
    preset: file.preset,
    keys: keys.range ? { hash: { ...keys.hash }, range: { ...keys.range } } : { hash: { ...keys.hash } },
    account: accountMatcher,
    rules: file.rules.map(toRule),
    lockPrefixes: file.lockPrefixes,
    ...(file.ownerAttribute === undefined ? {} : { ownerAttribute: file.ownerAttribute }),
    ...(file.lockTable === undefined ? {} : { lockTable: file.lockTable }),
  };
  return ok(convention);
}

/** A parsed rule as a model rule: optional fields only when present, so v1 rules stay exactly v1. */
function toRule(r: z.output<typeof lockRuleSchema>): LockRule {
  return {
    name: r.name,
    attribute: r.attribute,
    lockKeys: r.lockKeys.map((t) => (t.range === undefined ? { hash: t.hash } : { hash: t.hash, range: t.range })),
    normalize: r.normalize,
    ...(r.scope === undefined || Object.keys(r.scope).length === 0 ? {} : { scope: { ...r.scope } }),
    ...(r.lockItem === undefined || Object.keys(r.lockItem).length === 0 ? {} : { lockItem: { ...r.lockItem } }),
    ...(r.valueType === undefined || r.valueType === 'S' ? {} : { valueType: r.valueType }),
  };
}

type FieldError = { field: string; message: string };

/**
 * A scoped rule: every placeholder of every template is mapped to an account attribute (the v1
 * `{scope}` of OneTable presets excepted: its locks read as malformed until it is mapped), every
 * mapped placeholder appears in every template (else a lock could not tell its scope), and no
 * scope attribute is the value's own attribute or a key attribute.
 */
function checkScope(r: z.output<typeof lockRuleSchema>, i: number, keys: KeySchema): FieldError | undefined {
  const scope = r.scope ?? {};
  for (const [j, t] of r.lockKeys.entries()) {
    const fields = [['hash', t.hash] as const, ...(t.range === undefined ? [] : [['range', t.range] as const])];
    for (const [attribute, template] of fields) {
      for (const n of scopeNamesOf(template)) {
        if (!Object.hasOwn(scope, n) && n !== LEGACY_SCOPE) {
          const field = `rules[${i}].lockKeys[${j}].${attribute}`;
          return {
            field,
            message: `${field}: the placeholder {${n}} has no attribute: add "scope": {"${n}": "<account attribute>"} to rules[${i}]`,
          };
        }
      }
    }
    const names = fields.flatMap(([, template]) => scopeNamesOf(template));
    for (const n of Object.keys(scope)) {
      if (!names.includes(n)) {
        const field = `rules[${i}].scope.${n}`;
        return {
          field,
          message: `${field}: the placeholder {${n}} is missing from lockKeys[${j}] (${[t.hash, t.range].filter((x) => x !== undefined).join(' / ')}); every lock key of a scoped rule must carry its scope`,
        };
      }
    }
  }
  const keyNames = [keys.hash.name, ...(keys.range ? [keys.range.name] : [])];
  for (const [n, attribute] of Object.entries(scope)) {
    const field = `rules[${i}].scope.${n}`;
    if (n === VALUE_NAME) return { field, message: `${field}: {value} is the rule's own value (attribute ${r.attribute}), not a scope` };
    if (attribute === r.attribute)
      return { field, message: `${field}: the scope attribute cannot be the protected attribute ${r.attribute} itself` };
    if (keyNames.includes(attribute))
      return { field, message: `${field}: ${attribute} is a key attribute; a scope is an account attribute such as orgId` };
  }
  return undefined;
}

/** Lock item templates: never a key attribute or the owner attribute (Locksmith writes those), only known placeholders. */
function checkLockItem(
  r: z.output<typeof lockRuleSchema>,
  i: number,
  keys: KeySchema,
  ownerAttribute: string | undefined,
): FieldError | undefined {
  const allowed = new Set([VALUE_NAME, 'raw', 'rule', ...Object.keys(r.scope ?? {})]);
  for (const [attribute, template] of Object.entries(r.lockItem ?? {})) {
    const field = `rules[${i}].lockItem.${attribute}`;
    if (attribute === keys.hash.name || attribute === keys.range?.name)
      return {
        field,
        message: `${field}: ${attribute} is a key attribute of the table; a lock item template would overwrite the lock's key`,
      };
    if (attribute === ownerAttribute)
      return { field, message: `${field}: ${attribute} is the owner attribute, which Locksmith writes itself (the holder's key)` };
    const unknown = splitPlaceholders(template).names.find((n) => !allowed.has(n));
    if (unknown !== undefined)
      return {
        field,
        message: `${field}: unknown placeholder {${unknown}} (use {value}, {raw}, {rule}${r.scope ? " or the rule's scope placeholders" : ''})`,
      };
  }
  return undefined;
}

function compareKeys(file: KeySchema, table: KeySchema): { field: string; message: string } | undefined {
  if (file.hash.name !== table.hash.name || file.hash.type !== table.hash.type) {
    return {
      field: 'keys.hash',
      message: `keys.hash: the file says ${file.hash.name} (${file.hash.type}), the table's hash key is ${table.hash.name} (${table.hash.type})`,
    };
  }
  const f = file.range;
  const t = table.range;
  if (!f && !t) return undefined;
  if (!f || !t || f.name !== t.name || f.type !== t.type) {
    const say = (k: KeySchema['range']): string => (k ? `${k.name} (${k.type})` : 'none');
    return { field: 'keys.range', message: `keys.range: the file says ${say(f)}, the table's sort key is ${say(t)}` };
  }
  return undefined;
}

/**
 * A convention already checked in itself (the bridge's schema ran `checkConvention` on it) against a
 * table's real key schema: only the key attributes remain to compare, so nothing is checked twice.
 */
export function checkKeysFit(convention: Convention, tableKeys: KeySchema): Result<Convention> {
  const mismatch = compareKeys(convention.keys, tableKeys);
  return mismatch ? err('validation', mismatch.message, { field: mismatch.field }) : ok(convention);
}

/** Writes a convention as a convention file object (JSON.stringify it to save). */
export function conventionToFile(convention: Convention): ConventionFile {
  const v2 = convention.lockTable !== undefined || convention.rules.some((r) => r.scope || r.lockItem || r.valueType);
  const base: ConventionFile = {
    // A convention without v2 features is written as v1, byte for byte what earlier versions wrote.
    version: v2 ? CONVENTION_FILE_VERSION : 1,
    preset: convention.preset,
    keys: convention.keys.range
      ? { hash: { ...convention.keys.hash }, range: { ...convention.keys.range } }
      : { hash: { ...convention.keys.hash } },
    account: { ...convention.account },
    rules: convention.rules.map((r) => ({
      name: r.name,
      attribute: r.attribute,
      lockKeys: r.lockKeys.map((t) => ({ ...t })),
      normalize: [...r.normalize],
      ...(r.scope ? { scope: { ...r.scope } } : {}),
      ...(r.lockItem ? { lockItem: { ...r.lockItem } } : {}),
      ...(r.valueType ? { valueType: r.valueType } : {}),
    })),
    lockPrefixes: [...convention.lockPrefixes],
    ...(convention.ownerAttribute === undefined ? {} : { ownerAttribute: convention.ownerAttribute }),
    ...(convention.lockTable === undefined ? {} : { lockTable: convention.lockTable }),
  };
  return base;
}

/**
 * Runs a Convention built elsewhere (the UI's editor, a saved setting) through the file checks:
 * templates against the key schema, unique rule names and lock keys. Errors name the field as in a file.
 */
export function checkConvention(convention: Convention, tableKeys?: KeySchema): Result<Convention> {
  return parseConventionFile(conventionToFile(convention), tableKeys);
}

/**
 * A convention's lock table against what DescribeTable said of it (undefined: it does not exist):
 * it must exist and have the accounts table's key attribute names and types, because lock keys are
 * read and written with the convention's one key schema.
 */
export function checkLockTable(convention: Convention, lockTableKeys: KeySchema | undefined): Result<Convention> {
  const name = convention.lockTable;
  if (name === undefined) return ok(convention);
  if (!lockTableKeys)
    return err('validation', `lockTable: the table ${name} does not exist (or cannot be described with this connection)`, {
      field: 'lockTable',
    });
  const mismatch = compareKeys(convention.keys, lockTableKeys);
  if (mismatch) {
    const say = (k: KeySchema): string => [k.hash, ...(k.range ? [k.range] : [])].map((a) => `${a.name} (${a.type})`).join(' + ');
    return err(
      'validation',
      `lockTable: ${name} is keyed by ${say(lockTableKeys)}; Locksmith needs the accounts table's key attributes, ${say(convention.keys)}`,
      { field: 'lockTable' },
    );
  }
  return ok(convention);
}
