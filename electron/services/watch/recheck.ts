/**
 * The consistent re-read of one scope after its records settled: the candidate lock keys with
 * GetItem (ConsistentRead), the holders through a GSI on the rule's attribute when one exists (as
 * lookup finds them; each hit re-read consistently, since an index lags), plus every account the
 * records named. Holders the records may not have named are searched with lookup's holder search
 * (see needsHolderSearch): a scan costs, a false alarm or a missed duplicate costs more.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { formatLockKey } from '../../../shared/conventions/format';
import { isScoped } from '../../../shared/conventions/scope';
import { PARTITION_KEY_MAX_BYTES, SORT_KEY_MAX_BYTES, utf8ByteLength } from '../../../shared/key-limits';
import type { Convention, Item, PlainKey, Problem } from '../../../shared/model';
import { keyId, keyOf } from '../../../shared/plain-key';
import { scopeProblems } from '../../../shared/watch/evaluate';
import type { ValueScope, WatchScope } from '../../../shared/watch/scopes';
import type { GsiInfo } from '../dynamo/tables';
import { holderIndex, queryIndexForms } from '../lookup/holder-reads';
import { lookupValue } from '../lookup/lookup';
import { readItem } from '../transactions/reads';

/** What a re-check needs. */
export interface RecheckContext {
  readonly client: DynamoDBClient;
  readonly table: { readonly name: string; readonly gsis: readonly GsiInfo[] };
  readonly convention: Convention;
  readonly signal: AbortSignal;
  /** Search for holders the records did not name (an apparent orphan, a value gained outside a transaction) with lookup's holder search (default true). */
  readonly confirmOrphans?: boolean;
}

function getItem(ctx: RecheckContext, key: PlainKey, table: string = ctx.table.name): Promise<Item | undefined> {
  return readItem(ctx.client, table, ctx.convention, key, ctx.signal);
}

/** Every key a lock of this value may have: each enumerable template × each spelling, plus the keys the records named. */
function lockKeys(convention: Convention, scope: ValueScope): PlainKey[] {
  const rule = convention.rules[scope.ruleIndex];
  const keys = convention.keys;
  const out: PlainKey[] = [...scope.locks];
  if (!rule || keys.hash.type !== 'S') return out;
  // A scoped lock key needs the scope values; without them only the keys the records named are read.
  if (isScoped(rule) && scope.scope === undefined) return out;
  for (const template of rule.lockKeys) {
    if (keys.range && template.range === undefined) continue;
    for (const form of new Set([scope.normalized, ...scope.forms])) {
      const text = formatLockKey(rule, form, template, scope.scope);
      if (
        utf8ByteLength(text.hash) > PARTITION_KEY_MAX_BYTES ||
        (text.range !== undefined && utf8ByteLength(text.range) > SORT_KEY_MAX_BYTES)
      )
        continue;
      out.push(keys.range ? { [keys.hash.name]: text.hash, [keys.range.name]: text.range ?? '' } : { [keys.hash.name]: text.hash });
    }
  }
  return out;
}

/** Holder keys the rule's GSI lists for the stored spellings (undefined when no index fits). */
async function indexedHolders(ctx: RecheckContext, scope: ValueScope): Promise<PlainKey[] | undefined> {
  const rule = ctx.convention.rules[scope.ruleIndex];
  const index = rule ? holderIndex(ctx.table.gsis, rule) : undefined;
  if (!rule || !index) return undefined;
  const forms = new Set([scope.normalized, ...scope.forms]);
  const items = await queryIndexForms(ctx.client, ctx.table.name, index, rule.attribute, forms, ctx.signal);
  return items.map((item) => keyOf(item, ctx.convention.keys));
}

async function readAll(ctx: RecheckContext, keys: readonly PlainKey[], table: string = ctx.table.name): Promise<Item[]> {
  const unique = new Map(keys.map((k) => [keyId(k, ctx.convention.keys), k]));
  const items = await Promise.all([...unique.values()].map((k) => getItem(ctx, k, table)));
  return items.filter((i): i is Item => i !== undefined);
}

