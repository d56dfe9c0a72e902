/** The app's item methods over a request context: `items.get` (one item, consistent) and `items.browse` (one page). */
import { GetItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import type { ItemsPage, ItemView } from '../../../shared/contract/views';
import type { KeySchema, PlainKey } from '../../../shared/model';
import { err, ok, type Result } from '../../../shared/result';
import type { TableContext } from '../context/request-context';
import { browseItems as browsePage } from './browse';
import { itemJson, typedKey } from './item-json';

/** What `items.browse` asks for, after validation. */
export interface BrowseArgs {
  readonly partition?: string | undefined;
  readonly prefix?: string | undefined;
  readonly filter?:
    | { readonly attribute: string; readonly op: 'equals' | 'begins_with' | 'contains' | 'exists'; readonly value?: string | undefined }
    | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
}

/** One item by its plain key, read consistently; the key must have exactly the table's key attributes. */
export async function getItem(ctx: TableContext, args: { readonly key: PlainKey }): Promise<Result<ItemView>> {
  const keys = ctx.table.keys;
  const typed = typedKey(args.key, keys);
  if (!typed)
    return err(
      'validation',
      `The key must have exactly the table's key attributes (${[keys.hash.name, keys.range?.name].filter(Boolean).join(', ')}).`,
      { field: 'key' },
    );
  const found = await ctx.client.send(new GetItemCommand({ TableName: ctx.table.name, Key: typed, ConsistentRead: true }));
  return ok(found.Item ? { found: true, ...itemJson(found.Item) } : { found: false, dynamo: null, plain: null });
}

/** One page of read-only browsing: a Query by partition key, or a page of a Scan, with an optional filter. */
export async function browseItems(ctx: TableContext, request: BrowseArgs): Promise<Result<ItemsPage>> {
  const keys = ctx.table.keys;
  let cursor: Record<string, AttributeValue> | undefined;
  if (request.cursor) {
    cursor = decodeCursor(request.cursor);
    if (!cursor) return err('validation', 'This page cursor cannot be read: browse from the first page again.', { field: 'cursor' });
  }
  const page = await browsePage(ctx.client, {
    table: ctx.table.name,
    keys,
    ...(request.partition !== undefined ? { partition: request.partition } : {}),
    ...(request.prefix !== undefined ? { prefix: request.prefix } : {}),
    ...(request.filter
      ? {
          filter: {
            attribute: request.filter.attribute,
            op: request.filter.op,
            ...(request.filter.value !== undefined ? { value: request.filter.value } : {}),
          },
        }
      : {}),
    limit: request.limit ?? 25,
    ...(cursor ? { cursor } : {}),
  });
  return ok({
    mode: page.mode,
    scanned: page.scanned,
    items: page.items.map((item) => ({ key: plainKeyOf(item, keys), ...itemJson(item) })),
    ...(page.cursor ? { nextCursor: encodeCursor(page.cursor) } : {}),
  });
}

/** A LastEvaluatedKey as an opaque base64url cursor (DynamoDB JSON inside; B values as base64). */
function encodeCursor(key: Record<string, AttributeValue>): string {
  const json = Object.fromEntries(
    Object.entries(key).map(([k, v]) => [k, v.B !== undefined ? { B: Buffer.from(v.B).toString('base64') } : v]),
  );
  return Buffer.from(JSON.stringify(json)).toString('base64url');
}

/** The cursor back to a key; undefined when it is not one of ours (at most two S/N/B attributes). */
function decodeCursor(cursor: string): Record<string, AttributeValue> | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const entries = Object.entries(parsed as Record<string, unknown>);
    if (entries.length === 0 || entries.length > 2) return undefined;
    const out: Record<string, AttributeValue> = {};
    for (const [name, value] of entries) {
      const v = value as { S?: unknown; N?: unknown; B?: unknown };
      if (typeof v.S === 'string') out[name] = { S: v.S };
      else if (typeof v.N === 'string') out[name] = { N: v.N };
      else if (typeof v.B === 'string') out[name] = { B: new Uint8Array(Buffer.from(v.B, 'base64')) };
      else return undefined;
    }
    return out;
  } catch {
    return undefined;
  }
}

/** An item's key in plain form. */
function plainKeyOf(item: Record<string, AttributeValue>, keys: KeySchema): PlainKey {
  const value = (attribute: AttributeValue | undefined): string | number =>
    attribute?.N !== undefined ? Number(attribute.N) : (attribute?.S ?? (attribute?.B ? Buffer.from(attribute.B).toString('base64') : ''));
  return keys.range
    ? { [keys.hash.name]: value(item[keys.hash.name]), [keys.range.name]: value(item[keys.range.name]) }
    : { [keys.hash.name]: value(item[keys.hash.name]) };
}
