/**
 * Classifying one scanned item under a convention: an account (with its protected values),
 * a lock, a malformed lock, or something else. Locks are recognised first: a key that reads
 * as a lock is never an account, whatever the account matcher says.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Convention, Item, PlainKey } from '../model';
import { keyOf } from '../plain-key';
import { compileConvention, parseLockKey, type CompiledConvention } from './parse';
import { accountScope, isScoped, lockScope, type ScopeValues } from './scope';

/** One protected value held by an account. */
export interface AccountValue {
  /** The rule's name. */
  readonly rule: string;
  /** Index of the rule in `convention.rules`. */
  readonly ruleIndex: number;
  /** The value as stored on the account. */
  readonly value: string;
  /** The value after the rule's normalization; joins use this. */
  readonly normalized: string;
  /** For a scoped rule: the scope values the account holds (aligned with the rule's scope placeholders). */
  readonly scope?: ScopeValues;
}

/** What one item is under a convention. */
export type ItemClass =
  | { readonly kind: 'account'; readonly key: PlainKey; readonly values: readonly AccountValue[] }
  | {
      readonly kind: 'lock';
      readonly key: PlainKey;
      readonly rule: string;
      readonly ruleIndex: number;
      /** The value as written in the key. */
      readonly value: string;
      readonly normalized: string;
      /** For a scoped rule: the scope values written in the key. */
      readonly scope?: ScopeValues;
      /** The owner attribute's value, when the convention has one and the lock carries it. */
      readonly owner?: string;
    }
  | {
      readonly kind: 'malformed';
      readonly key: PlainKey;
      readonly reason: string;
      readonly rule?: string;
      /** The raw hash key text. */
      readonly text: string;
    }
  | { readonly kind: 'other'; readonly key: PlainKey };

/** Reads a scalar attribute as text: S as is, N as its decimal text; anything else is not a protected value. */
export function scalarText(value: AttributeValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return value.N;
  return undefined;
}

/** Classifies `item` under `convention` (compiled once per convention object and cached). */
export function classifyItem(convention: Convention | CompiledConvention, item: Item): ItemClass {
  const compiled = 'templates' in convention ? convention : compileConvention(convention);
  const conv = compiled.convention;
  const keys = conv.keys;
  const hashAttr = item[keys.hash.name];
  const hash = hashAttr?.S;
  // Locks only exist on string hash keys; N/B-keyed items are accounts or other.
  if (hash !== undefined) {
    const range = keys.range ? item[keys.range.name]?.S : undefined;
    const parsed = parseLockKey(compiled, hash, range);
    if (parsed.kind === 'lock') {
      const rule = conv.rules[parsed.ruleIndex];
      const normalizeFn = compiled.normalizers[parsed.ruleIndex];
      const key = keyOf(item, keys);
      const normalized = normalizeFn ? normalizeFn(parsed.value) : parsed.value;
      const owner = conv.ownerAttribute === undefined ? undefined : scalarText(item[conv.ownerAttribute]);
      const scope = rule && isScoped(rule) ? lockScope(rule, parsed.parts) : undefined;
      const base = {
        kind: 'lock' as const,
        key,
        rule: rule?.name ?? '',
        ruleIndex: parsed.ruleIndex,
        value: parsed.value,
        normalized,
        ...(scope ? { scope } : {}),
      };
      return owner === undefined ? base : { ...base, owner };
    }
    if (parsed.kind === 'malformed') {
      const key = keyOf(item, keys);
      const ruleName = parsed.ruleIndex === undefined ? undefined : conv.rules[parsed.ruleIndex]?.name;
      const base = { kind: 'malformed' as const, key, reason: parsed.reason, text: hash };
      return ruleName === undefined ? base : { ...base, rule: ruleName };
    }
  }
  const key = keyOf(item, keys);
  if (!isAccount(compiled, item, hash)) return { kind: 'other', key };
  return { kind: 'account', key, values: accountValues(compiled, item) };
}

/** Whether `item` (already known not to be a lock; `hash` is its S hash key, if any) is an account. */
export function isAccount(compiled: CompiledConvention, item: Item, hash: string | undefined): boolean {
  const matcher = compiled.convention.account;
  switch (matcher.kind) {
    case 'key-prefix': {
      if (hash === undefined || !hash.startsWith(matcher.prefix)) return false;
      const rangeName = compiled.convention.keys.range?.name;
      return matcher.range === undefined || rangeName === undefined || item[rangeName]?.S === matcher.range;
    }
    case 'attribute-equals':
      return item[matcher.attribute]?.S === matcher.value;
    case 'not-lock':
      return true;
  }
}

/** The protected values an account holds: one per rule whose attribute is a non-empty S or N (and, for a scoped rule, whose scope attributes are all set). */
export function accountValues(compiled: CompiledConvention, item: Item): AccountValue[] {
  const rules = compiled.convention.rules;
  const out: AccountValue[] = [];
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    const value = scalarText(item[rule.attribute]);
    if (value === undefined || value === '') continue;
    const fn = compiled.normalizers[i];
    const normalized = fn ? fn(value) : value;
    // A value that normalizes to nothing (only spaces, with trim) protects nothing.
    if (normalized === '') continue;
    if (isScoped(rule)) {
      // Without its scope a value is protected by no lock the library could write: it joins nothing.
      const scope = accountScope(rule, item);
      if (scope === undefined) continue;
      out.push({ rule: rule.name, ruleIndex: i, value, normalized, scope });
    } else out.push({ rule: rule.name, ruleIndex: i, value, normalized });
  }
  return out;
}
