/**
 * A lookup's answers: the verdict per rule (and per scope), the caveats worth telling, and the
 * sorting of a scan's finds into scopes for a scoped rule asked without one.
 */
import { classifyItem } from '../../../shared/conventions/classify';
import { formatLockKey } from '../../../shared/conventions/format';
import { parseLockKey, ruleNormalizer } from '../../../shared/conventions/parse';
import { joinKey, lockScope, scopeRecord, type ScopeValues } from '../../../shared/conventions/scope';
import { verdictFor } from '../../../shared/audit/problem-rules';
import type { Convention, Item, LockRule, PlainKey } from '../../../shared/model';
import { formatKey, keyId } from '../../../shared/plain-key';
import type { GsiInfo } from '../dynamo/tables';
import type { HolderSearch, LockProbe, RuleLookup } from './lookup-types';

/** Distinct forms of the value worth reading: the normalized one (what locks are written with) first. */
export function valueForms(rule: LockRule, value: string): string[] {
  const normalized = ruleNormalizer(rule)(value);
  return normalized === value ? [value] : [normalized, value];
}

/** Distinct keys, first seen kept. */
export function dedupe(keys: readonly PlainKey[], convention: Convention): PlainKey[] {
  return [...new Map(keys.map((k) => [keyId(k, convention.keys), k])).values()];
}

/** Why an index answer may miss holders: it matches the stored spelling exactly, the audit joins normalized values. */
function storedFormNote(index: string, rule: LockRule, value: string): string {
  const forms = valueForms(rule, value);
  return `index ${index} finds the stored form${forms.length > 1 ? 's' : ''} ${forms.map((f) => JSON.stringify(f)).join(' and ')} only; an account storing another spelling that normalizes (${rule.normalize.join(', ')}) to the same value is found only by a scan or an audit`;
}

/**
 * Caveats about the locks found for rule `ruleIndex`: a malformed one (the audit lists it as
 * malformed-lock, though it still blocks signups), or one written with a non-normalized value
 * (it joins like the canonical one, but claims and releases address the canonical key).
 */
export function foundLockNotes(convention: Convention, ruleIndex: number, probes: readonly LockProbe[]): string[] {
  const keys = convention.keys;
  const rule = convention.rules[ruleIndex];
  const notes: string[] = [];
  if (!rule) return notes;
  for (const probe of probes) {
    if (!probe.exists) continue;
    const hash = String(probe.key[keys.hash.name] ?? '');
    const range = keys.range ? String(probe.key[keys.range.name] ?? '') : undefined;
    const parsed = parseLockKey(convention, hash, range);
    const text = formatKey(probe.key, keys);
    if (parsed.kind === 'malformed') notes.push(`lock ${text} exists but is malformed: ${parsed.reason}`);
    else if (parsed.kind === 'lock' && parsed.ruleIndex === ruleIndex) {
      const normalized = ruleNormalizer(rule)(parsed.value);
      if (normalized !== parsed.value) {
        const canonical = formatLockKey(rule, normalized, undefined, lockScope(rule, parsed.parts));
        const canonicalKey: PlainKey = keys.range
          ? { [keys.hash.name]: canonical.hash, [keys.range.name]: canonical.range ?? '' }
          : { [keys.hash.name]: canonical.hash };
        notes.push(
          `lock ${text} is written with the value as typed, not normalized (${rule.normalize.join(', ')}): new claims and releases use ${formatKey(canonicalKey, keys)}`,
        );
      }
    }
  }
  return notes;
}

/** One rule's part of a lookup: what to read by key, how to find holders, and the scope it is asked in. */
export interface Plan {
  readonly rule: LockRule;
  readonly index: number;
  readonly normalized: string;
  readonly notes: string[];
  readonly candidates: { key: PlainKey; legacy: boolean }[];
  readonly gsi: GsiInfo | undefined;
  /** A scoped rule asked in one scope. */
  readonly scope?: ScopeValues;
  /** A scoped rule asked without a scope: its locks and holders come from the scan, in every scope. */
  readonly everyScope: boolean;
}

