/**
 * Reading lock keys (the read direction; formatting lives in format.ts). A convention is
 * compiled once into plain prefix/suffix matchers so that classifying an item costs a few
 * `startsWith` calls — no regular expressions on the hot path of a million-item audit.
 */
import type { Convention, LockRule, NormalizationStep } from '../model';
import { normalizeValue } from './normalize';
import { canonicalNumber } from './scope';
import { compileHash, readKey, type CompiledHash } from './template';

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
  readonly range?: string;
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

/** Splits a hash template around `{value}`: the literal prefix (before any placeholder) and suffix. */
export function splitTemplate(hash: string): { prefix: string; suffix: string } {
  const compiled = compileHash(hash);
  return { prefix: compiled.prefix, suffix: compiled.suffix };
}

/** The normalization of a rule as one function: numbers in canonical form first (N rules), then the steps. */
export function ruleNormalizer(rule: Pick<LockRule, 'normalize' | 'valueType'>): (value: string) => string {
  const steps: readonly NormalizationStep[] = rule.normalize;
  if (rule.valueType === 'N') return steps.length === 0 ? canonicalNumber : (value) => normalizeValue(canonicalNumber(value), steps);
  if (steps.length === 0) return (value) => value;
  return (value) => normalizeValue(value, steps);
}

/** Compiles (and caches per convention object) the matchers used by parseLockKey and classifyItem. */
export function compileConvention(convention: Convention): CompiledConvention {
  const hit = cache.get(convention);
  if (hit) return hit;
  const templates: CompiledTemplate[] = [];
  convention.rules.forEach((rule, ruleIndex) => {
    rule.lockKeys.forEach((template, templateIndex) => {
      const hash = compileHash(template.hash);
      const names = [...hash.before.map((p) => p.name), ...hash.after.map((p) => p.name)];
      const unmapped = names.find((n) => rule.scope?.[n] === undefined);
      const base: CompiledTemplate = { ruleIndex, templateIndex, prefix: hash.prefix, suffix: hash.suffix, hash, placeholders: names.length, ...(unmapped === undefined ? {} : { unmapped }) };
      templates.push(template.range === undefined || !convention.keys.range ? base : { ...base, range: template.range });
    });
  });
  // Stable sort, most specific first: longer literal prefix, then longer literal suffix (`U#{value}#LOCK`
  // before `U#{value}`, whatever the rule order), then fewer placeholders (unscoped before scoped).
  templates.sort((a, b) => b.prefix.length - a.prefix.length || b.suffix.length - a.suffix.length || a.placeholders - b.placeholders);
  const compiled: CompiledConvention = { convention, templates, normalizers: convention.rules.map((r) => ruleNormalizer(r)) };
  cache.set(convention, compiled);
  return compiled;
}

/** Reads a value a template matched: empty values and the literals `undefined`/`null` are malformed. */
function checkValue(value: string, ruleName: string): string | undefined {
  if (value === '') return `empty ${ruleName} value`;
  if (value === 'undefined' || value === 'null') return `the ${ruleName} value is the literal \`${value}\` (a bug wrote a missing value into the key)`;
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
  let wrongRange: CompiledTemplate | undefined;
  for (const t of compiled.templates) {
    const read = readKey(t.hash, hash);
    if (read === undefined) continue;
    if (t.range !== undefined && range !== t.range) {
      wrongRange ??= t;
      continue;
    }
    const value = read.value;
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
    if (normalized === '') return { kind: 'malformed', reason: `the ${rule.name} value is empty after normalization (${rule.normalize.join(', ')})`, rule, ruleIndex: t.ruleIndex };
    return read.parts === undefined
      ? { kind: 'lock', rule, ruleIndex: t.ruleIndex, templateIndex: t.templateIndex, value, normalized }
      : { kind: 'lock', rule, ruleIndex: t.ruleIndex, templateIndex: t.templateIndex, value, normalized, parts: read.parts };
  }
  if (wrongRange) {
    const expected = rules[wrongRange.ruleIndex]?.lockKeys
      .map((k) => k.range)
      .filter((r): r is string => r !== undefined)
      .map((r) => `\`${r}\``);
    const got = range === undefined ? 'no sort key' : `sort key \`${range}\``;
    const rule = rules[wrongRange.ruleIndex]!;
    return {
      kind: 'malformed',
      reason: `wrong sort key: ${got}, expected ${[...new Set(expected)].join(' or ')} for rule ${rule.name}`,
      rule,
      ruleIndex: wrongRange.ruleIndex,
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
