import { mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCacheEntries, tablePlace, writeCacheEntries } from './cache-file';

let dataDir = '';
const env = (): NodeJS.ProcessEnv => ({ LOCKSMITH_DATA_DIR: dataDir });
const path = (): string => join(dataDir, 'cache', 'things.json');

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'locksmith-cache-file-'));
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('cache files of the data folder', () => {
  it('reads back what was written, oldest first, keeping the newest 200 entries', async () => {
    const entries = Array.from({ length: 205 }, (_, i) => [`t${i}`, i]);
    await writeCacheEntries(env(), path(), entries);
    const read = await readCacheEntries(path());
    expect(read).toHaveLength(200);
    expect(read[0]).toEqual(['t5', 5]);
    expect(read.at(-1)).toEqual(['t204', 204]);
  });

  it('a missing, malformed or other-version file has no entries', async () => {
    expect(await readCacheEntries(path())).toEqual([]);
    await writeCacheEntries(env(), path(), [['x', 1]]);
    await writeFile(path(), '{"version":1,"entries":[["x",1]');
    expect(await readCacheEntries(path())).toEqual([]);
    await writeFile(path(), JSON.stringify({ version: 2, entries: [['x', 1]] }));
    expect(await readCacheEntries(path())).toEqual([]);
  });

  it('a cache file that is a symbolic link is not read (the data folder rule)', async () => {
    await writeCacheEntries(env(), path(), [['x', 1]]);
    await rename(path(), `${path()}.real`);
    await symlink(`${path()}.real`, path());
    expect(await readCacheEntries(path())).toEqual([]);
    expect(JSON.parse(await readFile(`${path()}.real`, 'utf8'))).toEqual({ version: 1, entries: [['x', 1]] });
  });

  it('a file that cannot be written is no error', async () => {
    await writeFile(join(dataDir, 'cache'), 'not a folder');
    await expect(writeCacheEntries(env(), path(), [['x', 1]])).resolves.toBeUndefined();
  });

  it('places differ by endpoint, profile, region and name', () => {
    const base = { endpoint: 'http://localhost:8000', region: 'us-east-1' };
    const places = [
      tablePlace(base, 'users'),
      tablePlace({ ...base, endpoint: 'http://localhost:8001' }, 'users'),
      tablePlace({ ...base, profile: 'prod' }, 'users'),
      tablePlace({ ...base, region: 'eu-west-1' }, 'users'),
      tablePlace(base, 'accounts'),
    ];
    expect(new Set(places).size).toBe(places.length);
  });
});
