import { fork, spawnSync } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import { serveParentPort, type ParentPort } from './export-audit-child';
import type { ExportAuditMessage, ExportAuditReport, ExportAuditRequest } from './export-audit-types';
import { ExportError } from './read-export';
import { childEntry, forkLauncher, runExportAudit, sweepStaleRuns, useChildLauncher, type ChildHandle } from './run-export-audit';
import { writeExport } from './write-export';

const layout = layoutFor('uniq');
let work = '';
let exportDir = '';

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'locksmith-run-export-'));
  exportDir = (
    await writeExport(
      { out: join(work, 'x'), keys: layout.convention.keys, tableArn: 'arn:aws:dynamodb:us-east-1:0:table/users', partitions: 2 },
      [
        layout.account('a1', { email: 'a@x', username: 'a' }),
        layout.lock('EMAIL', 'a@x'),
        layout.lock('HANDLE', 'a'),
        layout.lock('HANDLE', 'ghost'),
      ],
    )
  ).dir;
});
afterAll(async () => rm(work, { recursive: true, force: true }));
afterEach(() => useChildLauncher(forkLauncher));

const request = (): ExportAuditRequest => ({
  exports: [exportDir],
  convention: layout.convention,
  table: 'users',
  cacheDir: join(work, 'cache'),
  memoryMb: 128,
  rows: true,
});

/** A child like a utility process: it answers through its listener and never exits by itself. */
function fakeChild(answer: (send: (m: ExportAuditMessage) => void, request: ExportAuditRequest) => void): {
  handle: ChildHandle;
  killed: () => boolean;
  end: (how: string) => void;
  sent: Promise<void>;
} {
  let listener: ((m: ExportAuditMessage) => void) | undefined;
  let ended: ((how: string) => void) | undefined;
  let killed = false;
  let onSent: () => void = () => undefined;
  const sent = new Promise<void>((resolve) => (onSent = resolve));
  const handle: ChildHandle = {
    send: (r) => {
      onSent();
      queueMicrotask(() => answer((m) => listener?.(m), r));
    },
    onMessage: (l) => (listener = l),
    onEnd: (l) => (ended = l),
    stderrTail: () => 'Error: boom',
    // Like a real child: killing it ends it a moment later.
    kill: (force) => {
      killed = true;
      queueMicrotask(() => ended?.(force ? 'SIGKILL' : 'SIGTERM'));
    },
  };
  return { handle, killed: () => killed, end: (how) => ended?.(how), sent };
}

describe('childEntry', () => {
  it('forks the built child beside the Electron main bundle when it is there, without tsx', () => {
    expect(childEntry('/app/dist-electron/export-audit-child.cjs', '/src/export-audit-child.ts', (p) => p.endsWith('.cjs'))).toEqual({
      path: '/app/dist-electron/export-audit-child.cjs',
      execArgv: [],
    });
  });

  it('runs the source through tsx from the source tree, its loader named by path (a bare `tsx` resolves from the working folder)', () => {
    const entry = childEntry('/src/export-audit-child.cjs', '/src/export-audit-child.ts', () => false);
    expect(entry.path).toBe('/src/export-audit-child.ts');
    expect(entry.execArgv[0]).toBe('--import');
    expect(entry.execArgv[1]).toMatch(/^file:\/\/.*\/node_modules\/tsx\/.*\.mjs$/);
  });

  it('finds no built child next to the sources', () => {
    expect(childEntry().path.endsWith('export-audit-child.ts')).toBe(true);
  });
});

