/** Running an export audit in a child process (DuckDB never loads in the caller), with cancel. */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { GroupRow } from '../../../shared/audit/types';
import type { ExportAuditMessage, ExportAuditReport, ExportAuditRequest } from './export-audit-types';
import { ExportError } from './read-export';

/** The child's source, run through tsx (the source tree, the CLI bundle, browser mode). */
const CHILD_SOURCE = fileURLToPath(new URL('./export-audit-child.ts', import.meta.url));
/**
 * The child as a bundle ships it, beside the module running this one: bin/build-electron.mjs writes it beside
 * main.cjs, bin/build-cli.mjs beside the CLI's chunks. import.meta.dirname, not import.meta.url, which the CLI
 * bundle rewrites to the source file's location; in the sources there is no such file.
 */
const CHILD_BUILT = join(import.meta.dirname, 'export-audit-child.cjs');

/**
 * tsx's loader as a file URL, resolved from this module: a bare `--import tsx` is resolved from the
 * working folder, and a CLI run from outside the checkout had its child die before reporting.
 */
function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

/** How to start the child: the built sibling when there is one (no tsx in a bundle), else the source through tsx. */
export function childEntry(
  built = CHILD_BUILT,
  source = CHILD_SOURCE,
  exists: (path: string) => boolean = existsSync,
): { readonly path: string; readonly execArgv: readonly string[] } {
  return exists(built) ? { path: built, execArgv: [] } : { path: source, execArgv: ['--import', tsxLoader()] };
}

/** What a run gives back: the report, how many items went to the JS engine, and (when asked) the problem groups. */
export interface ExportAuditResult {
  readonly report: ExportAuditReport;
  readonly pulled: number;
  readonly rows?: readonly GroupRow[];
}

/** Options of one run. */
export interface RunExportAuditOptions {
  readonly signal?: AbortSignal;
  readonly onStep?: (step: string) => void;
  /** How long a stopped child may take to exit before it is killed with SIGKILL (and again before giving up); 5 s by default. */
  readonly killGraceMs?: number;
}

