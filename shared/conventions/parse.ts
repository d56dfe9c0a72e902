/**
 * Reading lock keys (the read direction; formatting lives in format.ts). A convention is
 * compiled once into plain prefix/suffix matchers so that classifying an item costs a few
 * `startsWith` calls — no regular expressions on the hot path of a million-item audit.
 */
import type { Convention, LockRule, NormalizationStep } from '../model';
import { VALUE_PLACEHOLDER } from './format';
import { normalizeValue } from './normalize';
import { SCOPE_PLACEHOLDER } from './presets';

/** One lock-key template, split into the literal parts around its placeholders. */
export interface CompiledTemplate {
  readonly ruleIndex: number;
  readonly templateIndex: number;
  /** Literal text before `{value}` (or before `{scope}` when the template has one). */
  readonly prefix: string;
  /** Literal text between `{scope}` and `{value}`; undefined when the template has no scope. */
  readonly scopeSeparator?: string;
  /** Literal text after `{value}` (usually empty). */
  readonly suffix: string;
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
  | { readonly kind: 'lock'; readonly rule: LockRule; readonly ruleIndex: number; readonly templateIndex: number; readonly value: string }
  | { readonly kind: 'malformed'; readonly reason: string; readonly rule?: LockRule; readonly ruleIndex?: number }
  | { readonly kind: 'not-lock' };

const cache = new WeakMap<Convention, CompiledConvention>();
const NOT_LOCK: ParsedLockKey = { kind: 'not-lock' };

/** Splits a hash template around `{value}` (and an optional leading `{scope}`). */
export function splitTemplate(hash: string): { prefix: string; scopeSeparator?: string; suffix: string } {
  const at = hash.indexOf(VALUE_PLACEHOLDER);
  if (at < 0) throw new Error(`lock key template ${hash} has no ${VALUE_PLACEHOLDER}`);
  const before = hash.slice(0, at);
  const suffix = hash.slice(at + VALUE_PLACEHOLDER.length);
  const scopeAt = before.indexOf(SCOPE_PLACEHOLDER);
  if (scopeAt < 0) return { prefix: before, suffix };
  return { prefix: before.slice(0, scopeAt), scopeSeparator: before.slice(scopeAt + SCOPE_PLACEHOLDER.length), suffix };
}

function normalizer(steps: readonly NormalizationStep[]): (value: string) => string {
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
      const parts = splitTemplate(template.hash);
      const base = { ruleIndex, templateIndex, prefix: parts.prefix, suffix: parts.suffix };
      const withScope = parts.scopeSeparator === undefined ? base : { ...base, scopeSeparator: parts.scopeSeparator };
      templates.push(template.range === undefined || !convention.keys.range ? withScope : { ...withScope, range: template.range });
    });
  });
  // Stable sort, most specific first: longer literal prefix, then longer literal suffix (`U#{value}#LOCK`
  // before `U#{value}`, whatever the rule order), then unscoped before scoped.
  templates.sort(
    (a, b) =>
      b.prefix.length - a.prefix.length ||
      b.suffix.length - a.suffix.length ||
      Number(a.scopeSeparator !== undefined) - Number(b.scopeSeparator !== undefined),
  );
  const compiled: CompiledConvention = { convention, templates, normalizers: convention.rules.map((r) => normalizer(r.normalize)) };
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
    if (!hash.startsWith(t.prefix)) continue;
    const end = hash.length - t.suffix.length;
    if (end < t.prefix.length || (t.suffix !== '' && !hash.endsWith(t.suffix))) continue;
    let start = t.prefix.length;
    if (t.scopeSeparator !== undefined) {
      const at = hash.indexOf(t.scopeSeparator, start);
      // The scope must be non-empty and the separator must end before the value starts.
      if (at <= start || at + t.scopeSeparator.length > end) continue;
      start = at + t.scopeSeparator.length;
    }
    if (t.range !== undefined && range !== t.range) {
      wrongRange ??= t;
      continue;
    }
    const value = hash.slice(start, end);
    const rule = rules[t.ruleIndex]!;
    const bad = checkValue(value, rule.name);
    if (bad !== undefined) return { kind: 'malformed', reason: bad, rule, ruleIndex: t.ruleIndex };
    // A value that normalizes to nothing (spaces under `trim`) can join no account and cannot be released by value.
    if (compiled.normalizers[t.ruleIndex]?.(value) === '') return { kind: 'malformed', reason: `the ${rule.name} value is empty after normalization (${rule.normalize.join(', ')})`, rule, ruleIndex: t.ruleIndex };
    return { kind: 'lock', rule, ruleIndex: t.ruleIndex, templateIndex: t.templateIndex, value };
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

/** Normalizes a value with rule `ruleIndex` of a compiled convention. */
export function normalizeForRule(compiled: CompiledConvention, ruleIndex: number, value: string): string {
  const fn = compiled.normalizers[ruleIndex];
  return fn ? fn(value) : value;
}
