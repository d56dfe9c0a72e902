/**
 * Lookup: is this value free, held, orphaned, unprotected or duplicated? Reads each candidate
 * lock with a consistent GetItem, then finds the holders through a GSI on the rule's attribute
 * when the table has one, else through one filtered parallel scan shared by all rules.
 */
import { GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { classifyItem, scalarText } from '../../../shared/conventions/classify';
import { formatLockKey } from '../../../shared/conventions/format';
import { normalizeValue } from '../../../shared/conventions/normalize';
import { parseLockKey } from '../../../shared/conventions/parse';
import { SCOPE_PLACEHOLDER } from '../../../shared/conventions/presets';
import { PARTITION_KEY_MAX_BYTES, SORT_KEY_MAX_BYTES, utf8ByteLength } from '../../../shared/limits';
import type { Convention, Item, LockRule, PlainKey } from '../../../shared/model';
import { formatKey, keyId, keyOf, toTypedKey } from '../../../shared/plain-key';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ScanProgress } from '../../../shared/scan-types';
import { toAppError } from '../dynamo/errors';
import type { ErrorContext } from '../dynamo/errors';
import { withRetry } from '../dynamo/retry';
import type { GsiInfo } from '../dynamo/tables';
import { scanTable } from '../scanner/scanner';
import { holderScanFilter, holderScanProjection } from './holder-scan';
import type { HolderSearch, LockProbe, LookupAnswer, LookupVerdict, RuleLookup } from './lookup-types';

/** What to look up, where. */
export interface LookupOptions {
  readonly client: DynamoDBClient;
  readonly table: { readonly name: string; readonly gsis: readonly GsiInfo[] };
  readonly convention: Convention;
  readonly value: string;
  /** A rule name; default: every rule of the convention. */
  readonly rule?: string;
  /** Segments of the holder scan (when no GSI fits). */
  readonly segments?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ScanProgress) => void;
  readonly errorContext?: ErrorContext;
  /**
   * A GSI finds only the stored spellings queried; when a normalizing rule's index query finds no
   * holder, confirm with the scan (release pre-checks need this certainty; interactive lookups may skip it).
   */
  readonly confirmAbsenceWithScan?: boolean;
}

/** Distinct forms of the value worth reading: the normalized one (what locks are written with) first. */
function valueForms(rule: LockRule, value: string): string[] {
  const normalized = normalizeValue(value, rule.normalize);
  return normalized === value ? [value] : [normalized, value];
}

/** The lock keys a value may be written under: every template (legacy included) × every form; scoped templates cannot be enumerated. */
function candidateKeys(convention: Convention, rule: LockRule, value: string, notes: string[]): { key: PlainKey; legacy: boolean }[] {
  const keys = convention.keys;
  if (keys.hash.type !== 'S') {
    notes.push(`the table's partition key is of type ${keys.hash.type}: locks need string keys`);
    return [];
  }
  const out: { key: PlainKey; legacy: boolean }[] = [];
  const seen = new Set<string>();
  rule.lockKeys.forEach((template, index) => {
    if (template.hash.includes(SCOPE_PLACEHOLDER)) {
      notes.push(`scoped locks (${template.hash}) cannot be read by key without knowing the scope; an audit finds them`);
      return;
    }
    for (const form of valueForms(rule, value)) {
      const text = formatLockKey(rule, form, template);
      if (utf8ByteLength(text.hash) > PARTITION_KEY_MAX_BYTES || (text.range !== undefined && utf8ByteLength(text.range) > SORT_KEY_MAX_BYTES)) {
        notes.push(`the lock key for this value would exceed DynamoDB's key size limit, so no such lock can exist`);
        continue;
      }
      const key: PlainKey = keys.range ? { [keys.hash.name]: text.hash, [keys.range.name]: text.range ?? '' } : { [keys.hash.name]: text.hash };
      const id = keyId(key, keys);
      if (seen.has(id) || (keys.range && text.range === undefined)) continue;
      seen.add(id);
      out.push({ key, legacy: index > 0 });
    }
  });
  return out;
}

async function readLock(options: LookupOptions, candidate: { key: PlainKey; legacy: boolean }): Promise<LockProbe> {
  const { client, convention, signal } = options;
  const out = await withRetry(
    () => client.send(new GetItemCommand({ TableName: options.table.name, Key: toTypedKey(candidate.key, convention.keys), ConsistentRead: true }), { abortSignal: signal }),
    { signal },
  );
  const owner = out.Item && convention.ownerAttribute ? scalarText(out.Item[convention.ownerAttribute]) : undefined;
  return { key: candidate.key, exists: out.Item !== undefined, legacy: candidate.legacy, ...(owner === undefined ? {} : { owner }) };
}