describe('runExportAudit with another launcher (the app: utilityProcess)', () => {
  it('passes steps on, resolves with the answer and stops a child that does not exit by itself', async () => {
    const report = { table: 'users', complete: true } as unknown as ExportAuditReport;
    const child = fakeChild((send) => {
      send({ kind: 'step', step: 'load' });
      send({ kind: 'done', report, pulled: 3, rows: [] });
    });
    useChildLauncher(() => child.handle);
    const steps: string[] = [];
    await expect(runExportAudit(request(), { onStep: (s) => steps.push(s) })).resolves.toEqual({ report, pulled: 3, rows: [] });
    expect(steps).toEqual(['load']);
    expect(child.killed()).toBe(true);
  });

  it('rejects with an ExportError naming the file, and kills the child on cancel', async () => {
    useChildLauncher(
      () => fakeChild((send) => send({ kind: 'error', message: 'data file corrupted: x.json.gz', export: true, file: 'x.json.gz' })).handle,
    );
    await expect(runExportAudit(request())).rejects.toEqual(new ExportError('data file corrupted: x.json.gz', 'x.json.gz'));

    const silent = fakeChild(() => undefined);
    useChildLauncher(() => silent.handle);
    const controller = new AbortController();
    const running = runExportAudit(request(), { signal: controller.signal });
    await silent.sent;
    controller.abort();
    await expect(running).rejects.toThrow('cancelled');
    expect(silent.killed()).toBe(true);
  });

  it('leaves no listener on the signal, whether the run answered, was cancelled or could not send its request', async () => {
    const report = { table: 'users', complete: true } as unknown as ExportAuditReport;
    const answered = new AbortController();
    useChildLauncher(() => fakeChild((send) => send({ kind: 'done', report, pulled: 0 })).handle);
    await runExportAudit(request(), { signal: answered.signal });
    expect(getEventListeners(answered.signal, 'abort')).toHaveLength(0);

    const cancelled = new AbortController();
    const silent = fakeChild(() => undefined);
    useChildLauncher(() => silent.handle);
    const running = runExportAudit(request(), { signal: cancelled.signal });
    await silent.sent;
    cancelled.abort();
    await expect(running).rejects.toThrow('cancelled');
    expect(getEventListeners(cancelled.signal, 'abort')).toHaveLength(0);

    const unsent = new AbortController();
    const gone = fakeChild(() => undefined);
    useChildLauncher(() => ({
      ...gone.handle,
      send: () => {
        throw new Error('channel closed');
      },
    }));
    await expect(runExportAudit(request(), { signal: unsent.signal })).rejects.toThrow('channel closed');
    expect(getEventListeners(unsent.signal, 'abort')).toHaveLength(0);
    expect(gone.killed()).toBe(true);
  });

  it('starts no child when cancelled before it starts', async () => {
    let launched = false;
    useChildLauncher(() => {
      launched = true;
      return fakeChild(() => undefined).handle;
    });
    await expect(runExportAudit(request(), { signal: AbortSignal.abort() })).rejects.toThrow('cancelled');
    expect(launched).toBe(false);
  });

  it('says how the child ended when it ends before reporting, with its last stderr', async () => {
    const dying = fakeChild(() => undefined);
    useChildLauncher(() => dying.handle);
    const running = runExportAudit(request());
    await dying.sent;
    dying.end('exit 1');
    await expect(running).rejects.toThrow('the export audit process ended (exit 1) before reporting: Error: boom');
  });
});

/**
 * A real child in the place of the audit's: it writes a file into its run folder, says 'started',
 * and then stays busy like a long query. On SIGTERM it either goes on writing into its folder for a
 * while (recreating it if it was removed: DuckDB finishing a spill file) and exits, or ignores it.
 */
const busyChild = (onTerm: 'write-then-exit' | 'ignore'): string => `
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
process.once('message', (request) => {
  const dir = request.cacheDir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'spill-0'), 'x');
  process.on('SIGTERM', () => {
    if (${JSON.stringify(onTerm)} === 'ignore') return;
    let n = 0;
    const write = () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'spill-' + ++n), 'x');
      if (n < 20) setTimeout(write, 10);
      else process.exit(0);
    };
    write();
  });
  process.send({ kind: 'step', step: 'started' });
});
setInterval(() => undefined, 1000);
`;

