/**
 * Lookup: is this value free, held, orphaned, unprotected or duplicated? Reads each candidate
 * lock with a consistent GetItem, then finds the holders through a GSI on the rule's attribute
 * when the table has one, else through one filtered parallel scan shared by all rules.
 */
import { GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { classifyItem, scalarText } from '../../../shared/conventions/classify';
import { formatLockKey } from '../../../shared/conventions/format';
import { ruleNormalizer } from '../../../shared/conventions/parse';
import { isScoped, joinKey, scopeFromRecord, type ScopeValues } from '../../../shared/conventions/scope';
import { scopeNamesOf } from '../../../shared/conventions/template';
import { PARTITION_KEY_MAX_BYTES, SORT_KEY_MAX_BYTES, utf8ByteLength } from '../../../shared/key-limits';
import type { Convention, Item, LockRule, PlainKey } from '../../../shared/model';
import { keyId, keyOf, toTypedKey } from '../../../shared/plain-key';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import type { ScanProgress } from '../../../shared/scan-types';
import { toAppError } from '../dynamo/errors';
import type { ErrorContext } from '../dynamo/errors';
import { withRetry } from '../dynamo/retry';
import type { GsiInfo } from '../dynamo/tables';
import { canonicalJson, type AuditIndex } from '../audit/audit-index';
import { scanTable } from '../scanner/scanner';
import { holderScanFilter, holderScanProjection } from './holder-scan';
import type { HolderSearch, LockProbe, LookupAnswer, RuleLookup } from './lookup-types';
import { collectEveryScope, dedupe, everyScopeResults, ruleResult, valueForms, type Plan, type ScopeFinds } from './lookup-results';

export { foundLockNotes } from './lookup-results';

/** What to look up, where. */
export interface LookupOptions {
  readonly client: DynamoDBClient;
  readonly table: { readonly name: string; readonly gsis: readonly GsiInfo[] };
  readonly convention: Convention;
  readonly value: string;
  /** A rule name; default: every rule of the convention. */
  readonly rule?: string;
  /**
   * For scoped rules: the scope to look in, by account attribute (`{ orgId: "acme" }`). Without it,
   * a scoped rule's locks and holders are found in every scope by one scan.
   */
  readonly scope?: Readonly<Record<string, string>>;
  /** Segments of the holder scan (when no GSI fits). */
  readonly segments?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ScanProgress) => void;
  readonly errorContext?: ErrorContext;
  /**
   * A GSI finds only the stored spellings queried and is eventually consistent; an audit cannot see
   * later writes: when either finds no holder, confirm with a consistent scan (re-checks after a write
   * and live-watch re-checks need this certainty; interactive lookups may skip it).
   */
  readonly confirmAbsenceWithScan?: boolean;
  /**
   * A complete audit of this table (see audit-index.ts): rules without a GSI take their holders from it,
   * re-read by key, instead of scanning. Ignored unless it is of this table under this very convention.
   */
  readonly auditIndex?: AuditIndex;
}

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

