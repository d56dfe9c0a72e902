/**
 * The reads of a lookup by key and by index: a candidate lock (GetItem), the holders through a GSI (Query),
 * or an audit's holders, each holder re-read by key so that only accounts holding the value now count.
 */
import { GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { classifyItem, scalarText } from '../../../shared/conventions/classify';
import { joinKey, type ScopeValues } from '../../../shared/conventions/scope';
import type { Convention, Item, LockRule, PlainKey } from '../../../shared/model';
import { keyOf, toTypedKey } from '../../../shared/plain-key';
import { withRetry } from '../dynamo/retry';
import type { GsiInfo } from '../dynamo/tables';
import { canonicalJson, type AuditIndex } from '../audit/audit-index';
import type { LockProbe, LookupOptions } from './lookup-types';
import { dedupe, valueForms, type Plan } from './lookup-results';

/** Reads one candidate lock by key, consistently, with its owner when the convention names one. */
export async function readLock(options: LookupOptions, candidate: { key: PlainKey; legacy: boolean }): Promise<LockProbe> {
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

/** Every item a rule's GSI lists under each spelling of a value (all pages; a spelling the index cannot hold is skipped). */
export async function queryIndexForms(
  client: DynamoDBClient,
  table: string,
  index: GsiInfo,
  attribute: string,
  forms: Iterable<string>,
  signal?: AbortSignal,
): Promise<Item[]> {
  const items: Item[] = [];
  for (const form of forms) {
    const value = queryValue(index, form);
    if (!value) continue;
    let startKey: Record<string, AttributeValue> | undefined;
    do {
      const request = {
        TableName: table,
        IndexName: index.name,
        KeyConditionExpression: '#a = :v',
        ExpressionAttributeNames: { '#a': attribute },
        ExpressionAttributeValues: { ':v': value },
        ExclusiveStartKey: startKey,
      };
      const page = await withRetry(() => client.send(new QueryCommand(request), { abortSignal: signal }), { signal });
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  return items;
}

/** Accounts among `items` that hold `normalized` under rule `ruleIndex` (in `scope`, when given). */
export function holdersIn(
  convention: Convention,
  items: readonly Item[],
  ruleIndex: number,
  normalized: string,
  scope?: ScopeValues,
): PlainKey[] {
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

/** The accounts holding the value found through a GSI on the rule's attribute, each re-read by key. */
export async function queryHolders(
  options: LookupOptions,
  index: GsiInfo,
  rule: LockRule,
  ruleIndex: number,
  normalized: string,
  scope?: ScopeValues,
): Promise<PlainKey[]> {
  const { client, convention, signal } = options;
  const items = await queryIndexForms(client, options.table.name, index, rule.attribute, valueForms(rule, options.value), signal);
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
export function auditHolders(options: LookupOptions, index: AuditIndex, p: Plan): Promise<PlainKey[]> {
  return holdersByKey(options, index.holders(p.index, p.normalized, p.scope), p.index, p.normalized, p.scope);
}

/** The audit index when it is of this table under this very convention. */
export function usableAudit(options: LookupOptions): AuditIndex | undefined {
  const index = options.auditIndex;
  return index !== undefined && index.table === options.table.name && canonicalJson(index.convention) === canonicalJson(options.convention)
    ? index
    : undefined;
}
