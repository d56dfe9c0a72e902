/**
 * Fresh, strongly consistent reads done just before previewing or executing: the account's
 * stored value, the lock's owner, and "does any account hold this value" — the one question no
 * DynamoDB condition can ask, answered by a consistent parallel scan (a GSI cannot be read consistently).
 */
import { GetItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { classifyItem } from '../../../shared/conventions/classify';
import { compileConvention, ruleNormalizer } from '../../../shared/conventions/parse';
import { joinKey, type ScopeValues } from '../../../shared/conventions/scope';
import type { Convention, Item, LockRule, PlainKey } from '../../../shared/model';
import { keyId, toTypedKey } from '../../../shared/plain-key';
import { withRetry } from '../dynamo/retry';
import { holderScanFilter, holderScanProjection, type HolderScanRule } from '../lookup/holder-scan';
import type { ScanFilter } from '../scanner/scanner';

/** Reads one item with a consistent GetItem (undefined when it does not exist). */
export async function readItem(
  client: DynamoDBClient,
  table: string,
  convention: Convention,
  key: PlainKey,
  signal?: AbortSignal,
): Promise<Item | undefined> {
  const out = await withRetry(
    () =>
      client.send(new GetItemCommand({ TableName: table, Key: toTypedKey(key, convention.keys), ConsistentRead: true }), {
        abortSignal: signal,
      }),
    { signal },
  );
  return out.Item;
}

/** A scalar attribute as stored: S as is, N as its decimal text (conditions send it back typed by the rule); undefined otherwise. */
export function storedText(item: Item | undefined, attribute: string): string | undefined {
  const value = item?.[attribute];
  return value?.S ?? value?.N;
}

/** Options of the holder search. */
export interface HolderSearchOptions {
  readonly client: DynamoDBClient;
  readonly table: string;
  readonly convention: Convention;
  readonly rule: LockRule;
  readonly value: string;
  /** For a scoped rule: only holders in this scope hold the lock's value. */
  readonly scope?: ScopeValues;
  readonly segments?: number;
  readonly signal?: AbortSignal;
}

/**
 * Every account holding `value` under `rule` (normalized comparison), found by a consistent
 * parallel scan projected to the keys and the rule's attribute.
 */
export async function findHolders(options: HolderSearchOptions): Promise<PlainKey[]> {
  const { rule } = options;
  const normalized = ruleNormalizer(rule)(options.value);
  const scanRules = [{ rule, index: options.convention.rules.indexOf(rule), normalized, forms: [...new Set([normalized, options.value])] }];
  const [holders] = await scanForHolders(options, scanRules, holderScanFilter(scanRules), [
    { ruleIndex: scanRules[0]!.index, normalized, ...(options.scope ? { scope: options.scope } : {}) },
  ]);
  return holders ?? [];
}

/** One value whose holders are sought: rule (by index), normalized value, and for a scoped rule its scope. */
interface HolderTarget {
  readonly ruleIndex: number;
  readonly normalized: string;
  readonly scope?: ScopeValues;
}

/** One value of `findHoldersOfValues`. */
export interface HolderQuery {
  readonly rule: LockRule;
  readonly value: string;
  readonly scope?: ScopeValues;
}

/**
 * The holders of many values at once (a repair's releases): one consistent scan, filtered only on
 * the rules' attributes existing (a filter naming hundreds of values would outgrow DynamoDB's
 * expression limits), values compared client-side as `findHolders` does. Holders per query, in order.
 */
export async function findHoldersOfValues(
  options: Omit<HolderSearchOptions, 'rule' | 'value' | 'scope'>,
  queries: readonly HolderQuery[],
): Promise<PlainKey[][]> {
  if (queries.length === 0) return [];
  const { convention } = options;
  const targets = queries.map((q) => ({
    ruleIndex: convention.rules.indexOf(q.rule),
    normalized: ruleNormalizer(q.rule)(q.value),
    ...(q.scope ? { scope: q.scope } : {}),
  }));
  const rules = [...new Set(queries.map((q) => q.rule))];
  const scanRules = rules.map((rule) => ({ rule, index: convention.rules.indexOf(rule), normalized: '', forms: [] }));
  const names = Object.fromEntries(rules.map((rule, i) => [`#f${i}`, rule.attribute]));
  const filter = { expression: rules.map((_, i) => `attribute_exists(#f${i})`).join(' OR '), names };
  return scanForHolders(options, scanRules, filter, targets);
}

/** The consistent parallel scan behind both searches: the holders of each target. */
async function scanForHolders(
  options: Omit<HolderSearchOptions, 'rule' | 'value' | 'scope'>,
  scanRules: readonly HolderScanRule[],
  filter: ScanFilter,
  targets: readonly HolderTarget[],
): Promise<PlainKey[][]> {
  const { client, table, convention, signal } = options;
  const projection = holderScanProjection(convention, scanRules);
  const compiled = compileConvention(convention);
  const segments = options.segments ?? 4;
  const byValue = new Map<string, number[]>();
  targets.forEach((t, i) => {
    const id = JSON.stringify([t.ruleIndex, t.normalized]);
    byValue.set(id, [...(byValue.get(id) ?? []), i]);
  });
  const inScope = (target: HolderTarget, scope: ScopeValues | undefined): boolean =>
    target.scope === undefined || joinKey(scope, '') === joinKey(target.scope, '');
  const found = targets.map(() => new Map<string, PlainKey>());
  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      let start: Record<string, AttributeValue> | undefined;
      do {
        const page = await withRetry(
          () =>
            client.send(
              new ScanCommand({
                TableName: table,
                ConsistentRead: true,
                Segment: segment,
                TotalSegments: segments,
                ProjectionExpression: projection.expression,
                FilterExpression: filter.expression,
                ExpressionAttributeNames: { ...projection.names, ...filter.names },
                ...(filter.values ? { ExpressionAttributeValues: { ...filter.values } } : {}),
                ...(start ? { ExclusiveStartKey: start } : {}),
              }),
              { abortSignal: signal },
            ),
          { signal },
        );
        for (const item of page.Items ?? []) {
          const cls = classifyItem(compiled, item);
          if (cls.kind !== 'account') continue;
          for (const v of cls.values) {
            for (const t of byValue.get(JSON.stringify([v.ruleIndex, v.normalized])) ?? []) {
              if (inScope(targets[t]!, v.scope)) found[t]!.set(keyId(cls.key, convention.keys), cls.key);
            }
          }
        }
        start = page.LastEvaluatedKey;
      } while (start);
    }),
  );
  return found.map((m) => [...m.values()]);
}
