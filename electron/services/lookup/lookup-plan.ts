/** A lookup's plan: per rule, the normalized value, the scope asked in, the candidate lock keys and the GSI to query. */
import { formatLockKey } from '../../../shared/conventions/format';
import { ruleNormalizer } from '../../../shared/conventions/parse';
import { isScoped, scopeFromRecord, type ScopeValues } from '../../../shared/conventions/scope';
import { scopeNamesOf } from '../../../shared/conventions/template';
import { PARTITION_KEY_MAX_BYTES, SORT_KEY_MAX_BYTES, utf8ByteLength } from '../../../shared/key-limits';
import type { Convention, LockRule, PlainKey } from '../../../shared/model';
import { keyId } from '../../../shared/plain-key';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { holderIndex } from './holder-reads';
import type { LookupOptions } from './lookup-types';
import { valueForms, type Plan } from './lookup-results';

/** The lock keys a value may be written under: every template (legacy included) × every form, in `scope` for a scoped rule; undeclared scopes cannot be enumerated. */
function candidateKeys(
  convention: Convention,
  rule: LockRule,
  value: string,
  notes: string[],
  scope?: ScopeValues,
): { key: PlainKey; legacy: boolean }[] {
  const keys = convention.keys;
  if (keys.hash.type !== 'S') {
    notes.push(`the table's partition key is of type ${keys.hash.type}: locks need string keys`);
    return [];
  }
  const out: { key: PlainKey; legacy: boolean }[] = [];
  const seen = new Set<string>();
  rule.lockKeys.forEach((template, index) => {
    if (scopeNamesOf(template.hash).some((n) => rule.scope?.[n] === undefined)) {
      notes.push(
        `scoped locks (${template.hash}) cannot be read by key: the convention does not say which attribute holds their scope (an audit lists them as malformed)`,
      );
      return;
    }
    for (const form of valueForms(rule, value)) {
      const text = formatLockKey(rule, form, template, scope);
      if (
        utf8ByteLength(text.hash) > PARTITION_KEY_MAX_BYTES ||
        (text.range !== undefined && utf8ByteLength(text.range) > SORT_KEY_MAX_BYTES)
      ) {
        notes.push(`the lock key for this value would exceed DynamoDB's key size limit, so no such lock can exist`);
        continue;
      }
      const key: PlainKey = keys.range
        ? { [keys.hash.name]: text.hash, [keys.range.name]: text.range ?? '' }
        : { [keys.hash.name]: text.hash };
      const id = keyId(key, keys);
      if (seen.has(id) || (keys.range && text.range === undefined)) continue;
      seen.add(id);
      out.push({ key, legacy: index > 0 });
    }
  });
  return out;
}

/** The rules to look in, with the scope each is asked in; an error for a bad rule, value or scope. */
export function planRules(options: LookupOptions): Result<Plan[]> {
  const { convention, value } = options;
  const all = convention.rules.map((rule, index) => ({ rule, index }));
  const selected = options.rule === undefined ? all : all.filter((r) => r.rule.name === options.rule);
  if (selected.length === 0) {
    const known = convention.rules.map((r) => r.name).join(', ') || 'none';
    return err(
      'validation',
      options.rule === undefined ? 'the convention has no rules' : `unknown rule ${options.rule} (rules: ${known})`,
      { field: 'rule' },
    );
  }
  const plans: Plan[] = [];
  for (const { rule, index } of selected) {
    const normalized = ruleNormalizer(rule)(value);
    // Only spaces under `trim`: no lock can hold it and no account is found for it; say so instead of "free".
    if (normalized === '')
      return err('validation', `${rule.name}: the value is empty after normalization (${rule.normalize.join(', ')})`, { field: 'value' });
    const notes: string[] = [];
    const scoped = isScoped(rule);
    let scope: ScopeValues | undefined;
    if (options.scope !== undefined && Object.keys(options.scope).length > 0) {
      if (!scoped) {
        if (options.rule !== undefined) return err('validation', `rule ${rule.name} is not scoped; it takes no scope`, { field: 'scope' });
        notes.push(`rule ${rule.name} is not scoped: the scope was not used`);
      } else {
        const given = scopeFromRecord(rule, options.scope);
        if (typeof given === 'string') return err('validation', given, { field: 'scope' });
        scope = given;
      }
    }
    const everyScope = scoped && scope === undefined;
    if (everyScope)
      notes.push(
        `rule ${rule.name} is unique within ${Object.values(rule.scope ?? {}).join(' + ')}; no scope was given, so every scope was read by a scan`,
      );
    const candidates = everyScope ? [] : candidateKeys(convention, rule, value, notes, scope);
    const gsi = everyScope ? undefined : holderIndex(options.table.gsis, rule);
    plans.push({ rule, index, normalized, notes, candidates, gsi, ...(scope ? { scope } : {}), everyScope });
  }
  return ok(plans);
}
