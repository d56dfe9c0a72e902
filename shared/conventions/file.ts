/**
 * The convention file: JSON a person can read, edit and keep next to their table
 * (format described in FORMAT.md). Shape is checked with zod; cross-field rules (templates
 * vs. the key schema, unique rule names) are checked after, each error naming its field.
 */
import { z } from 'zod';
import { MAX_NAME_LENGTH, MAX_TEMPLATE_LENGTH } from '../contract/limits';
import type { Convention, KeySchema, NormalizationStep } from '../model';
import { err, ok, type Result } from '../result';
import { VALUE_PLACEHOLDER } from './format';
import { splitTemplate } from './parse';
import { SCOPE_PLACEHOLDER } from './presets';

/** The current convention file format version. */
export const CONVENTION_FILE_VERSION = 1 as const;

const count = (text: string, needle: string): number => text.split(needle).length - 1;

// The same bounds as the bridge's convention schema (shared/contract/limits.ts): a convention
// file is user input too, and a 20 MB rule name must be refused, not carried into every report.
const name = () => z.string().min(1, 'must not be empty').max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`);
const text = () => z.string().max(MAX_TEMPLATE_LENGTH, `must be at most ${MAX_TEMPLATE_LENGTH} characters`);

const keyAttribute = z.strictObject({
  name: name(),
  type: z.enum(['S', 'N', 'B']),
});

const lockKey = z.strictObject({
  hash: text()
    .refine((h) => count(h, VALUE_PLACEHOLDER) === 1, `must contain ${VALUE_PLACEHOLDER} exactly once`)
    .refine((h) => count(h, SCOPE_PLACEHOLDER) <= 1, `may contain ${SCOPE_PLACEHOLDER} at most once`)
    .refine((h) => !h.includes(SCOPE_PLACEHOLDER) || h.indexOf(SCOPE_PLACEHOLDER) < h.indexOf(VALUE_PLACEHOLDER), `${SCOPE_PLACEHOLDER} must come before ${VALUE_PLACEHOLDER}`)
    .refine((h) => !h.includes(VALUE_PLACEHOLDER) || splitTemplate(h).prefix !== '', `must start with literal text before ${VALUE_PLACEHOLDER} (e.g. \`UNIQ#EMAIL#${VALUE_PLACEHOLDER}\`), or every item would read as a lock`),
  range: text().min(1, 'must not be empty').optional(),
});

const rule = z.strictObject({
  name: name(),
  attribute: name(),
  lockKeys: z.array(lockKey).min(1, 'needs at least one lock key template').max(8, 'at most 8 lock key templates'),
  normalize: z.array(z.enum(['trim', 'lowercase', 'nfc'] satisfies readonly NormalizationStep[])).default([]),
});

const account = z.discriminatedUnion('kind', [
  z
    .strictObject({ kind: z.literal('key-prefix'), prefix: text(), range: text().min(1, 'must not be empty').optional() })
    // An empty prefix is meaningful only with a range (accounts keyed by bare ids, told apart by `SK = PROFILE`).
    .refine((a) => a.prefix !== '' || a.range !== undefined, { path: ['prefix'], message: 'must not be empty without a range (use {"kind": "not-lock"} for every item that is not a lock)' }),
  z.strictObject({ kind: z.literal('attribute-equals'), attribute: name(), value: text() }),
  z.strictObject({ kind: z.literal('not-lock') }),
]);

/** The JSON schema of a convention file (zod). */
export const conventionFileSchema = z.strictObject({
  version: z.literal(CONVENTION_FILE_VERSION).default(CONVENTION_FILE_VERSION),
  preset: z.enum(['uniq', 'marker', 'onetable', 'aws-blog', 'custom'] satisfies readonly Convention['preset'][]).default('custom'),
  keys: z.strictObject({ hash: keyAttribute, range: keyAttribute.optional() }).optional(),
  account,
  rules: z.array(rule).min(1, 'needs at least one rule').max(32, 'at most 32 rules'),
  lockPrefixes: z.array(name()).max(16, 'at most 16 lock prefixes').default([]),
  ownerAttribute: name().optional(),
});

/** A convention file as written on disk. */
export type ConventionFile = z.input<typeof conventionFileSchema>;

/** Formats a zod path as `rules[1].lockKeys[0].hash`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  return out;
}

/**
 * Parses and checks a convention file. `tableKeys` (from DescribeTable) fills in a file
 * without `keys` and must agree with a file that has them.
 */
