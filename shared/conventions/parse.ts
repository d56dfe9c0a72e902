/**
 * Reading lock keys (the read direction; formatting lives in format.ts). A convention is
 * compiled once into plain prefix/suffix matchers so that classifying an item costs a few
 * `startsWith` calls — no regular expressions on the hot path of a million-item audit.
 */
import type { Convention, LockRule, NormalizationStep } from '../model';
import { normalizeValue } from './normalize';
import { canonicalNumber } from './scope';
import { compileHash, readKey, VALUE_NAME, type CompiledHash, type ReadKey } from './template';

/** One lock-key template, split into the literal parts around its placeholders. */
export interface CompiledTemplate {
  readonly ruleIndex: number;
  readonly templateIndex: number;
  /** Literal text before the first placeholder. */
  readonly prefix: string;
  /** Literal text after the last placeholder (usually empty). */
  readonly suffix: string;
  /** The template compiled for reading (see template.ts). */
  readonly hash: CompiledHash;
  /** Placeholders other than `{value}` (scope parts); 0 for most templates. */
  readonly placeholders: number;
  /** A placeholder the rule's scope does not map (a v1 `{scope}`): locks of this template cannot join. */
  readonly unmapped?: string;
  /** The sort key a lock of this template has, when it is a literal (`LOCK`). */
  readonly range?: string;
  /** The sort-key template compiled for reading, when it holds placeholders (`User.email#{value}`). */
  readonly rangeTemplate?: CompiledHash;
  /** Placeholders read from both key attributes, which must agree (`PK = SK = User.email#{value}`). */
  readonly repeated?: readonly string[];
  /** Whether the template's partition key begins with literal text: only then does a wrong sort key make a lock malformed. */
  readonly anchored: boolean;
}

/** A convention prepared for fast classification. */
export interface CompiledConvention {
  readonly convention: Convention;
  /** Templates, most specific first (longest prefix, then longest suffix) so overlapping templates resolve the same whatever the rule order. */
  readonly templates: readonly CompiledTemplate[];
  /** Per rule: the normalization function (identity when the rule has none). */
  readonly normalizers: readonly ((value: string) => string)[];
}

/** What a hash (+ range) key text is under a convention. */
export type ParsedLockKey =
  | {
      readonly kind: 'lock';
      readonly rule: LockRule;
      readonly ruleIndex: number;
      readonly templateIndex: number;
      readonly value: string;
      /** The value under the rule's normalization (computed here anyway to refuse an empty one; the audit joins on it). */
      readonly normalized: string;
      /** Scope placeholder → text, for a scoped template. */
      readonly parts?: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'malformed'; readonly reason: string; readonly rule?: LockRule; readonly ruleIndex?: number }
  | { readonly kind: 'not-lock' };

/** How the reason of a lock read under an undeclared scope placeholder begins (the repair plan keys on it). */
export const UNDECLARED_SCOPE_REASON = 'a scoped lock';

const cache = new WeakMap<Convention, CompiledConvention>();
const NOT_LOCK: ParsedLockKey = { kind: 'not-lock' };

/** The normalization of a rule as one function: numbers in canonical form first (N rules), then the steps. */
export function ruleNormalizer(rule: Pick<LockRule, 'normalize' | 'valueType'>): (value: string) => string {
  const steps: readonly NormalizationStep[] = rule.normalize;
  if (rule.valueType === 'N') return steps.length === 0 ? canonicalNumber : (value) => normalizeValue(canonicalNumber(value), steps);
  if (steps.length === 0) return (value) => value;
  return (value) => normalizeValue(value, steps);
}

/** The placeholder names a compiled key template reads. */
function namesOf(t: CompiledHash): string[] {
  return [...t.before.map((p) => p.name), ...(t.middle === undefined ? [] : [t.middle]), ...t.after.map((p) => p.name)];
}

