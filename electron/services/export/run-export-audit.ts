/** Running an export audit in a child process (DuckDB never loads in the caller), with cancel. */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExportAuditMessage, ExportAuditReport, ExportAuditRequest } from './export-audit-types';
import { ExportError } from './read-export';

const CHILD = fileURLToPath(new URL('./export-audit-child.ts', import.meta.url));

/** Options of one run. */
export interface RunExportAuditOptions {
  readonly signal?: AbortSignal;
  readonly onStep?: (step: string) => void;
}

/** Resolves with the report; rejects with an ExportError (bad export, named file) or an Error (cancelled, child died). */
export async function runExportAudit(request: ExportAuditRequest, options: RunExportAuditOptions = {}): Promise<{ report: ExportAuditReport; pulled: number }> {
  // A folder of this run's own: removed here whatever happens, even when the child is killed mid-query.
  const cacheDir = join(request.cacheDir, `run-${randomBytes(6).toString('hex')}`);
  try {
    return await runChild({ ...request, cacheDir }, options);
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

function runChild(request: ExportAuditRequest, options: RunExportAuditOptions): Promise<{ report: ExportAuditReport; pulled: number }> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new Error('cancelled'));
      return;
    }
    // The child runs the TypeScript through tsx, as bin/locksmith does.
    const child = fork(CHILD, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    let settled = false;
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
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
    child.on('message', (message: ExportAuditMessage) => {
      if (message.kind === 'step') options.onStep?.(message.step);
      else if (message.kind === 'done') finish(() => resolve({ report: message.report, pulled: message.pulled }));
      else finish(() => reject(message.export ? new ExportError(message.message, message.file) : new Error(message.message)));
    });
    child.on('error', (error) => finish(() => reject(error)));
    child.on('exit', (code, signal) => finish(() => reject(new Error(`the export audit process ended (${signal ?? `exit ${code}`}) before reporting${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : ''}`))));
    child.send(request);
  });
}