/** The GSI usable to find holders: partition key = the rule's attribute, active. */
export function holderIndex(gsis: readonly GsiInfo[], rule: LockRule): GsiInfo | undefined {
  return gsis.find((g) => g.hash.name === rule.attribute && (g.status === undefined || g.status === 'ACTIVE') && g.hash.type !== 'B');
}

function queryValue(index: GsiInfo, form: string): AttributeValue | undefined {
  if (index.hash.type === 'S') return { S: form };
  return form.trim() !== '' && Number.isFinite(Number(form)) ? { N: form } : undefined;
}

/** Accounts among `items` that hold `normalized` under rule `ruleIndex`. */
function holdersIn(convention: Convention, items: readonly Item[], ruleIndex: number, normalized: string): PlainKey[] {
  const out: PlainKey[] = [];
  for (const item of items) {
    const cls = classifyItem(convention, item);
    if (cls.kind === 'account' && cls.values.some((v) => v.ruleIndex === ruleIndex && v.normalized === normalized)) out.push(cls.key);
  }
  return out;
}

async function queryHolders(options: LookupOptions, index: GsiInfo, rule: LockRule, ruleIndex: number, normalized: string): Promise<PlainKey[]> {
  const { client, convention, signal } = options;
  const items: Item[] = [];
  for (const form of valueForms(rule, options.value)) {
    const value = queryValue(index, form);
    if (!value) continue;
    let startKey: Record<string, AttributeValue> | undefined;
    do {
      const request = { TableName: options.table.name, IndexName: index.name, KeyConditionExpression: '#a = :v', ExpressionAttributeNames: { '#a': rule.attribute }, ExpressionAttributeValues: { ':v': value }, ExclusiveStartKey: startKey };
      const page = await withRetry(() => client.send(new QueryCommand(request), { abortSignal: signal }), { signal });
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  // An index that projects only keys may lack what recognises an account (OneTable's `_type`): read the item itself.
  const matcher = convention.account;
  const full = await Promise.all(
    items.map(async (item) => {
      if (matcher.kind !== 'attribute-equals' || item[matcher.attribute] !== undefined) return item;
      const out = await withRetry(() => client.send(new GetItemCommand({ TableName: options.table.name, Key: toTypedKey(keyOf(item, convention.keys), convention.keys), ConsistentRead: true }), { abortSignal: signal }), { signal });
      return out.Item;
    }),
  );
  return holdersIn(convention, full.filter((i): i is Item => i !== undefined), ruleIndex, normalized);
}

function dedupe(keys: readonly PlainKey[], convention: Convention): PlainKey[] {
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
      const normalized = normalizeValue(parsed.value, rule.normalize);
      if (normalized !== parsed.value) {
        const canonical = formatLockKey(rule, normalized);
        const canonicalKey: PlainKey = keys.range ? { [keys.hash.name]: canonical.hash, [keys.range.name]: canonical.range ?? '' } : { [keys.hash.name]: canonical.hash };
        notes.push(`lock ${text} is written with the value as typed, not normalized (${rule.normalize.join(', ')}): new claims and releases use ${formatKey(canonicalKey, keys)}`);
      }
    }
  }
  return notes;
}

/** The verdict from the holders and the locks found. */
export function verdictFor(holders: number, locksFound: number): LookupVerdict {
  if (holders > 1) return 'duplicate';
  if (holders === 1) return locksFound > 0 ? 'held' : 'unprotected';
  return locksFound > 0 ? 'orphan' : 'free';
}