/** The scope's problems now, from consistent re-reads. */
export async function recheckScope(ctx: RecheckContext, scope: WatchScope): Promise<Problem[]> {
  const { convention } = ctx;
  if (scope.kind === 'malformed') {
    const lockTable = scope.inLockTable ? convention.lockTable : undefined;
    return lockTable === undefined
      ? scopeProblems(convention, scope, await readAll(ctx, [scope.key]))
      : scopeProblems(convention, scope, [], await readAll(ctx, [scope.key], lockTable));
  }
  const indexed = await indexedHolders(ctx, scope);
  // Locks may live in a table of their own (convention.lockTable): read there and fed as the lock table's, as the audit does.
  const lockTable = convention.lockTable;
  const holderKeys = [...scope.accounts, ...(indexed ?? [])];
  const [holderItems, locks] = await Promise.all([
    readAll(ctx, holderKeys),
    readAll(ctx, lockKeys(convention, scope), lockTable ?? ctx.table.name),
  ]);
  const [items, lockItems] = lockTable === undefined ? [[...holderItems, ...locks], []] : [holderItems, locks];
  const problems = scopeProblems(convention, scope, items, lockItems);
  const search = holderSearch(ctx, scope, problems, { indexed: indexed !== undefined, lockExists: locks.length > 0 });
  if (search === undefined) return problems;
  // The records named the holders they knew of; another account may hold the value too: lookup's holder search (GSI, else
  // scan) — or the scan alone, when the index would only find again the spellings already queried.
  const table = search === 'scan' ? { ...ctx.table, gsis: [] } : ctx.table;
  const answer = await lookupValue({
    client: ctx.client,
    table,
    convention,
    value: scope.normalized,
    rule: scope.rule,
    signal: ctx.signal,
    confirmAbsenceWithScan: true,
  });
  if (!answer.ok) throw new Error(answer.error.message);
  if (!answer.value.complete) throw new Error(`the holder search for ${scope.rule} ${JSON.stringify(scope.normalized)} did not finish`);
  const holders = answer.value.rules.flatMap((r) => r.holders);
  if (holders.length === 0) return problems;
  return scopeProblems(convention, scope, [...items, ...(await readAll(ctx, holders))], lockItems);
}

/**
 * Which holder search, if any, when the holders the records named (and the index found) may not be all: an apparent orphan
 * without an index, or with one on a normalizing rule (the index is queried with the spellings the
 * records showed; an account storing another spelling is not found); a value an account gained
 * without a lock record alongside while its lock exists (written outside a transaction: another
 * account may hold it — with an index, its exact spellings were queried already); or a lock deleted
 * with no account record alongside and none left (a holder may stand unprotected: missing-lock).
 */
function holderSearch(
  ctx: RecheckContext,
  scope: ValueScope,
  problems: readonly Problem[],
  found: { indexed: boolean; lockExists: boolean },
): 'lookup' | 'scan' | undefined {
  const { indexed, lockExists } = found;
  if (ctx.confirmOrphans === false) return undefined;
  const rule = ctx.convention.rules[scope.ruleIndex];
  const normalizes = (rule?.normalize.length ?? 0) > 0;
  // lookup queries the index again, and scans only when it finds nobody under a normalizing rule.
  if (problems.some((p) => p.kind === 'orphan-lock')) return !indexed || normalizes ? 'lookup' : undefined;
  const rawGain = scope.gained && scope.locks.length === 0 && lockExists && !problems.some((p) => p.kind === 'duplicate-value');
  // The index finds the gaining account itself, so lookup would not scan: an earlier holder of another spelling needs the scan.
  if (rawGain) return !indexed ? 'lookup' : normalizes ? 'scan' : undefined;
  return scope.lockRemoved && scope.accounts.length === 0 && !lockExists && problems.length === 0 ? 'lookup' : undefined;
}