describe('cancelling a run whose child is still busy (real child processes)', () => {
  const started: ChildHandle[] = [];
  afterEach(() => {
    for (const handle of started.splice(0)) handle.kill(true);
  });

  /** Forks `script`; `ended` resolves with how that child ended. */
  async function launchReal(script: string): Promise<{ ended: Promise<string> }> {
    const path = join(work, `child-${randomName()}.mjs`);
    await writeFile(path, script);
    let onEnded: (how: string) => void = () => undefined;
    const ended = new Promise<string>((resolve) => (onEnded = resolve));
    useChildLauncher(() => {
      const handle = forkLauncher({ path, execArgv: [] });
      handle.onEnd(onEnded);
      started.push(handle);
      return handle;
    });
    return { ended };
  }

  async function cancelOnStart(cacheDir: string, killGraceMs?: number): Promise<void> {
    const controller = new AbortController();
    const running = runExportAudit(
      { ...request(), cacheDir },
      { signal: controller.signal, onStep: (s) => s === 'started' && controller.abort(), ...(killGraceMs ? { killGraceMs } : {}) },
    );
    await expect(running).rejects.toThrow(/^cancelled$/);
  }

  it('removes the run folder only after the child has exited, so nothing it writes meanwhile is left', async () => {
    const { ended } = await launchReal(busyChild('write-then-exit'));
    const cacheDir = join(work, `cache-${randomName()}`);
    await cancelOnStart(cacheDir);
    expect(await ended).toBe('exit 0');
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it('kills a child that ignores SIGTERM with SIGKILL after the grace time, then removes its folder', async () => {
    const { ended } = await launchReal(busyChild('ignore'));
    const cacheDir = join(work, `cache-${randomName()}`);
    await cancelOnStart(cacheDir, 300);
    expect(await ended).toBe('SIGKILL');
    expect(await readdir(cacheDir)).toEqual([]);
  });
});

const randomName = (): string => Math.random().toString(36).slice(2, 10);

/** A pid that certainly belonged to a process that has exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid!;

describe('sweepStaleRuns', () => {
  it('removes the folders of runs whose owner is gone and old-style ones untouched for a day, never those of a live owner', async () => {
    const cacheDir = join(work, `sweep-${randomName()}`);
    const dead = deadPid();
    const names = [`run-${dead}-aa11`, `run-${process.pid}-bb22`, 'run-0123456789ab', 'run-ba9876543210', 'keep-me', 'audit.duckdb'];
    for (const name of names) await mkdir(join(cacheDir, name, 'audit-1'), { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await utimes(join(cacheDir, 'run-0123456789ab'), twoDaysAgo, twoDaysAgo);

    expect([...(await sweepStaleRuns(cacheDir))].sort()).toEqual(['run-0123456789ab', `run-${dead}-aa11`].sort());
    expect((await readdir(cacheDir)).sort()).toEqual([`run-${process.pid}-bb22`, 'run-ba9876543210', 'keep-me', 'audit.duckdb'].sort());
  });

  it('keeps a folder whose owner pid is alive however old it is (a long concurrent run), and is quiet without a cache folder', async () => {
    const cacheDir = join(work, `sweep-${randomName()}`);
    await mkdir(join(cacheDir, 'run-42-cc33'), { recursive: true });
    const old = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    await utimes(join(cacheDir, 'run-42-cc33'), old, old);
    expect(await sweepStaleRuns(cacheDir, Date.now(), (pid) => pid === 42)).toEqual([]);
    expect(await sweepStaleRuns(join(work, 'no-such-cache'))).toEqual([]);
  });

  it('runs at the start of each run: the folder of a dead run is gone afterwards', async () => {
    const cacheDir = join(work, `sweep-${randomName()}`);
    const stale = `run-${deadPid()}-dd44`;
    await mkdir(join(cacheDir, stale), { recursive: true });
    useChildLauncher(() => fakeChild((send) => send({ kind: 'error', message: 'boom' })).handle);
    await expect(runExportAudit({ ...request(), cacheDir })).rejects.toThrow('boom');
    expect(await readdir(cacheDir)).toEqual([]);
  });
});

describe('the forked child (CLI, browser mode)', () => {
  it('starts through tsx from a working folder with no tsx of its own, and reports', async () => {
    const entry = childEntry();
    const child = fork(entry.path, [], { cwd: work, execArgv: [...entry.execArgv], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const kinds: string[] = [];
    child.on('message', (m: ExportAuditMessage) => kinds.push(m.kind));
    child.send({ ...request(), cacheDir: join(work, `cache-${randomName()}`) });
    expect({ code: await exited, last: kinds.at(-1), stderr: stderr.trim() }).toEqual({ code: 0, last: 'done', stderr: '' });
  }, 30_000);

  it('exits at once when its parent goes away mid-run instead of running on to a send that fails', async () => {
    const entry = childEntry();
    const child = fork(entry.path, [], { execArgv: [...entry.execArgv], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const messages: ExportAuditMessage[] = [];
    child.on('message', (m: ExportAuditMessage) => {
      messages.push(m);
      // Its first step: it is running; the parent now lets go (as when the parent dies).
      if (messages.length === 1) child.disconnect();
    });
    child.send({ ...request(), cacheDir: join(work, `cache-${randomName()}`) });
    const code = await exited;
    // Steps it sent before the disconnect reached it may still arrive; never an answer, never a crash.
    expect({ code, kinds: [...new Set(messages.map((m) => m.kind))], stderr: stderr.trim() }).toEqual({
      code: 1,
      kinds: ['step'],
      stderr: '',
    });
  });
});

describe('the child behind a parent port (utilityProcess)', () => {
  it('answers one request with its steps and the report, as over fork', async () => {
    const sent: ExportAuditMessage[] = [];
    const done = new Promise<void>((resolve) => {
      const port: ParentPort = {
        once: (_event, listener) => listener({ data: request() }),
        postMessage: (m) => {
          sent.push(m);
          if (m.kind !== 'step') resolve();
        },
      };
      serveParentPort(port);
    });
    await done;
    const last = sent.at(-1)!;
    expect(sent.filter((m) => m.kind === 'step').map((m) => (m as { step: string }).step)).toEqual(
      expect.arrayContaining(['verify', 'load']),
    );
    expect(last.kind).toBe('done');
    expect(last.kind === 'done' && last.report.summary['orphan-lock']).toBe(1);
    expect(last.kind === 'done' && last.rows?.map((r) => r.id)).toEqual([JSON.stringify(['UNIQ#HANDLE#ghost', 'LOCK'])]);
  });
});
