/** Running an export audit in a child process (DuckDB never loads in the caller), with cancel. */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GroupRow } from '../../../shared/audit/types';
import type { ExportAuditMessage, ExportAuditReport, ExportAuditRequest } from './export-audit-types';
import { ExportError } from './read-export';

/** The child's source, run through tsx (the source tree, the CLI bundle, browser mode). */
const CHILD_SOURCE = fileURLToPath(new URL('./export-audit-child.ts', import.meta.url));
/** The child as the Electron main bundle ships it: bin/build-electron.mjs writes it beside main.cjs. */
const CHILD_BUILT = fileURLToPath(new URL('./export-audit-child.cjs', import.meta.url));

/** How to start the child: the built sibling when there is one (no tsx in a packaged app), else the source through tsx. */
export function childEntry(built = CHILD_BUILT, source = CHILD_SOURCE, exists: (path: string) => boolean = existsSync): { readonly path: string; readonly execArgv: readonly string[] } {
  return exists(built) ? { path: built, execArgv: [] } : { path: source, execArgv: ['--import', 'tsx'] };
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
}

/** Resolves with the report; rejects with an ExportError (bad export, named file) or an Error (cancelled, child died). */
export async function runExportAudit(request: ExportAuditRequest, options: RunExportAuditOptions = {}): Promise<ExportAuditResult> {
  // A folder of this run's own: removed here whatever happens, even when the child is killed mid-query.
  const cacheDir = join(request.cacheDir, `run-${randomBytes(6).toString('hex')}`);
  try {
    return await runChild({ ...request, cacheDir }, options);
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
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
  /** Called once when the child cannot start or ends; `how` says how ("exit 1", "SIGKILL", an error). */
  onEnd(listener: (how: string) => void): void;
  /** Its last lines of stderr, for the message when it ends before reporting. */
  stderrTail(): string;
  kill(): void;
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
      child.on('error', (error) => listener(error.message));
      child.on('exit', (code, signal) => listener(signal ?? `exit ${code}`));
    },
    stderrTail: () => stderr.trim().split('\n').slice(-3).join(' '),
    kill: () => child.kill(),
  };
};

let launcher: ChildLauncher = forkLauncher;

/** Makes runs start their child with `next` (Electron's main process: utilityProcess, see electron/main/export-child.ts). */
export function useChildLauncher(next: ChildLauncher): void {
  launcher = next;
}

function runChild(request: ExportAuditRequest, options: RunExportAuditOptions): Promise<ExportAuditResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new Error('cancelled'));
      return;
    }
    const child = launcher(childEntry());
    let settled = false;
    const onAbort = (): void => {
      child.kill();
      finish(() => reject(new Error('cancelled')));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (then: () => void): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      then();
    };
    child.onMessage((message) => {
      if (message.kind === 'step') {
        options.onStep?.(message.step);
        return;
      }
      // A utility process does not exit by itself once it has answered.
      child.kill();
      if (message.kind === 'done') finish(() => resolve({ report: message.report, pulled: message.pulled, ...(message.rows ? { rows: message.rows } : {}) }));
      else finish(() => reject(message.export ? new ExportError(message.message, message.file) : new Error(message.message)));
    });
    child.onEnd((how) => {
      const tail = child.stderrTail();
      finish(() => reject(new Error(`the export audit process ended (${how}) before reporting${tail ? `: ${tail}` : ''}`)));
    });
    child.send(request);
  });
}
