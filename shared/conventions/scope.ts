/**
 * Scoped rules in one place: which placeholders a rule's scope has, how an account's attributes
 * fill them, how a lock key's texts name them, and the join key (scope values + value) that the
 * audit, lookup and the builders all use — so "unique within an org" means the same everywhere.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { LockRule } from '../model';
import { shownText } from '../terminal-text';

/** A rule's scope placeholders, in declaration order (empty for an unscoped rule). */
export function scopePlaceholders(rule: LockRule): readonly string[] {
  return rule.scope ? Object.keys(rule.scope) : NONE;
}

const NONE: readonly string[] = [];

/** True when the rule's value is unique per scope rather than table-wide. */
export function isScoped(rule: LockRule): boolean {
  return rule.scope !== undefined && Object.keys(rule.scope).length > 0;
}

/** Scope values aligned with scopePlaceholders(rule). */
export type ScopeValues = readonly string[];

/** Separator of the join key: U+0000 cannot be typed into a key by accident and sorts first. */
const SEP = '\u0000';

/** The join key of a value: the value itself for an unscoped rule, else scope values and value joined by U+0000. */
export function joinKey(scope: ScopeValues | undefined, normalized: string): string {
  return scope === undefined || scope.length === 0 ? normalized : `${scope.join(SEP)}${SEP}${normalized}`;
}

/** Reads a scalar as text: S as is, N as its decimal text. */
function scalar(value: AttributeValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return value.N;
  return undefined;
}

/** The scope an account item holds for `rule`, or undefined when one scope attribute is missing or empty. */
export function accountScope(rule: LockRule, item: Readonly<Record<string, AttributeValue>>): ScopeValues | undefined {
  const scope = rule.scope;
  if (!scope) return NONE;
  const out: string[] = [];
  for (const placeholder of Object.keys(scope)) {
    const text = scalar(item[scope[placeholder]!]);
    if (text === undefined || text === '') return undefined;
    out.push(text);
  }
  return out;
}

/** The scope values a lock key's placeholder texts give (undefined when one is missing). */
export function lockScope(rule: LockRule, parts: Readonly<Record<string, string>> | undefined): ScopeValues | undefined {
  const scope = rule.scope;
  if (!scope) return NONE;
  const out: string[] = [];
  for (const placeholder of Object.keys(scope)) {
    const text = parts?.[placeholder];
    if (text === undefined) return undefined;
    out.push(text);
  }
  return out;
}

/** Scope values as people and reports see them: account attribute → value (`{ "orgId": "acme" }`). */
export function scopeRecord(rule: LockRule, values: ScopeValues | undefined): Record<string, string> | undefined {
  const scope = rule.scope;
  if (!scope || values === undefined || values.length === 0) return undefined;
  const out: Record<string, string> = {};
  Object.keys(scope).forEach((placeholder, i) => {
    out[scope[placeholder]!] = values[i] ?? '';
  });
  return out;
}

/** Scope values as a template fills them: placeholder → value. */
export function scopeParts(rule: LockRule, values: ScopeValues | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  scopePlaceholders(rule).forEach((placeholder, i) => {
    const v = values?.[i];
    if (v !== undefined) out[placeholder] = v;
  });
  return out;
}

/**
 * Scope values from what a person gave (attribute → value, e.g. `--scope orgId=acme`); an error
 * message naming the missing attributes when the rule is scoped and one is not given.
 */
export function scopeFromRecord(rule: LockRule, given: Readonly<Record<string, string>> | undefined): ScopeValues | string {
  const scope = rule.scope;
  if (!scope) {
    const extra = Object.keys(given ?? {});
    return extra.length === 0 ? NONE : `rule ${rule.name} is not scoped; it takes no scope (${extra.join(', ')})`;
  }
  const attributes = Object.values(scope);
  const unknown = Object.keys(given ?? {}).filter((k) => !attributes.includes(k));
  if (unknown.length > 0) return `rule ${rule.name} is scoped by ${attributes.join(', ')}, not ${unknown.join(', ')}`;
  const out: string[] = [];
  const missing: string[] = [];
  for (const attribute of attributes) {
    const v = given?.[attribute];
    if (v === undefined || v === '') missing.push(attribute);
    else out.push(v);
  }
  if (missing.length > 0)
    return `rule ${rule.name} is unique within ${attributes.join(' + ')}: give ${missing.map((a) => `${a}=…`).join(' and ')} (its scope)`;
  return out;
}

/** "orgId=acme, region=eu" — a scope as the UI lists it (raw text: the view marks hidden characters). */
export function scopeList(record: Readonly<Record<string, string>>): string {
  return Object.entries(record)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** "in orgId acme" — how a scope reads in a sentence; empty for none. */
export function scopeWords(record: Readonly<Record<string, string>> | undefined): string {
  if (!record) return '';
  const parts = Object.entries(record).map(([k, v]) => `${shownText(k)} \`${shownText(v)}\``);
  return parts.length === 0 ? '' : ` in ${parts.join(', ')}`;
}

/**
 * DynamoDB's canonical text of a number (no exponent, no leading zeros, no trailing fraction zeros):
 * `1.50` and `15e-1` both read `1.5`, as DynamoDB returns them. Text that is not a number comes back unchanged.
 */
export function canonicalNumber(text: string): string {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return text;
  const sign = m[1] === '-' ? '-' : '';
  let digits = `${m[2]}${m[3] ?? ''}`;
  let point = m[2]!.length + Number(m[4] ?? '0');
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead);
  point -= lead;
  digits = digits.replace(/0+$/, '');
  if (digits === '') return '0';
  if (Math.abs(point) > 200) return text;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return sign + out;
}
