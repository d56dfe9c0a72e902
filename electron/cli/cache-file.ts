/**
 * The cache files of the data folder (`cache/*.json`: what the CLI remembers between runs, per table),
 * read and written one way: never through a symbolic link, written aside and renamed, and best effort —
 * a cache that cannot be read or written is no error (the next run does the slower thing, never the wrong one).
 */
import { constants } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { DynamoTarget } from '../services/dynamo/client';
import { ensureDataDir, openNoFollow, resolveDataDir } from '../services/connections/data-dir';

/** Most tables remembered: the oldest entries go first. */
const MAX_ENTRIES = 200;

/** Where a table lives: the same name at another endpoint, profile or region is another table. */
export function tablePlace(target: Pick<DynamoTarget, 'endpoint' | 'profile' | 'region'>, table: string): string {
  return JSON.stringify([target.endpoint ?? '', target.profile ?? '', target.region, table]);
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
