/**
 * The convention file: JSON a person can read, edit and keep next to their table
 * (format described in FORMAT.md). Shape is checked with zod; cross-field rules (templates
 * vs. the key schema, unique rule names) are checked after, each error naming its field.
 */
import type { z } from 'zod';
import type { Convention, KeySchema, LockRule } from '../model';
import { formatFieldPath } from '../field-path';
import { err, ok, type Result } from '../result';
import { conventionFileSchema, CONVENTION_FILE_VERSION, type ConventionFile, type lockRuleSchema } from './file-schema';
import { checkRules, compareKeys } from './file-rules';

// The schemas are declared in file-schema.ts; the bridge's convention schema imports them from here with the checks.
export { accountMatcherSchema, keySchemaSchema, lockRuleSchema, presetOrCustomSchema } from './file-schema';
export type { ConventionFile } from './file-schema';

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
  const problem = checkRules(file.rules, keys, file.ownerAttribute);
  if (problem) return err('validation', problem.message, { field: problem.field });
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