/** One lock key template compiled: the partition key's reader, and the sort key's literal or reader. */
function compileTemplate(
  rule: LockRule,
  ruleIndex: number,
  templateIndex: number,
  hashText: string,
  rangeText: string | undefined,
): CompiledTemplate {
  const hash = compileHash(hashText);
  const range = rangeText === undefined ? undefined : compileHash(rangeText);
  const hashNames = namesOf(hash);
  const rangeNames = range === undefined ? [] : namesOf(range);
  const scopeNames = [...new Set([...hashNames, ...rangeNames])].filter((n) => n !== VALUE_NAME);
  const unmapped = scopeNames.find((n) => rule.scope?.[n] === undefined);
  const repeated = hashNames.filter((n) => rangeNames.includes(n));
  return {
    ruleIndex,
    templateIndex,
    prefix: hash.prefix,
    suffix: hash.suffix,
    hash,
    placeholders: scopeNames.length,
    anchored: hash.prefix !== '',
    ...(unmapped === undefined ? {} : { unmapped }),
    ...(range === undefined ? {} : range.middle === undefined ? { range: range.prefix } : { rangeTemplate: range }),
    ...(repeated.length === 0 ? {} : { repeated }),
  };
}

/** How specific a template's sort key is: a literal first, then a longer literal prefix. */
function rangeWeight(t: CompiledTemplate): number {
  if (t.range !== undefined) return Number.MAX_SAFE_INTEGER;
  return t.rangeTemplate === undefined ? 0 : t.rangeTemplate.prefix.length + t.rangeTemplate.suffix.length;
}

/** Compiles (and caches per convention object) the matchers used by parseLockKey and classifyItem. */
export function compileConvention(convention: Convention): CompiledConvention {
  const hit = cache.get(convention);
  if (hit) return hit;
  const templates: CompiledTemplate[] = [];
  const hasRange = convention.keys.range !== undefined;
  convention.rules.forEach((rule, ruleIndex) => {
    rule.lockKeys.forEach((template, templateIndex) => {
      templates.push(compileTemplate(rule, ruleIndex, templateIndex, template.hash, hasRange ? template.range : undefined));
    });
  });
  // Stable sort, most specific first: longer literal prefix, then longer literal suffix (`U#{value}#LOCK`
  // before `U#{value}`, whatever the rule order), then fewer placeholders (unscoped before scoped).
  templates.sort(
    (a, b) =>
      b.prefix.length - a.prefix.length ||
      b.suffix.length - a.suffix.length ||
      rangeWeight(b) - rangeWeight(a) ||
      a.placeholders - b.placeholders,
  );
  const compiled: CompiledConvention = { convention, templates, normalizers: convention.rules.map((r) => ruleNormalizer(r)) };
  cache.set(convention, compiled);
  return compiled;
}

/** Reads a value a template matched: empty values and the literals `undefined`/`null` are malformed. */
function checkValue(value: string, ruleName: string): string | undefined {
  if (value === '') return `empty ${ruleName} value`;
  if (value === 'undefined' || value === 'null')
    return `the ${ruleName} value is the literal \`${value}\` (a bug wrote a missing value into the key)`;
  return undefined;
}

/**
 * Parses a lock key: `hash` is the hash key text, `range` the range key text (undefined for
 * hash-only tables or non-string range keys). Returns the rule and raw value, a malformed
 * reason, or `not-lock`.
 */