/** Resolves with the report; rejects with an ExportError (bad export, named file) or an Error (cancelled, child died). */
export async function runExportAudit(request: ExportAuditRequest, options: RunExportAuditOptions = {}): Promise<ExportAuditResult> {
  await sweepStaleRuns(request.cacheDir);
  // A folder of this run's own, named by its owner's pid (see sweepStaleRuns): removed once the child
  // is gone (runChild waits for its end, even when it is killed mid-query, as DuckDB may still be writing spill files).
  const cacheDir = join(request.cacheDir, `run-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    return await runChild({ ...request, cacheDir }, options);
  } finally {
    // Never masks the run's own outcome (the report, 'cancelled'): a folder that cannot go now is swept by a later run.
    await rm(cacheDir, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
  }
}

/** How old a folder of the old naming (`run-<hex>`, no owner pid) must be before a sweep takes it. */
const LEGACY_RUN_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the run folders in `cacheDir` left by runs that died before cleaning up (a crash, a kill -9).
 * A folder is taken only when its owner cannot be running: `run-<pid>-<hex>` whose pid is gone
 * (a live pid, even a reused one, keeps it: a concurrent run's folder is never removed), or an
 * old-style `run-<hex>` untouched for a day. Never throws: the sweep must not stop a run.
 */
export async function sweepStaleRuns(
  cacheDir: string,
  now = Date.now(),
  alive: (pid: number) => boolean = pidAlive,
): Promise<readonly string[]> {
  const names = await readdir(cacheDir).catch(() => [] as string[]);
  const swept: string[] = [];
  for (const name of names) {
    const owned = /^run-(\d+)-[0-9a-f]+$/.exec(name);
    let stale = false;
    if (owned) stale = !alive(Number(owned[1]));
    else if (/^run-[0-9a-f]{12}$/.test(name))
      stale = await stat(join(cacheDir, name)).then(
        (s) => now - s.mtimeMs > LEGACY_RUN_AGE_MS,
        () => false,
      );
    if (!stale) continue;
    const removed = await rm(join(cacheDir, name), { recursive: true, force: true }).then(
      () => true,
      () => false,
    );
    if (removed) swept.push(name);
  }
  return swept;
}

/** Whether a process with this pid exists (EPERM: it exists but is another user's). */
function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A started child, as runChild uses it: Node's `fork` (the CLI, browser mode) or Electron's
 * `utilityProcess` (the app's main process, where the runAsNode fuse is off and `fork` would start
 * a second app instead of Node).
 */
export interface ChildHandle {
  send(request: ExportAuditRequest): void;
  onMessage(listener: (message: ExportAuditMessage) => void): void;
  /** Called once when the process is gone (it exited, was killed or never started); `how` says how ("exit 1", "SIGKILL", an error). */
  onEnd(listener: (how: string) => void): void;
  /** Its last lines of stderr, for the message when it ends before reporting. */
  stderrTail(): string;
  /** Asks it to stop (SIGTERM), or with `force` kills it (SIGKILL); its end comes later through onEnd. */
  kill(force?: boolean): void;
}

/** Starts the child at `entry`. */
export type ChildLauncher = (entry: { readonly path: string; readonly execArgv: readonly string[] }) => ChildHandle;

/** Node's fork: one request over IPC, messages back. */
export const forkLauncher: ChildLauncher = (entry) => {
  const child = fork(entry.path, [], { execArgv: [...entry.execArgv], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  return {
    send: (request) => child.send(request),
    onMessage: (listener) => child.on('message', listener),
    onEnd: (listener) => {
      let ended = false;
      let stopping = false;
      const end = (how: string): void => {
        if (ended) return;
        ended = true;
        listener(how);
      };
      child.on('error', (error) => {
        // Without a pid it never started (no 'exit' follows). Otherwise a send or kill failed while it
        // runs: that is no end; stop it (its 'exit' ends the run) and keep the reason for the message.
        if (child.pid === undefined) end(error.message);
        else if (!stopping) {
          stopping = true;
          stderr += `\n${error.message}`;
          child.kill();
        }
      });
      child.on('exit', (code, signal) => end(signal ?? `exit ${code}`));
    },
    stderrTail: () => stderr.trim().split('\n').slice(-3).join(' '),
    kill: (force) => {
      child.kill(force ? 'SIGKILL' : 'SIGTERM');
    },
  };
};

let launcher: ChildLauncher = forkLauncher;

/** Makes runs start their child with `next` (Electron's main process: utilityProcess, see electron/main/export-child.ts). */
export function useChildLauncher(next: ChildLauncher): void {
  launcher = next;
}

/**
 * Runs the request in a child and settles only once that child is gone (answered, failed, cancelled
 * or died), so that the caller may remove the run's folder: a child stopped mid-query may still be
 * writing DuckDB spill files into it. A stopped child gets `killGraceMs` to exit, then SIGKILL.
 */
async function runChild(request: ExportAuditRequest, options: RunExportAuditOptions): Promise<ExportAuditResult> {
  if (options.signal?.aborted) throw new Error('cancelled');
  const graceMs = options.killGraceMs ?? 5000;
  const child = launcher(childEntry());
  let onEnded: (how: string) => void = () => undefined;
  const ended = new Promise<string>((resolve) => (onEnded = resolve));
  let hasEnded = false;
  let fail: (error: Error) => void = () => undefined;
  const outcome = new Promise<ExportAuditResult>((resolve, reject) => {
    let settled = false;
    const finish = (then: () => void): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      then();
    };
    fail = (error) => finish(() => reject(error));
    const onAbort = (): void => fail(new Error('cancelled'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.onMessage((message) => {
      if (message.kind === 'step') {
        if (!settled) options.onStep?.(message.step);
        return;
      }
      if (message.kind === 'done')
        finish(() => resolve({ report: message.report, pulled: message.pulled, ...(message.rows ? { rows: message.rows } : {}) }));
      else finish(() => reject(message.export ? new ExportError(message.message, message.file) : new Error(message.message)));
    });
    child.onEnd((how) => {
      hasEnded = true;
      onEnded(how);
      const tail = child.stderrTail();
      finish(() => reject(new Error(`the export audit process ended (${how}) before reporting${tail ? `: ${tail}` : ''}`)));
    });
  });
  try {
    child.send(request);
  } catch (error) {
    // A child that is already gone: no answer will come; settle (removing the abort listener) and stop it.
    fail(error instanceof Error ? error : new Error(String(error)));
  }
  // Settled either way; the outcome is returned only once the child is gone.
  await outcome.then(
    () => undefined,
    () => undefined,
  );
  // A utility process does not exit by itself once it has answered; a cancelled one must stop.
  if (!hasEnded) await stopChild(child, ended, graceMs);
  return outcome;
}

/** Stops a child and waits for its end: SIGTERM, then SIGKILL after `graceMs`, then gives up after `graceMs` more (bounded). */
async function stopChild(child: ChildHandle, ended: Promise<string>, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const within = (ms: number): Promise<boolean> =>
    Promise.race([
      ended.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]).finally(() => clearTimeout(timer));
  child.kill();
  if (await within(graceMs)) return;
  child.kill(true);
  await within(graceMs);
}
