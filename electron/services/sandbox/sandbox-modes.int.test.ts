/**
 * A persistent sandbox's folder holds its key (a file, and the database file's own name) and every
 * table: another local user must not read either. Checked by stat of what a real start creates.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withPrivateUmask } from './dynamodb-local';
import { startSandbox, type SandboxHandle } from './sandbox';

let work = '';
const handles: SandboxHandle[] = [];
let umask: number | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'locksmith-sandbox-modes-'));
  // The usual umask: files others can read unless the sandbox sees to it.
  umask = process.umask(0o022);
});

afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop()));
});

afterAll(async () => {
  if (umask !== undefined) process.umask(umask);
  await rm(work, { recursive: true, force: true });
});

describe('sandbox --data-dir D: modes', () => {
  it('an existing 0755 folder is tightened to 0700, the key file and the database file are 0600', { timeout: 120_000 }, async () => {
    const dataDir = join(work, 'kept');
    await mkdir(dataDir);
    await chmod(dataDir, 0o755);
    const started = await startSandbox({ heap: '256m', dataDir, tables: ['users'] });
    if (!started.ok) throw new Error(started.error.message);
    handles.push(started.value);
    expect(started.value.seeded).toEqual(['users']);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    const names = await readdir(dataDir);
    // DynamoDB Local names its file after the key id: the reason the folder is kept private.
    expect(names).toContain(`${started.value.credentials.accessKeyId}_us-east-1.db`);
    const loose: string[] = [];
    for (const name of names) {
      const mode = (await stat(join(dataDir, name))).mode & 0o777;
      if (mode !== 0o600) loose.push(`${name} ${mode.toString(8)}`);
    }
    expect(loose).toEqual([]);
  });

  it('a folder others can write to is refused before anything starts', async () => {
    const dataDir = join(work, 'open');
    await mkdir(dataDir);
    await chmod(dataDir, 0o777);
    const started = await startSandbox({ heap: '256m', dataDir, tables: ['users'] });
    if (started.ok) handles.push(started.value);
    expect(started).toMatchObject({ ok: false, error: { kind: 'validation', message: expect.stringContaining('writable by every user') } });
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('the JVM is started through a shell that sets umask 077 and execs java (same pid)', () => {
    expect(withPrivateUmask('/usr/bin/java', ['-jar', 'x.jar'], 'linux')).toEqual([
      '/bin/sh',
      ['-c', 'umask 077 && exec "$0" "$@"', '/usr/bin/java', '-jar', 'x.jar'],
    ]);
    expect(withPrivateUmask('java.exe', ['-jar', 'x.jar'], 'win32')).toEqual(['java.exe', ['-jar', 'x.jar']]);
  });
});
