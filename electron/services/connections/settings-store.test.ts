import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSettingsStore } from './settings-store';
import { resolveDataDir } from './data-dir';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-settings-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('settings store', () => {
  it('starts empty on first run and writes atomically with mode 0600', async () => {
    const store = createSettingsStore(join(dir, 'data'));
    expect(await store.isFirstRun()).toBe(true);
    await store.update((s) => ({ ...s, ui: { theme: 'dark' } }));
    const file = join(dir, 'data', 'settings.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ version: 1, ui: { theme: 'dark' } });
    expect((await readdir(join(dir, 'data'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const reopened = createSettingsStore(join(dir, 'data'));
    expect(await reopened.isFirstRun()).toBe(false);
    expect((await reopened.read()).ui.theme).toBe('dark');
  });

  it('serializes concurrent updates', async () => {
    const store = createSettingsStore(dir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.update((s) => ({
          ...s,
          endpoints: [
            ...s.endpoints,
            {
              id: `endpoint:e${i}`,
              endpoint: 'http://localhost:8000',
              region: 'us-east-1',
              label: `e${i}`,
              credentials: { source: 'dummy' as const },
            },
          ],
        })),
      ),
    );
    expect((await createSettingsStore(dir).read()).endpoints).toHaveLength(20);
  });

  it('reports a corrupt or hostile file and starts from defaults', async () => {
    await writeFile(join(dir, 'settings.json'), '{"version":1,"__proto__":{"polluted":true},"ui":{"theme":"neon"}}');
    const store = createSettingsStore(dir);
    expect((await store.read()).ui.theme).toBe('system');
    expect(store.warning()).toMatch(/not a Locksmith settings file/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await writeFile(join(dir, 'settings.json'), 'not json');
    const broken = createSettingsStore(dir);
    await broken.read();
    expect(broken.warning()).toMatch(/not valid JSON/);
  });

  it('keeps an unreadable file aside instead of writing over it', async () => {
    const file = join(dir, 'settings.json');
    await writeFile(file, '{"version":1,"endpoints":"not a list"}');
    const store = createSettingsStore(dir);
    await store.update((s) => ({ ...s, ui: { theme: 'dark' } }));
    const aside = (await readdir(dir)).filter((name) => name.startsWith('settings.json.unreadable-'));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(dir, aside[0] ?? ''), 'utf8')).toBe('{"version":1,"endpoints":"not a list"}');
    expect(store.warning()).toMatch(/kept as .*settings\.json\.unreadable-/);
    await store.update((s) => ({ ...s, ui: { theme: 'light' } }));
    expect((await readdir(dir)).filter((name) => name.startsWith('settings.json.unreadable-'))).toHaveLength(1);
  });

  it('drops only a saved convention that no longer passes the checks, keeping every other setting', async () => {
    const endpoint = { id: 'endpoint:e1', endpoint: 'http://localhost:8000', region: 'us-east-1', label: 'local' };
    await writeFile(
      join(dir, 'settings.json'),
      JSON.stringify({
        version: 1,
        endpoints: [endpoint],
        conventions: { 'sandbox|accounts': { preset: 'uniq', rules: 'broken' } },
        ui: { theme: 'dark' },
      }),
    );
    const store = createSettingsStore(dir);
    const settings = await store.read();
    // An endpoint saved before credential sources existed signs with dummy keys, not the environment's.
    expect(settings.endpoints).toEqual([{ ...endpoint, credentials: { source: 'dummy' } }]);
    expect(settings.ui.theme).toBe('dark');
    expect(settings.conventions).toEqual({});
    expect(store.warning()).toMatch(/ignored saved conventions .*sandbox\|accounts/);
  });

  it('resolves the data folder per OS, LOCKSMITH_DATA_DIR first', () => {
    expect(resolveDataDir({ LOCKSMITH_DATA_DIR: '/x' }, 'linux', '/h')).toBe('/x');
    expect(resolveDataDir({}, 'linux', '/h')).toBe('/h/.config/locksmith');
    expect(resolveDataDir({}, 'darwin', '/h')).toBe('/h/Library/Application Support/Locksmith');
    expect(resolveDataDir({ APPDATA: 'C:\\AppData' }, 'win32', '/h')).toMatch(/Locksmith$/);
  });
});