export function parseConventionFile(json: unknown, tableKeys?: KeySchema): Result<Convention> {
  const parsed = conventionFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      const field = formatPath([...issue.path, issue.keys[0] ?? '']);
      return err('validation', `${field}: unknown field (check its spelling against the format)`, { field });
    }
    const field = formatPath(issue.path);
    return err('validation', `${field === '' ? 'convention file' : field}: ${issue.message}`, { field });
  }
  const file = parsed.data;
  const keys: KeySchema | undefined = file.keys ?? tableKeys;
  if (!keys) return err('validation', 'keys: required (the table key schema), or give the table so it can be read from DescribeTable', { field: 'keys' });
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
      if (keys.range && t.range === undefined) return err('validation', `${field}: required, the table has a sort key (${keys.range.name})`, { field });
      if (!keys.range && t.range !== undefined) return err('validation', `${field}: must be absent, the table has no sort key`, { field });
      // Locks are read from string keys only (a numeric `LOCK` cannot exist): refuse rather than report every lock malformed.
      if (keys.range && keys.range.type !== 'S') return err('validation', `${field}: the table's sort key ${keys.range.name} is of type ${keys.range.type}; lock sort keys must be strings (S)`, { field });
      if (keys.hash.type !== 'S') return err('validation', `keys.hash.type: locks need a string (S) hash key; this table's is ${keys.hash.type}`, { field: 'keys.hash.type' });
      const id = JSON.stringify([t.hash, t.range ?? null]);
      const first = templates.get(id);
      const at = `rules[${i}].lockKeys[${j}]`;
      if (first !== undefined) return err('validation', `${at}.hash: the same lock key as ${first}; one of them could never match`, { field: `${at}.hash` });
      templates.set(id, at);
    }
  }
  if (file.account.kind === 'key-prefix' && keys.hash.type !== 'S') {
    return err('validation', `account: a key-prefix matcher needs a string (S) hash key; this table's is ${keys.hash.type}`, { field: 'account' });
  }
  if (file.account.kind === 'key-prefix' && file.account.range !== undefined && !keys.range) {
    return err('validation', 'account.range: must be absent, the table has no sort key', { field: 'account.range' });
  }
  const acct = file.account;
  const accountMatcher: Convention['account'] =
    acct.kind === 'key-prefix' ? (acct.range === undefined ? { kind: 'key-prefix', prefix: acct.prefix } : { kind: 'key-prefix', prefix: acct.prefix, range: acct.range }) : acct;
  const convention: Convention = {
    preset: file.preset,
    keys: keys.range ? { hash: { ...keys.hash }, range: { ...keys.range } } : { hash: { ...keys.hash } },
    account: accountMatcher,
    rules: file.rules.map((r) => ({
      name: r.name,
      attribute: r.attribute,
      lockKeys: r.lockKeys.map((t) => (t.range === undefined ? { hash: t.hash } : { hash: t.hash, range: t.range })),
      normalize: r.normalize,
    })),
    lockPrefixes: file.lockPrefixes,
  };
  return ok(file.ownerAttribute === undefined ? convention : { ...convention, ownerAttribute: file.ownerAttribute });
}

function compareKeys(file: KeySchema, table: KeySchema): { field: string; message: string } | undefined {
  if (file.hash.name !== table.hash.name || file.hash.type !== table.hash.type) {
    return { field: 'keys.hash', message: `keys.hash: the file says ${file.hash.name} (${file.hash.type}), the table's hash key is ${table.hash.name} (${table.hash.type})` };
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

/** Writes a convention as a convention file object (JSON.stringify it to save). */
export function conventionToFile(convention: Convention): ConventionFile {
  const base: ConventionFile = {
    version: CONVENTION_FILE_VERSION,
    preset: convention.preset,
    keys: convention.keys.range ? { hash: { ...convention.keys.hash }, range: { ...convention.keys.range } } : { hash: { ...convention.keys.hash } },
    account: { ...convention.account },
    rules: convention.rules.map((r) => ({
      name: r.name,
      attribute: r.attribute,
      lockKeys: r.lockKeys.map((t) => ({ ...t })),
      normalize: [...r.normalize],
    })),
    lockPrefixes: [...convention.lockPrefixes],
  };
  return convention.ownerAttribute === undefined ? base : { ...base, ownerAttribute: convention.ownerAttribute };
}

/**
 * Runs a Convention built elsewhere (the UI's editor, a saved setting) through the file checks:
 * templates against the key schema, unique rule names and lock keys. Errors name the field as in a file.
 */
export function checkConvention(convention: Convention, tableKeys?: KeySchema): Result<Convention> {
  return parseConventionFile(conventionToFile(convention), tableKeys);
}
