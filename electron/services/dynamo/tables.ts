/** Listing and describing tables, with errors as values. */
import { DescribeTableCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient, KeySchemaElement, AttributeDefinition, TableDescription } from '@aws-sdk/client-dynamodb';
import type { KeyAttribute, KeySchema, KeyType } from '../../../shared/model';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { toAppError } from './errors';
import type { ErrorContext } from './errors';
import { withRetry } from './retry';

/** One page of table names; `cursor` continues the listing. */
export interface TablePage {
  readonly names: readonly string[];
  readonly cursor?: string;
  /** Set when a local endpoint lists no tables at all: why that may be and what to try. */
  readonly hint?: string;
}

/** A global secondary index, by its key attribute names. */
export interface GsiInfo {
  readonly name: string;
  readonly hash: KeyAttribute;
  readonly range?: KeyAttribute;
  /** ALL, KEYS_ONLY or INCLUDE. */
  readonly projection: string;
  readonly status?: string;
}

/** What Locksmith needs to know about a table. */
export interface TableInfo {
  readonly name: string;
  readonly keys: KeySchema;
  readonly gsis: readonly GsiInfo[];
  /** Approximate (DynamoDB updates it about every six hours). */
  readonly itemCount: number;
  readonly sizeBytes: number;
  readonly status: string;
  readonly billingMode: 'PAY_PER_REQUEST' | 'PROVISIONED';
}

/** Options for the table calls. */
export interface TableCallOptions {
  /** Whether the client talks to a local endpoint (adds the empty-list hint). */
  readonly local?: boolean;
  readonly signal?: AbortSignal;
  readonly errorContext?: ErrorContext;
}

/** Explains the empty-table-list trap of DynamoDB Local. */
export const EMPTY_LOCAL_HINT =
  'no tables at this endpoint. DynamoDB Local without -sharedDb keeps a separate database per access key and region: ' +
  'sign with the same access key id and region as the tool that created the tables (in the app: the connection\'s "signs with" — dummy keys, ' +
  "the environment's keys or a profile; in the CLI: AWS_ACCESS_KEY_ID and --region), or start DynamoDB Local with -sharedDb.";

/** Lists table names, one page (up to `limit`) at a time. */
export async function listTables(
  client: DynamoDBClient,
  cursor?: string,
  options: TableCallOptions & { limit?: number } = {},
): Promise<Result<TablePage>> {
  try {
    const out = await withRetry(
      () => client.send(new ListTablesCommand({ ExclusiveStartTableName: cursor, Limit: options.limit }), { abortSignal: options.signal }),
      { signal: options.signal },
    );
    const names = out.TableNames ?? [];
    const page: TablePage = { names, ...(out.LastEvaluatedTableName ? { cursor: out.LastEvaluatedTableName } : {}) };
    return ok(names.length === 0 && cursor === undefined && options.local ? { ...page, hint: EMPTY_LOCAL_HINT } : page);
  } catch (error) {
    return { ok: false, error: toAppError(error, options.errorContext) };
  }
}

/** Lists every table name, following the cursor to the end. */
export async function listAllTables(client: DynamoDBClient, options: TableCallOptions = {}): Promise<Result<TablePage>> {
  const names: string[] = [];
  let cursor: string | undefined;
  let hint: string | undefined;
  do {
    const page = await listTables(client, cursor, options);
    if (!page.ok) return page;
    names.push(...page.value.names);
    hint ??= page.value.hint;
    cursor = page.value.cursor;
  } while (cursor);
  return ok(hint ? { names, hint } : { names });
}

function keyType(definitions: readonly AttributeDefinition[], name: string): KeyType {
  const type = definitions.find((d) => d.AttributeName === name)?.AttributeType;
  return type === 'N' || type === 'B' ? type : 'S';
}

/** Reads a KeySchema (hash + optional range) from DescribeTable's elements and attribute definitions. */
export function toKeySchema(elements: readonly KeySchemaElement[], definitions: readonly AttributeDefinition[]): KeySchema | undefined {
  const hashName = elements.find((e) => e.KeyType === 'HASH')?.AttributeName;
  if (!hashName) return undefined;
  const rangeName = elements.find((e) => e.KeyType === 'RANGE')?.AttributeName;
  const hash = { name: hashName, type: keyType(definitions, hashName) };
  return rangeName ? { hash, range: { name: rangeName, type: keyType(definitions, rangeName) } } : { hash };
}

/** Converts the SDK's TableDescription to TableInfo. */
export function toTableInfo(table: TableDescription): TableInfo | undefined {
  const definitions = table.AttributeDefinitions ?? [];
  const keys = toKeySchema(table.KeySchema ?? [], definitions);
  if (!keys || !table.TableName) return undefined;
  const gsis: GsiInfo[] = [];
  for (const index of table.GlobalSecondaryIndexes ?? []) {
    const indexKeys = toKeySchema(index.KeySchema ?? [], definitions);
    if (!indexKeys || !index.IndexName) continue;
    gsis.push({
      name: index.IndexName,
      hash: indexKeys.hash,
      ...(indexKeys.range ? { range: indexKeys.range } : {}),
      projection: index.Projection?.ProjectionType ?? 'ALL',
      ...(index.IndexStatus ? { status: index.IndexStatus } : {}),
    });
  }
  return {
    name: table.TableName,
    keys,
    gsis,
    itemCount: table.ItemCount ?? 0,
    sizeBytes: table.TableSizeBytes ?? 0,
    status: table.TableStatus ?? 'UNKNOWN',
    billingMode: table.BillingModeSummary?.BillingMode === 'PAY_PER_REQUEST' ? 'PAY_PER_REQUEST' : 'PROVISIONED',
  };
}

/** Describes one table: keys, GSIs, size, status, billing mode. */
export async function describeTable(client: DynamoDBClient, name: string, options: TableCallOptions = {}): Promise<Result<TableInfo>> {
  try {
    const out = await withRetry(() => client.send(new DescribeTableCommand({ TableName: name }), { abortSignal: options.signal }), {
      signal: options.signal,
    });
    const info = out.Table ? toTableInfo(out.Table) : undefined;
    return info ? ok(info) : err('aws', `DescribeTable returned no usable key schema for ${name}`);
  } catch (error) {
    return { ok: false, error: toAppError(error, { ...options.errorContext, table: name }) };
  }
}
