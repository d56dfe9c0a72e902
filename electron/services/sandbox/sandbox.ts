/**
 * The bundled sandbox: DynamoDB Local + demo data, the same service for the app and `locksmith sandbox`.
 * Demo tables are seeded only when they do not exist yet, so a persistent data dir keeps the user's edits.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { err, ok, type Result } from '../../../shared/result';
import { seedDemoData, tableExists } from './demo-data';
import { SANDBOX_CREDENTIALS, SANDBOX_REGION, startDynamoDbLocal, type DynamoDbLocalHandle } from './dynamodb-local';
import { DEMO_TABLE_NAMES, type DemoTableName } from './expected-problems';

/** Progress of {@link startSandbox}, for a status line or the connections sidebar. */
export type SandboxStatus =
  | { readonly phase: 'starting' }
  | { readonly phase: 'seeding'; readonly endpoint: string; readonly tables: readonly DemoTableName[] }
  | { readonly phase: 'seeded'; readonly table: DemoTableName; readonly items: number }
  | { readonly phase: 'ready'; readonly endpoint: string; readonly seeded: readonly DemoTableName[] };

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  /** Port to listen on; default a free one. A port in use is a `conflict` error. */
  readonly port?: number;
  /** Persistent data directory (created if missing); default in memory. */
  readonly dataDir?: string;
  /** Seed the demo tables that do not exist yet (default true). */
  readonly seed?: boolean;
  /** Which demo tables to seed (default all). */
  readonly tables?: readonly DemoTableName[];
  /** JVM heap cap, e.g. `1g` (default). */
  readonly heap?: string;
  readonly onStatus?: (status: SandboxStatus) => void;
  /** Every line DynamoDB Local prints (for `--debug`). */
  readonly onLog?: (line: string) => void;
  readonly signal?: AbortSignal;
}

/** A running sandbox. */
export interface SandboxHandle extends DynamoDbLocalHandle {
  /** The demo tables seeded by this start (empty when they already existed or seeding was off). */
  readonly seeded: readonly DemoTableName[];
  /** The persistent data directory, or undefined when in memory. */
  readonly dataDir?: string;
}

/** Creates a client for the sandbox (dummy credentials; -sharedDb makes every key see the same tables). */
export function sandboxClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: SANDBOX_REGION, credentials: SANDBOX_CREDENTIALS });
}

/** Starts DynamoDB Local, seeds the missing demo tables, and resolves once everything is ready. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Result<SandboxHandle>> {
  options.onStatus?.({ phase: 'starting' });
  const started = await startDynamoDbLocal({
    ...(options.port !== undefined && { port: options.port }),
    ...(options.dataDir !== undefined && { dataDir: options.dataDir }),
    ...(options.heap !== undefined && { heap: options.heap }),
    ...(options.onLog !== undefined && { onLog: options.onLog }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  if (!started.ok) return started;
  const local = started.value;
  let seeded: DemoTableName[] = [];
  if (options.seed ?? true) {
    const client = sandboxClient(local.endpoint);
    try {
      const missing: DemoTableName[] = [];
      for (const table of options.tables ?? DEMO_TABLE_NAMES) if (!(await tableExists(client, table, options.signal))) missing.push(table);
      if (missing.length > 0) {
        options.onStatus?.({ phase: 'seeding', endpoint: local.endpoint, tables: missing });
        const result = await seedDemoData(client, {
          tables: missing,
          // On disk every write is an fsync'd SQLite transaction: more writers in flight hide that latency.
          writers: options.dataDir === undefined ? 8 : 32,
          ...(options.signal !== undefined && { signal: options.signal }),
          onTable: (table, items) => options.onStatus?.({ phase: 'seeded', table: table as DemoTableName, items }),
        });
        if (!result.ok) {
          await local.stop();
          return result;
        }
      }
      seeded = missing;
    } catch (error) {
      await local.stop();
      if (options.signal?.aborted) return err('cancelled', 'Starting the sandbox was cancelled.');
      return err('aws', `The sandbox started but could not be read: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      client.destroy();
    }
  }
  options.onStatus?.({ phase: 'ready', endpoint: local.endpoint, seeded });
  return ok({ ...local, seeded, ...(options.dataDir !== undefined && { dataDir: options.dataDir }) });
}