/** What the scan found for a rule asked in every scope: per scope (join key), its scope values, holders and locks. */
export type ScopeFinds = Map<string, { scope: ScopeValues; holders: PlainKey[]; locks: LockProbe[] }>;

/** Sorts a scanned page's holders and locks of the value into their scopes. */
export function collectEveryScope(convention: Convention, items: readonly Item[], p: Plan, finds: ScopeFinds): void {
  const at = (scope: ScopeValues): { scope: ScopeValues; holders: PlainKey[]; locks: LockProbe[] } => {
    const id = joinKey(scope, '');
    let entry = finds.get(id);
    if (!entry) finds.set(id, (entry = { scope, holders: [], locks: [] }));
    return entry;
  };
  for (const item of items) {
    const cls = classifyItem(convention, item);
    if (cls.kind === 'account') {
      for (const v of cls.values)
        if (v.ruleIndex === p.index && v.normalized === p.normalized && v.scope) at(v.scope).holders.push(cls.key);
    } else if (cls.kind === 'lock' && cls.ruleIndex === p.index && cls.normalized === p.normalized && cls.scope) {
      const owner = cls.owner;
      at(cls.scope).locks.push({ key: cls.key, exists: true, legacy: false, ...(owner === undefined ? {} : { owner }) });
    }
  }
}

/** One result per scope the scan found the value in; "free in every scope" when it found none. */
export function everyScopeResults(
  convention: Convention,
  p: Plan,
  finds: ScopeFinds,
  search: HolderSearch,
  reason: string | undefined,
): RuleLookup[] {
  const found = [...finds.values()].sort((a, b) => (joinKey(a.scope, '') < joinKey(b.scope, '') ? -1 : 1));
  if (found.length === 0) {
    const notes = [...p.notes, 'no lock and no holder of this value in any scope'];
    return [ruleResult(convention, { ...p, notes }, [], [], search, p.normalized, reason, undefined)];
  }
  return found.map((f) => ruleResult(convention, p, f.locks, dedupe(f.holders, convention), search, p.normalized, reason, f.scope));
}

/** The verdict for one rule (in one scope), with its notes. */
export function ruleResult(
  convention: Convention,
  p: Plan,
  probes: readonly LockProbe[],
  holders: readonly PlainKey[],
  search: HolderSearch,
  value: string,
  reason: string | undefined,
  scope: ScopeValues | undefined,
): RuleLookup {
  const found = probes.filter((l) => l.exists);
  const notes = [...new Set([...p.notes, ...foundLockNotes(convention, p.index, found)])];
  const holderHash = holders.length === 1 ? String(holders[0]?.[convention.keys.hash.name] ?? '') : undefined;
  for (const lock of found) {
    if (holderHash !== undefined && lock.owner !== undefined && lock.owner !== holderHash)
      notes.push(`the lock names ${lock.owner} as owner, but ${holderHash} holds the value (owner-mismatch)`);
  }
  if (search.kind === 'gsi' && p.rule.normalize.length > 0) notes.push(storedFormNote(search.index, p.rule, value));
  if (search.kind === 'audit')
    notes.push(
      `holders from the audit of ${search.auditedAt}, each re-read by key (consistent read); an account another client wrote since then is not seen (audit again, or add the GSI \`locksmith suggest-index\` prints)`,
    );
  if (search.kind === 'scan' && !p.everyScope)
    notes.push(
      `no GSI on ${p.rule.attribute}: the holders were found by scanning the whole table; \`locksmith suggest-index --rule ${p.rule.name}\` prints the index that makes this one Query`,
    );
  if (search.kind === 'scan' && !search.complete)
    notes.push(`the scan for holders did not finish (${reason ?? 'unknown'}): the verdict may be wrong`);
  const record = scopeRecord(p.rule, scope);
  return {
    rule: p.rule.name,
    attribute: p.rule.attribute,
    normalized: p.normalized,
    ...(record ? { scope: record } : {}),
    verdict: verdictFor(holders.length, found.length),
    locks: probes,
    holders,
    search,
    notes,
  };
}