export function parseLockKey(convention: Convention | CompiledConvention, hash: string, range: string | undefined): ParsedLockKey {
  const compiled = 'templates' in convention ? convention : compileConvention(convention);
  const rules = compiled.convention.rules;
  let wrong: { readonly t: CompiledTemplate; readonly reason?: string } | undefined;
  for (const t of compiled.templates) {
    const fromHash = readKey(t.hash, hash);
    if (fromHash === undefined) continue;
    let read: ReadKey = fromHash;
    if (t.range !== undefined && range !== t.range) {
      if (t.anchored) wrong ??= { t };
      continue;
    }
    if (t.rangeTemplate !== undefined) {
      const fromRange = range === undefined ? undefined : readKey(t.rangeTemplate, range);
      if (fromRange === undefined) {
        if (t.anchored) wrong ??= { t };
        continue;
      }
      const disagree = t.repeated?.find((n) => partOf(fromHash, n) !== partOf(fromRange, n));
      if (disagree !== undefined) {
        // Both keys fit the template but say different things: the most telling reason, kept over a plain wrong sort key.
        if (wrong?.reason === undefined)
          wrong = { t, reason: disagreement(compiled, t, disagree, partOf(fromHash, disagree), partOf(fromRange, disagree)) };
        continue;
      }
      read = merge(fromHash, fromRange);
    }
    const value = read.value ?? '';
    const rule = rules[t.ruleIndex]!;
    if (t.unmapped !== undefined) {
      const text = read.parts?.[t.unmapped] ?? '';
      return {
        kind: 'malformed',
        reason: `${UNDECLARED_SCOPE_REASON} ({${t.unmapped}} = \`${text}\`) but rule ${rule.name} does not say which account attribute holds its {${t.unmapped}}: add "scope": {"${t.unmapped}": "<attribute>"} to the rule`,
        rule,
        ruleIndex: t.ruleIndex,
      };
    }
    const bad = checkValue(value, rule.name);
    if (bad !== undefined) return { kind: 'malformed', reason: bad, rule, ruleIndex: t.ruleIndex };
    // A value that normalizes to nothing (spaces under `trim`) can join no account and cannot be released by value.
    const normalize = compiled.normalizers[t.ruleIndex];
    const normalized = normalize === undefined ? value : normalize(value);
    if (normalized === '')
      return {
        kind: 'malformed',
        reason: `the ${rule.name} value is empty after normalization (${rule.normalize.join(', ')})`,
        rule,
        ruleIndex: t.ruleIndex,
      };
    return read.parts === undefined
      ? { kind: 'lock', rule, ruleIndex: t.ruleIndex, templateIndex: t.templateIndex, value, normalized }
      : { kind: 'lock', rule, ruleIndex: t.ruleIndex, templateIndex: t.templateIndex, value, normalized, parts: read.parts };
  }
  if (wrong) {
    const rule = rules[wrong.t.ruleIndex]!;
    if (wrong.reason !== undefined) return { kind: 'malformed', reason: wrong.reason, rule, ruleIndex: wrong.t.ruleIndex };
    const expected = rule.lockKeys
      .map((k) => k.range)
      .filter((r): r is string => r !== undefined)
      .map((r) => `\`${r}\``);
    const got = range === undefined ? 'no sort key' : `sort key \`${range}\``;
    return {
      kind: 'malformed',
      reason: `wrong sort key: ${got}, expected ${[...new Set(expected)].join(' or ')} for rule ${rule.name}`,
      rule,
      ruleIndex: wrong.t.ruleIndex,
    };
  }
  for (const prefix of compiled.convention.lockPrefixes) {
    if (prefix !== '' && hash.startsWith(prefix)) {
      const known = rules.map((r) => r.name).join(', ') || 'none';
      return { kind: 'malformed', reason: `lock prefix \`${prefix}\` but the key matches no rule (rules: ${known})` };
    }
  }
  return NOT_LOCK;
}

/** A placeholder's text in a read key (`{value}` included). */
function partOf(read: ReadKey, name: string): string | undefined {
  return name === VALUE_NAME ? read.value : read.parts?.[name];
}

/** What the partition and sort key read together: the value from whichever holds it, every placeholder's text. */
function merge(fromHash: ReadKey, fromRange: ReadKey): ReadKey {
  const value = fromHash.value ?? fromRange.value;
  const parts =
    fromHash.parts === undefined
      ? fromRange.parts
      : fromRange.parts === undefined
        ? fromHash.parts
        : { ...fromRange.parts, ...fromHash.parts };
  if (value === undefined) return parts === undefined ? {} : { parts };
  return parts === undefined ? { value } : { value, parts };
}

/** Why a lock whose partition and sort key disagree on a placeholder is malformed, naming both texts. */
function disagreement(
  compiled: CompiledConvention,
  t: CompiledTemplate,
  name: string,
  inHash: string | undefined,
  inRange: string | undefined,
): string {
  const keys = compiled.convention.keys;
  const rule = compiled.convention.rules[t.ruleIndex]!;
  const what = name === VALUE_NAME ? `the ${rule.name} value` : `the {${name}} of rule ${rule.name}`;
  return `${what} in ${keys.hash.name} (\`${inHash ?? ''}\`) and in ${keys.range?.name ?? 'the sort key'} (\`${inRange ?? ''}\`) disagree`;
}
