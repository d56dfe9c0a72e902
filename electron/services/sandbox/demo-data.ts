/**
 * The sandbox's demo tables and their seeding: create each table (PAY_PER_REQUEST) when missing and
 * fill it with BatchWriteItem from parallel writers. Writing the same keys again overwrites them, so
 * re-seeding never duplicates anything.
 */
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  type AttributeDefinition,
  type DynamoDBClient,
  type KeySchemaElement,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import type { Item, KeySchema, PresetName } from '../../../shared/model';
import { err, ok, type Result } from '../../../shared/result';
import { buildAccountsItems } from './demo-accounts';
import { buildOnetableItems } from './demo-onetable';
import { buildUsersItems } from './demo-users';
import { DEMO_TABLE_NAMES, type DemoTableName } from './expected-problems';

export { DEMO_TABLE_NAMES, type DemoTableName } from './expected-problems';

/** One demo table: its layout and a builder of its items. */
export interface DemoTableSpec {
  readonly name: DemoTableName;
  readonly preset: PresetName;
  readonly keys: KeySchema;
  /** Builds every item, deterministically (same call → same items in the same order). */
  readonly build: () => Item[];
}

/** The demo tables: seed-1 `accounts`, seed-2 `users`, OneTable `onetable_app`. */
export const DEMO_TABLES: Readonly<Record<DemoTableName, DemoTableSpec>> = {
  accounts: {
    name: 'accounts',
    preset: 'uniq',
    keys: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } },
    build: () => buildAccountsItems(),
  },
  users: { name: 'users', preset: 'marker', keys: { hash: { name: 'userId', type: 'S' } }, build: () => buildUsersItems() },
  onetable_app: {
    name: 'onetable_app',
    preset: 'onetable',
    keys: { hash: { name: 'pk', type: 'S' }, range: { name: 'sk', type: 'S' } },
    build: () => buildOnetableItems(),
  },
};

/** Options for {@link seedDemoData}. */
export interface SeedOptions {
  /** Which tables (default: all). */
  readonly tables?: readonly DemoTableName[];
  /** Prepended to every table name, so parallel tests can seed their own copies on one DynamoDB Local. */
  readonly prefix?: string;
  /** Concurrent BatchWriteItem writers (default 8). */
  readonly writers?: number;
  readonly signal?: AbortSignal;
  /** Called after each table is filled. */
  readonly onTable?: (table: string, items: number) => void;
}

/** What was seeded: table name (with prefix) → items written. */
export type SeedSummary = Readonly<Record<string, number>>;

const BATCH = 25;
const MAX_ATTEMPTS = 12;

const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Whether a table exists. */
export async function tableExists(client: DynamoDBClient, table: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: table }), { abortSignal: signal });
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
}

/** Creates a PAY_PER_REQUEST table with this key schema unless it exists; waits until it is ACTIVE. */
export async function ensureTable(client: DynamoDBClient, table: string, keys: KeySchema, signal?: AbortSignal): Promise<void> {
  const attributes: AttributeDefinition[] = [{ AttributeName: keys.hash.name, AttributeType: keys.hash.type }];
  const schema: KeySchemaElement[] = [{ AttributeName: keys.hash.name, KeyType: 'HASH' }];
  if (keys.range) {
    attributes.push({ AttributeName: keys.range.name, AttributeType: keys.range.type });
    schema.push({ AttributeName: keys.range.name, KeyType: 'RANGE' });
  }
  try {
    await client.send(
      new CreateTableCommand({ TableName: table, AttributeDefinitions: attributes, KeySchema: schema, BillingMode: 'PAY_PER_REQUEST' }),
      { abortSignal: signal },
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  // DynamoDB Local makes tables ACTIVE at once; real DynamoDB takes seconds. Poll briefly instead of the SDK waiter's 20 s minimum delay.
  for (let delay = 50; ; delay = Math.min(delay * 2, 1_000)) {
    const out = await client.send(new DescribeTableCommand({ TableName: table }), { abortSignal: signal });
    if (out.Table?.TableStatus === 'ACTIVE') return;
    signal?.throwIfAborted();
    await pause(delay, signal);
  }
}

/** Writes items with parallel BatchWriteItem writers; UnprocessedItems are retried with backoff. */
export async function batchWriteAll(
  client: DynamoDBClient,
  table: string,
  items: readonly Item[],
  writers = 8,
  signal?: AbortSignal,
): Promise<void> {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < items.length; i += BATCH) batches.push(items.slice(i, i + BATCH).map((Item) => ({ PutRequest: { Item } })));
  let next = 0;
  const writer = async (): Promise<void> => {
    for (let b = next++; b < batches.length; b = next++) {
      let pending = batches[b] ?? [];
      for (let attempt = 1; pending.length > 0; attempt++) {
        signal?.throwIfAborted();
        if (attempt > MAX_ATTEMPTS)
          throw new Error(`${pending.length} items of ${table} were still unprocessed after ${MAX_ATTEMPTS} attempts`);
        if (attempt > 1) await pause(Math.min(50 * 2 ** attempt, 2_000), signal);
        const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }), { abortSignal: signal });
        pending = out.UnprocessedItems?.[table] ?? [];
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(writers, batches.length)) }, writer));
}

/** Creates the demo tables when missing and fills them; idempotent (same keys on every run). */
export async function seedDemoData(client: DynamoDBClient, options: SeedOptions = {}): Promise<Result<SeedSummary>> {
  const summary: Record<string, number> = {};
  try {
    for (const name of options.tables ?? DEMO_TABLE_NAMES) {
      const spec = DEMO_TABLES[name];
      const table = `${options.prefix ?? ''}${spec.name}`;
      await ensureTable(client, table, spec.keys, options.signal);
      const items = spec.build();
      await batchWriteAll(client, table, items, options.writers, options.signal);
      summary[table] = items.length;
      options.onTable?.(table, items.length);
    }
  } catch (error) {
    if (options.signal?.aborted) return err('cancelled', 'Seeding the demo data was cancelled.');
    return err('aws', `Seeding the demo data failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return ok(summary);
}