async function readLock(options: LookupOptions, candidate: { key: PlainKey; legacy: boolean }): Promise<LockProbe> {
  const { client, convention, signal } = options;
  const out = await withRetry(
    () =>
      client.send(
        new GetItemCommand({
          TableName: convention.lockTable ?? options.table.name,
          Key: toTypedKey(candidate.key, convention.keys),
          ConsistentRead: true,
        }),
        { abortSignal: signal },
      ),
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

/** Accounts among `items` that hold `normalized` under rule `ruleIndex` (in `scope`, when given). */
function holdersIn(convention: Convention, items: readonly Item[], ruleIndex: number, normalized: string, scope?: ScopeValues): PlainKey[] {
  const out: PlainKey[] = [];
  const want = scope === undefined ? undefined : joinKey(scope, normalized);
  for (const item of items) {
    const cls = classifyItem(convention, item);
    if (
      cls.kind === 'account' &&
      cls.values.some(
        (v) => v.ruleIndex === ruleIndex && v.normalized === normalized && (want === undefined || joinKey(v.scope, v.normalized) === want),
      )
    )
      out.push(cls.key);
  }
  return out;
}

async function queryHolders(
  options: LookupOptions,
  index: GsiInfo,
  rule: LockRule,
  ruleIndex: number,
  normalized: string,
  scope?: ScopeValues,
): Promise<PlainKey[]> {
  const { client, convention, signal } = options;
  const items: Item[] = [];
  for (const form of valueForms(rule, options.value)) {
    const value = queryValue(index, form);
    if (!value) continue;
    let startKey: Record<string, AttributeValue> | undefined;
    do {
      const request = {
        TableName: options.table.name,
        IndexName: index.name,
        KeyConditionExpression: '#a = :v',
        ExpressionAttributeNames: { '#a': rule.attribute },
        ExpressionAttributeValues: { ':v': value },
        ExclusiveStartKey: startKey,
      };
      const page = await withRetry(() => client.send(new QueryCommand(request), { abortSignal: signal }), { signal });
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  // Every hit is read again by key, consistently: an index may project only keys (no scope, no `_type`:
  // a scoped rule's holders were all dropped), and it is eventually consistent (a holder that just let the value go).
  return holdersByKey(
    options,
    items.map((item) => keyOf(item, convention.keys)),
    ruleIndex,
    normalized,
    scope,
  );
}

/** Of `keys`, the accounts that hold `normalized` under rule `ruleIndex` (in `scope`) now: each re-read by key, consistently. */
async function holdersByKey(
  options: LookupOptions,
  keys: readonly PlainKey[],
  ruleIndex: number,
  normalized: string,
  scope?: ScopeValues,
): Promise<PlainKey[]> {
  const { client, convention, signal } = options;
  const items = await Promise.all(
    dedupe(keys, convention).map(async (key) => {
      const out = await withRetry(
        () =>
          client.send(new GetItemCommand({ TableName: options.table.name, Key: toTypedKey(key, convention.keys), ConsistentRead: true }), {
            abortSignal: signal,
          }),
        { signal },
      );
      return out.Item;
    }),
  );
  return holdersIn(
    convention,
    items.filter((i): i is Item => i !== undefined),
    ruleIndex,
    normalized,
    scope,
  );
}

/** The holders an audit read, each re-read by key (consistent): only those that still hold the value count. */
function auditHolders(options: LookupOptions, index: AuditIndex, p: Plan): Promise<PlainKey[]> {
  return holdersByKey(options, index.holders(p.index, p.normalized, p.scope), p.index, p.normalized, p.scope);
}

/** The audit index when it is of this table under this very convention. */
function usableAudit(options: LookupOptions): AuditIndex | undefined {
  const index = options.auditIndex;
  return index !== undefined && index.table === options.table.name && canonicalJson(index.convention) === canonicalJson(options.convention)
    ? index
    : undefined;
}

/** The rules to look in, with the scope each is asked in; an error for a bad rule, value or scope. */
function planRules(options: LookupOptions): Result<Plan[]> {
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

/** Looks a value up under one rule or all rules of the convention. */
export async function lookupValue(options: LookupOptions): Promise<Result<LookupAnswer>> {
  const { convention, value } = options;
  if (value === '') return err('validation', 'the value must not be empty', { field: 'value' });
  const planned = planRules(options);
  if (!planned.ok) return planned;
  const plans = planned.value;
  try {
    const locks = await Promise.all(plans.map((p) => Promise.all(p.candidates.map((c) => readLock(options, c)))));
    const audit = usableAudit(options);
    // Per rule: a GSI, else the audit's holders (a rule asked in every scope still scans), else the scan.
    const viaAudit = plans.map((p) => !p.gsi && !p.everyScope && audit !== undefined);
    const indexed: (PlainKey[] | undefined)[] = await Promise.all(
      plans.map((p, i) =>
        p.gsi
          ? queryHolders(options, p.gsi, p.rule, p.index, p.normalized, p.scope)
          : viaAudit[i] && audit
            ? auditHolders(options, audit, p)
            : Promise.resolve(undefined),
      ),
    );

    plans.forEach((p, i) => {
      // An index finds stored spellings only, and is eventually consistent (an account written a moment ago may be missing).
      if (p.gsi && options.confirmAbsenceWithScan && (indexed[i]?.length ?? 0) === 0) {
        p.notes.push(`index ${p.gsi.name} found no holder; a consistent scan confirmed the answer`);
        indexed[i] = undefined;
      }
      // An audit cannot know of accounts written after it: absence is certain only from a scan.
      if (viaAudit[i] && options.confirmAbsenceWithScan && (indexed[i]?.length ?? 0) === 0) {
        p.notes.push('the audit found no holder; a scan confirmed the answer');
        viaAudit[i] = false;
        indexed[i] = undefined;
      }
    });
    const scanPlans = plans.filter((_p, i) => indexed[i] === undefined);
    const scanned = new Map<number, PlainKey[]>(scanPlans.map((p) => [p.index, []]));
    const everyScope = new Map<number, ScopeFinds>(scanPlans.filter((p) => p.everyScope).map((p) => [p.index, new Map()]));
    let outcome: Awaited<ReturnType<typeof scanTable>> | undefined;
    if (scanPlans.length > 0) {
      const rules = scanPlans.map((p) => ({ rule: p.rule, index: p.index, normalized: p.normalized, forms: valueForms(p.rule, value) }));
      const scanOf = (table: string, only: readonly Plan[]) => {
        const subset = rules.filter((r) => only.some((p) => p.index === r.index));
        return scanTable({
          client: options.client,
          table,
          segments: options.segments,
          // A holder written a moment ago (the re-check right after a claim) must be seen: the scan reads consistently.
          consistentRead: true,
          projection: holderScanProjection(convention, subset),
          filter: holderScanFilter(subset, convention),
          signal: options.signal,
          onProgress: options.onProgress,
          errorContext: options.errorContext,
          onPage: (items) => {
            for (const p of only) {
              const finds = everyScope.get(p.index);
              if (finds) collectEveryScope(convention, items, p, finds);
              else scanned.get(p.index)?.push(...holdersIn(convention, items, p.index, p.normalized, p.scope));
            }
          },
        });
      };
      // With a lock table, a scoped rule asked in every scope finds its locks there, in a second scan.
      const lockPlans = convention.lockTable === undefined ? [] : scanPlans.filter((p) => p.everyScope);
      const [main, locksScan] = await Promise.all([
        scanOf(options.table.name, scanPlans),
        lockPlans.length > 0 && convention.lockTable ? scanOf(convention.lockTable, lockPlans) : undefined,
      ]);
      outcome = locksScan && !locksScan.complete ? locksScan : main;
      if (outcome.error && outcome.error.kind !== 'cancelled' && outcome.progress.pages === 0) return { ok: false, error: outcome.error };
    }

    const scanSearch: HolderSearch = { kind: 'scan', segments: outcome?.progress.segments ?? 0, complete: outcome?.complete ?? false };
    const results: RuleLookup[] = plans.flatMap((p, i): RuleLookup[] => {
      const finds = everyScope.get(p.index);
      if (finds) return everyScopeResults(convention, p, finds, scanSearch, outcome?.reason);
      const search: HolderSearch =
        indexed[i] !== undefined && p.gsi
          ? { kind: 'gsi', index: p.gsi.name }
          : indexed[i] !== undefined && viaAudit[i] && audit
            ? { kind: 'audit', auditedAt: new Date(audit.finishedAt).toISOString() }
            : scanSearch;
      return [
        ruleResult(
          convention,
          p,
          locks[i] ?? [],
          dedupe(indexed[i] ?? scanned.get(p.index) ?? [], convention),
          search,
          value,
          outcome?.reason,
          p.scope,
        ),
      ];
    });
    const kinds = new Set(results.map((r) => r.search.kind));
    const method = kinds.size >= 2 ? 'mixed' : kinds.has('gsi') ? 'gsi' : kinds.has('audit') ? 'audit' : 'scan';
    const usedAudit = kinds.has('audit') && audit ? new Date(audit.finishedAt).toISOString() : undefined;
    const complete = outcome === undefined || outcome.complete;
    return ok({
      table: options.table.name,
      value,
      method,
      ...(usedAudit ? { usedAudit } : {}),
      complete,
      ...(complete ? {} : { reason: outcome?.reason ?? 'incomplete' }),
      rules: results,
      ...(outcome ? { scan: outcome.progress } : {}),
    });
  } catch (error) {
    return { ok: false, error: toAppError(error, { ...options.errorContext, table: options.table.name }) };
  }
}
