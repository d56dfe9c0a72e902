/**
 * The key schemas of tables the CLI has described before, so `locksmith audit` can start without
 * waiting for DescribeTable (DynamoDB Local answers it by counting the table, slow on a large table).
 * A cached schema is never trusted as it is: one GetItem with a key of that exact shape is the check —
 * DynamoDB refuses a key whose attribute names, types or count differ from the table's — and any other
 * answer falls back to DescribeTable. The file holds table names and key names only (no credentials).
 */
import { constants } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { KeyAttribute, KeySchema } from '../../shared/model';
import type { DynamoTarget } from '../services/dynamo/client';
import { ensureDataDir, openNoFollow, resolveDataDir } from '../services/connections/data-dir';

/** Most tables remembered: the oldest entries go first. */
const MAX_ENTRIES = 200;

/** The cache file, in the data folder's cache. */
export function keySchemaCachePath(env: NodeJS.ProcessEnv): string {
  return join(resolveDataDir(env), 'cache', 'key-schemas.json');
}

/** Where a table lives: the same name at another endpoint, profile or region is another table. */
export function tablePlace(target: Pick<DynamoTarget, 'endpoint' | 'profile' | 'region'>, table: string): string {
  return JSON.stringify([target.endpoint ?? '', target.profile ?? '', target.region, table]);
}

function keyAttribute(value: unknown): KeyAttribute | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { name, type } = value as { name?: unknown; type?: unknown };
  return typeof name === 'string' && name !== '' && (type === 'S' || type === 'N' || type === 'B') ? { name, type } : undefined;
}

function keySchema(value: unknown): KeySchema | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const hash = keyAttribute((value as { hash?: unknown }).hash);
  const rawRange = (value as { range?: unknown }).range;
  const range = rawRange === undefined ? undefined : keyAttribute(rawRange);
  if (!hash || (rawRange !== undefined && !range)) return undefined;
  return range ? { hash, range } : { hash };
}

/** The entries of a cache file of the data folder (`{version: 1, entries: [...]}`), oldest first; an unreadable or malformed file has none. */
export async function readCacheEntries(path: string): Promise<unknown[]> {
  try {
    // Like every file of the data folder, never read through a symbolic link.
    const file = await openNoFollow(path, constants.O_RDONLY);
    let text: string;
    try {
      text = await file.readFile('utf8');
    } finally {
      await file.close();
    }
    const json = JSON.parse(text) as { version?: unknown; entries?: unknown };
    return json.version === 1 && Array.isArray(json.entries) ? (json.entries as unknown[]) : [];
  } catch {
    return [];
  }
}

/** The remembered key schemas, oldest first. */
async function readEntries(path: string): Promise<[string, KeySchema][]> {
  return (await readCacheEntries(path)).flatMap((e): [string, KeySchema][] => {
    if (!Array.isArray(e) || typeof e[0] !== 'string') return [];
    const schema = keySchema(e[1]);
    return schema ? [[e[0], schema]] : [];
  });
}

/**
 * Writes a cache file of the data folder (the newest MAX_ENTRIES entries). Best effort: a cache that
 * cannot be written is no error (the next run does the slower thing, never the wrong one).
 */
export async function writeCacheEntries(env: NodeJS.ProcessEnv, path: string, entries: readonly unknown[]): Promise<void> {
  try {
    await ensureDataDir(resolveDataDir(env));
    await ensureDataDir(join(resolveDataDir(env), 'cache'));
    // Written aside and renamed: two CLI runs at once never leave half a file.
    const temp = `${path}.${process.pid}.tmp`;
    const file = await openNoFollow(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o600);
    try {
      await file.writeFile(JSON.stringify({ version: 1, entries: entries.slice(-MAX_ENTRIES) }));
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch {
    // Nothing remembered: the next run describes (or detects) again, slower and never wrong.
  }
}

/** The key schema remembered for a table, if any (unverified: see verifyKeySchema in services/dynamo/key-probe.ts). */
export async function cachedKeySchema(env: NodeJS.ProcessEnv, place: string): Promise<KeySchema | undefined> {
  return new Map(await readEntries(keySchemaCachePath(env))).get(place);
}

/** Remembers a table's key schema (from DescribeTable). Best effort: a cache that cannot be written is no error. */
export async function rememberKeySchema(env: NodeJS.ProcessEnv, place: string, keys: KeySchema): Promise<void> {
  const path = keySchemaCachePath(env);
  const entries = (await readEntries(path)).filter(([p]) => p !== place);
  entries.push([place, keys]);
  await writeCacheEntries(env, path, entries);
}
