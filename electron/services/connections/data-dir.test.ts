/** #16 finding 7: the data folder is verified, its files opened without following links. */
import { chmod, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendActivity, type ActivityEntry } from '../transactions/activity-log';
import { ensureDataDir } from './data-dir';
import { createSettingsStore } from './settings-store';

const ENTRY = {
  time: 't',
  connection: 'c',
  region: 'r',
  endpoint: 'e',
  table: 'x',
  previewId: 'pv',
  token: 'tok',
  kind: 'release',
  summary: 's',
  request: { TransactItems: [], ClientRequestToken: 'tok' },
  outcome: { status: 'succeeded', token: 'tok', attempts: 1, message: 'done' },
} as ActivityEntry;

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'locksmith-datadir-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('the data folder', () => {
  it('is created 0700', async () => {
    const dir = join(root, 'a', 'data');
    await ensureDataDir(dir);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it.each([0o777, 0o770, 0o757])('an existing folder writable by others (mode %o) is refused with the chmod fix', async (mode) => {
    const dir = join(root, 'open');
    await mkdir(dir);
    await chmod(dir, mode);
    await expect(ensureDataDir(dir)).rejects.toThrow(`run \`chmod 700 ${dir}\``);
    await expect(appendActivity(ENTRY, { dataDir: dir })).rejects.toThrow(/writable by/);
    await expect(createSettingsStore(dir).update((s) => s)).rejects.toThrow(/writable by/);
  });

  it('an existing folder readable by others (0755) is tightened to 0700', async () => {
    const dir = join(root, 'readable');
    await mkdir(dir);
    await chmod(dir, 0o755);
    await ensureDataDir(dir);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it('audit-log.jsonl as a symlink is refused: the other file is neither appended to nor chmodded', async () => {
    const dir = join(root, 'data');
    await ensureDataDir(dir);
    const victim = join(root, 'victim.txt');
    await writeFile(victim, 'mine\n');
    await chmod(victim, 0o644);
    await symlink(victim, join(dir, 'audit-log.jsonl'));
    await expect(appendActivity(ENTRY, { dataDir: dir })).rejects.toThrow(/symbolic link: refused/);
    expect(await readFile(victim, 'utf8')).toBe('mine\n');
    expect((await stat(victim)).mode & 0o777).toBe(0o644);
  });

  it('settings.json as a symlink is not read (its `writable` map could grant writes) and never written through', async () => {
    const dir = join(root, 'data');
    await ensureDataDir(dir);
    const planted = join(root, 'planted.json');
    await writeFile(planted, JSON.stringify({ version: 1, writable: { 'profile:prod': true } }));
    await symlink(planted, join(dir, 'settings.json'));
    const store = createSettingsStore(dir);
    expect((await store.read()).writable).toEqual({});
    expect(store.warning()).toMatch(/symbolic link: refused/);
    await store.update((s) => ({ ...s, ui: { theme: 'dark' } }));
    // The write replaced the link with a real 0600 file; the planted file is untouched.
    expect(JSON.parse(await readFile(planted, 'utf8'))).toEqual({ version: 1, writable: { 'profile:prod': true } });
    expect((await stat(join(dir, 'settings.json'))).mode & 0o777).toBe(0o600);
  });
});
