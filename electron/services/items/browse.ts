/**
 * Read-only item browsing: a Query by partition key (optionally `begins_with` on the sort key), or a
 * page of a Scan (optionally `begins_with` on the partition key), each with an optional attribute
 * filter. Every value goes in as an expression placeholder, never into the expression text. One
 * page per call; the cursor is the LastEvaluatedKey, sent back opaque.
 */
import { QueryCommand, ScanCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { KeySchema } from '../../../shared/model';

/** What to read. */
export interface BrowseRequest {
  readonly table: string;
  readonly keys: KeySchema;
  /** Exact partition key value: a Query. Absent: a Scan. */
  readonly partition?: string;
  /** With `partition`: begins_with on the sort key; without: begins_with on the partition key (a filtered scan). */
  readonly prefix?: string;
  readonly filter?: { readonly attribute: string; readonly op: 'equals' | 'begins_with' | 'contains' | 'exists'; readonly value?: string };
  readonly limit: number;
  readonly cursor?: Record<string, AttributeValue>;
  readonly consistent?: boolean;
}

/** One page. */
export interface BrowsePage {
  readonly mode: 'query' | 'scan';
  readonly items: readonly Record<string, AttributeValue>[];
  /** Items DynamoDB read for this page (a filter can read many to return few). */
  readonly scanned: number;
  readonly cursor?: Record<string, AttributeValue>;
}

const typed = (type: 'S' | 'N' | 'B', text: string): AttributeValue =>
  type === 'N' ? { N: text } : type === 'B' ? { B: new Uint8Array(Buffer.from(text, 'base64')) } : { S: text };

/**
 * Items one call may read to fill a filtered page: a filter (or a partition-key prefix on a scan)
 * can discard most of what a page reads, and a person wants matches, not empty pages to click through.
 */
export const MAX_READ_PER_CALL = 5_000;

/**
 * Reads until `limit` items matched, the table ended or {@link MAX_READ_PER_CALL} items were read,
 * whichever is first; the cursor continues from there.
 */
export async function browseItems(client: DynamoDBClient, request: BrowseRequest, signal?: AbortSignal): Promise<BrowsePage> {
  const items: Record<string, AttributeValue>[] = [];
  let scanned = 0;
  let cursor = request.cursor;
  const mode: BrowsePage['mode'] = request.partition !== undefined ? 'query' : 'scan';
  do {
    const page = await browseOnce(client, { ...request, limit: request.limit - items.length, ...(cursor ? { cursor } : {}) }, signal);
    items.push(...page.items);
    scanned += page.scanned;
    cursor = page.cursor;
  } while (cursor && items.length < request.limit && scanned < MAX_READ_PER_CALL && !signal?.aborted);
  return { mode, items, scanned, ...(cursor ? { cursor } : {}) };
}

/** One request. A bad number for an N key surfaces as DynamoDB's own validation error. */
async function browseOnce(client: DynamoDBClient, request: BrowseRequest, signal?: AbortSignal): Promise<BrowsePage> {
  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  const filters: string[] = [];
  const { hash, range } = request.keys;
  if (request.filter) {
    names['#f'] = request.filter.attribute;
    const { op, value = '' } = request.filter;
    if (op === 'exists') filters.push('attribute_exists(#f)');
    else {
      values[':f'] = { S: value };
      filters.push(op === 'equals' ? '#f = :f' : op === 'begins_with' ? 'begins_with(#f, :f)' : 'contains(#f, :f)');
    }
  }
  const filtered = filters.length > 0 || (request.partition === undefined && request.prefix !== undefined && request.prefix !== '');
  const common = {
    TableName: request.table,
    // Limit counts items read, before the filter: a filtered read asks for more so matches come back.
    Limit: filtered ? Math.max(request.limit, 500) : request.limit,
    ...(request.cursor ? { ExclusiveStartKey: request.cursor } : {}),
    ...(request.consistent ? { ConsistentRead: true } : {}),
  };
  if (request.partition !== undefined) {
    names['#h'] = hash.name;
    values[':h'] = typed(hash.type, request.partition);
    let condition = '#h = :h';
    if (request.prefix !== undefined && request.prefix !== '' && range) {
      names['#r'] = range.name;
      values[':r'] = typed(range.type, request.prefix);
      condition += ' AND begins_with(#r, :r)';
    }
    const out = await client.send(
      new QueryCommand({
        ...common,
        KeyConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
      }),
      { abortSignal: signal },
    );
    return {
      mode: 'query',
      items: out.Items ?? [],
      scanned: out.ScannedCount ?? 0,
      ...(out.LastEvaluatedKey ? { cursor: out.LastEvaluatedKey } : {}),
    };
  }
  if (request.prefix !== undefined && request.prefix !== '') {
    names['#h'] = hash.name;
    values[':h'] = typed(hash.type, request.prefix);
    filters.unshift('begins_with(#h, :h)');
  }
  const out = await client.send(
    new ScanCommand({
      ...common,
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    }),
    { abortSignal: signal },
  );
  return {
    mode: 'scan',
    items: out.Items ?? [],
    scanned: out.ScannedCount ?? 0,
    ...(out.LastEvaluatedKey ? { cursor: out.LastEvaluatedKey } : {}),
  };
}
