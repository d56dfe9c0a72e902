/**
 * The bundled sandbox: DynamoDB Local + demo data, the same service for the app and `locksmith sandbox`.
 * Demo tables are seeded only when they do not exist yet, so a persistent data dir keeps the user's edits.
 */
import { randomInt } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { err, ok, type Result } from '../../../shared/result';
import { DataDirError, ensureDataDir } from '../connections/data-dir';
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

/** The sandbox's private key: DynamoDB Local (without -sharedDb) shows its tables only to a client signing with this key id + region. */
export interface SandboxCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const randomText = (length: number): string => Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** A fresh random key (letters and digits only, as DynamoDB Local requires; 32 characters ≈ 165 bits). */
export function newSandboxCredentials(): SandboxCredentials {
  return { accessKeyId: `LS${randomText(30)}`, secretAccessKey: randomText(40) };
}

/** The file keeping a persistent sandbox's key next to its data (the data file is named after the key id anyway). */
export const SANDBOX_KEY_FILE = 'locksmith-sandbox-key.json';

/** A persistent sandbox reuses its key (else its tables would vanish on restart); an in-memory one gets a new key per launch. */
async function sandboxCredentials(dataDir: string | undefined): Promise<SandboxCredentials> {
  if (dataDir === undefined) return newSandboxCredentials();
  const path = join(dataDir, SANDBOX_KEY_FILE);
  try {
    const saved = JSON.parse(await readFile(path, 'utf8')) as Partial<SandboxCredentials>;
    if (typeof saved.accessKeyId === 'string' && /^[A-Z0-9]{8,64}$/.test(saved.accessKeyId) && typeof saved.secretAccessKey === 'string')
      return { accessKeyId: saved.accessKeyId, secretAccessKey: saved.secretAccessKey };
  } catch {
    // No key yet (or an unreadable one): make a new one.
  }
  const fresh = newSandboxCredentials();
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(fresh)}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
  return fresh;
}

/** Files an earlier start left readable by others (before umask 077): made 0600. */
async function tightenFiles(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) if (entry.isFile()) await chmod(join(dir, entry.name), 0o600);
}

/** A running sandbox. */
export interface SandboxHandle extends DynamoDbLocalHandle {
  /** The key that sees the sandbox's tables; only Locksmith holds it (and prints it for the user's own tools). */
  readonly credentials: SandboxCredentials;
  readonly region: string;
  /** The demo tables seeded by this start (empty when they already existed or seeding was off). */
  readonly seeded: readonly DemoTableName[];
  /** The persistent data directory, or undefined when in memory. */
  readonly dataDir?: string;
}

/** Creates a client for the sandbox: its private key, or dummy keys for a shared DynamoDB Local (tests). */
export function sandboxClient(endpoint: string, credentials: SandboxCredentials = SANDBOX_CREDENTIALS): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: SANDBOX_REGION, credentials });
}

/** Starts DynamoDB Local, seeds the missing demo tables, and resolves once everything is ready. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Result<SandboxHandle>> {
  options.onStatus?.({ phase: 'starting' });
  if (options.dataDir !== undefined) {
    // The folder holds the key (in a file, and in the database file's name) and every table: its
    // owner's only, as the data folder (0700, tightened when others can read it, refused when they can write).
    try {
      await ensureDataDir(options.dataDir);
      await tightenFiles(options.dataDir);
    } catch (error) {
      if (error instanceof DataDirError)
        return err('validation', error.message.replace(/^data folder/, 'sandbox data folder'), { field: 'dataDir' });
      throw error;
    }
  }
  const credentials = await sandboxCredentials(options.dataDir);
  const started = await startDynamoDbLocal({
    // No -sharedDb: anything else reaching the port (the LAN, a DNS-rebinding page) signs with another key and sees none of the tables.
    sharedDb: false,
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
    const client = sandboxClient(local.endpoint, credentials);
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
  return ok({ ...local, seeded, credentials, region: SANDBOX_REGION, ...(options.dataDir !== undefined && { dataDir: options.dataDir }) });
}
