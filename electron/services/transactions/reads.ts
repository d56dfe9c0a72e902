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
import { holderScanFilter, holderScanProjection } from '../lookup/holder-scan';

/** Reads one item with a consistent GetItem (undefined when it does not exist). */
export async function readItem(client: DynamoDBClient, table: string, convention: Convention, key: PlainKey, signal?: AbortSignal): Promise<Item | undefined> {
  const out = await withRetry(() => client.send(new GetItemCommand({ TableName: table, Key: toTypedKey(key, convention.keys), ConsistentRead: true }), { abortSignal: signal }), { signal });
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
  const { client, table, convention, rule, signal } = options;
  const ruleIndex = convention.rules.indexOf(rule);
  const normalized = ruleNormalizer(rule)(options.value);
  const inScope = (scope: ScopeValues | undefined): boolean => options.scope === undefined || joinKey(scope, '') === joinKey(options.scope, '');
  const forms = [...new Set([normalized, options.value])];
  const scanRules = [{ rule, index: ruleIndex, normalized, forms }];
  const projection = holderScanProjection(convention, scanRules);
  const filter = holderScanFilter(scanRules);
  const compiled = compileConvention(convention);
  const segments = options.segments ?? 4;
  const found = new Map<string, PlainKey>();
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
          if (cls.kind === 'account' && cls.values.some((v) => v.ruleIndex === ruleIndex && v.normalized === normalized && inScope(v.scope))) found.set(keyId(cls.key, convention.keys), cls.key);
        }
        start = page.LastEvaluatedKey;
      } while (start);
    }),
  );
  return [...found.values()];
}