/** Looks a value up under one rule or all rules of the convention. */
export async function lookupValue(options: LookupOptions): Promise<Result<LookupAnswer>> {
  const { convention, value } = options;
  if (value === '') return err('validation', 'the value must not be empty', { field: 'value' });
  const selected = options.rule === undefined ? convention.rules.map((rule, index) => ({ rule, index })) : convention.rules.map((rule, index) => ({ rule, index })).filter((r) => r.rule.name === options.rule);
  if (selected.length === 0) {
    const known = convention.rules.map((r) => r.name).join(', ') || 'none';
    return err('validation', options.rule === undefined ? 'the convention has no rules' : `unknown rule ${options.rule} (rules: ${known})`, { field: 'rule' });
  }
  for (const { rule } of selected) {
    // Only spaces under `trim`: no lock can hold it and no account is found for it; say so instead of "free".
    if (normalizeValue(value, rule.normalize) === '') return err('validation', `${rule.name}: the value is empty after normalization (${rule.normalize.join(', ')})`, { field: 'value' });
  }
  try {
    const plans = selected.map(({ rule, index }) => {
      const notes: string[] = [];
      const candidates = candidateKeys(convention, rule, value, notes);
      const gsi = holderIndex(options.table.gsis, rule);
      return { rule, index, notes, candidates, gsi, normalized: normalizeValue(value, rule.normalize) };
    });
    const locks = await Promise.all(plans.map((p) => Promise.all(p.candidates.map((c) => readLock(options, c)))));
    const indexed: (PlainKey[] | undefined)[] = await Promise.all(plans.map((p) => (p.gsi ? queryHolders(options, p.gsi, p.rule, p.index, p.normalized) : Promise.resolve(undefined))));

    plans.forEach((p, i) => {
      if (p.gsi && options.confirmAbsenceWithScan && p.rule.normalize.length > 0 && (indexed[i]?.length ?? 0) === 0) {
        p.notes.push(`index ${p.gsi.name} found no holder of the stored forms; a scan confirmed the answer`);
        indexed[i] = undefined;
      }
    });
    const scanPlans = plans.filter((_p, i) => indexed[i] === undefined);
    const scanned = new Map<number, PlainKey[]>(scanPlans.map((p) => [p.index, []]));
    let outcome: Awaited<ReturnType<typeof scanTable>> | undefined;
    if (scanPlans.length > 0) {
      const rules = scanPlans.map((p) => ({ rule: p.rule, index: p.index, normalized: p.normalized, forms: valueForms(p.rule, value) }));
      outcome = await scanTable({
        client: options.client,
        table: options.table.name,
        segments: options.segments,
        projection: holderScanProjection(convention, rules),
        filter: holderScanFilter(rules),
        signal: options.signal,
        onProgress: options.onProgress,
        errorContext: options.errorContext,
        onPage: (items) => {
          for (const r of rules) scanned.get(r.index)?.push(...holdersIn(convention, items, r.index, r.normalized));
        },
      });
      if (outcome.error && outcome.error.kind !== 'cancelled' && outcome.progress.pages === 0) return { ok: false, error: outcome.error };
    }

    const results: RuleLookup[] = plans.map((p, i) => {
      const probes = locks[i] ?? [];
      const holders = dedupe(indexed[i] ?? scanned.get(p.index) ?? [], convention);
      const found = probes.filter((l) => l.exists);
      const notes = [...new Set([...p.notes, ...foundLockNotes(convention, p.index, found)])];
      const holderHash = holders.length === 1 ? String(holders[0]?.[convention.keys.hash.name] ?? '') : undefined;
      for (const lock of found) {
        if (holderHash !== undefined && lock.owner !== undefined && lock.owner !== holderHash) notes.push(`the lock names ${lock.owner} as owner, but ${holderHash} holds the value (owner-mismatch)`);
      }
      const search: HolderSearch = indexed[i] !== undefined && p.gsi ? { kind: 'gsi', index: p.gsi.name } : { kind: 'scan', segments: outcome?.progress.segments ?? 0, complete: outcome?.complete ?? false };
      if (search.kind === 'gsi' && p.rule.normalize.length > 0) notes.push(storedFormNote(search.index, p.rule, value));
      if (search.kind === 'scan' && !search.complete) notes.push(`the scan for holders did not finish (${outcome?.reason ?? 'unknown'}): the verdict may be wrong`);
      return { rule: p.rule.name, attribute: p.rule.attribute, normalized: p.normalized, verdict: verdictFor(holders.length, found.length), locks: probes, holders, search, notes };
    });
    const kinds = new Set(results.map((r) => r.search.kind));
    const method = kinds.size === 2 ? 'mixed' : kinds.has('gsi') ? 'gsi' : 'scan';
    const complete = outcome === undefined || outcome.complete;
    return ok({
      table: options.table.name,
      value,
      method,
      complete,
      ...(complete ? {} : { reason: outcome?.reason ?? 'incomplete' }),
      rules: results,
      ...(outcome ? { scan: outcome.progress } : {}),
    });
  } catch (error) {
    return { ok: false, error: toAppError(error, { ...options.errorContext, table: options.table.name }) };
  }
}
