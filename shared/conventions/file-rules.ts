/**
 * The cross-field rules of a convention file, checked after its shape (file-schema.ts): each
 * error names the field as it stands in the file.
 */
import type { z } from 'zod';
import type { KeySchema } from '../model';
import type { lockRuleSchema } from './file-schema';
import { scopeNamesOf, splitPlaceholders, VALUE_NAME } from './template';

/** A v1 placeholder that OneTable presets carry without saying which attribute fills it (its locks read as malformed). */
const LEGACY_SCOPE = 'scope';

/** A rule as the file's schema parsed it. */
type FileRule = z.output<typeof lockRuleSchema>;

/**
 * The cross-field checks of a file's rules against the key schema: unique names, lock keys that
 * fit the table and differ from each other, scopes and lock item templates. The first error wins.
 */
export function checkRules(rules: readonly FileRule[], keys: KeySchema, ownerAttribute: string | undefined): FieldError | undefined {
  const names = new Set<string>();
  // Lock key (hash + range) → where it was first seen: a second identical template could never match.
  const templates = new Map<string, string>();
  for (const [i, r] of rules.entries()) {
    if (names.has(r.name)) return { field: `rules[${i}].name`, message: `rules[${i}].name: duplicate rule name \`${r.name}\`` };
    names.add(r.name);
    for (const [j, t] of r.lockKeys.entries()) {
      const problem = lockKeyFit(t, `rules[${i}].lockKeys[${j}]`, keys);
      if (problem) return problem;
      const id = JSON.stringify([t.hash, t.range ?? null]);
      const first = templates.get(id);
      const at = `rules[${i}].lockKeys[${j}]`;
      if (first !== undefined)
        return { field: `${at}.hash`, message: `${at}.hash: the same lock key as ${first}; one of them could never match` };
      templates.set(id, at);
    }
    const problem = checkScope(r, i, keys) ?? checkLockItem(r, i, keys, ownerAttribute);
    if (problem) return problem;
  }
  return undefined;
}

/** One lock key template against the table's key schema: a sort key template exactly when the table has one, string keys. */
function lockKeyFit(t: FileRule['lockKeys'][number], at: string, keys: KeySchema): FieldError | undefined {
  const field = `${at}.range`;
  if (keys.range && t.range === undefined) return { field, message: `${field}: required, the table has a sort key (${keys.range.name})` };
  if (!keys.range && t.range !== undefined) return { field, message: `${field}: must be absent, the table has no sort key` };
  // Locks are read from string keys only (a numeric `LOCK` cannot exist): refuse rather than report every lock malformed.
  if (keys.range && keys.range.type !== 'S')
    return {
      field,
      message: `${field}: the table's sort key ${keys.range.name} is of type ${keys.range.type}; lock sort keys must be strings (S)`,
    };
  if (keys.hash.type !== 'S')
    return { field: 'keys.hash.type', message: `keys.hash.type: locks need a string (S) hash key; this table's is ${keys.hash.type}` };
  return undefined;
}

/** A field of a convention file and what is wrong with it. */
export type FieldError = { readonly field: string; readonly message: string };

/**
 * A scoped rule: every placeholder of every template is mapped to an account attribute (the v1
 * `{scope}` of OneTable presets excepted: its locks read as malformed until it is mapped), every
 * mapped placeholder appears in every template (else a lock could not tell its scope), and no
 * scope attribute is the value's own attribute or a key attribute.
 */
function checkScope(r: FileRule, i: number, keys: KeySchema): FieldError | undefined {
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
function checkLockItem(r: FileRule, i: number, keys: KeySchema, ownerAttribute: string | undefined): FieldError | undefined {
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

/** The key attributes a file (or a convention) names against the table's: the first difference, if any. */
export function compareKeys(file: KeySchema, table: KeySchema): FieldError | undefined {
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
