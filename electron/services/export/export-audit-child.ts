/**
 * The child process of an export audit: opens and verifies every export, runs DuckDB, sends the
 * report. DuckDB's memory and native code live here, never in the CLI's or Electron's main process.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { duckAudit } from './duck-audit';
import { checkExportChain } from './export-chain';
import type { ExportAuditMessage, ExportAuditRequest, ExportSource } from './export-audit-types';
import { ExportError, oneLine, openExport, verifyExport } from './read-export';

/** Runs one request and returns the message to send back (never throws). */
export async function runExportAuditRequest(request: ExportAuditRequest, onStep: (step: string) => void): Promise<ExportAuditMessage> {
  const dbDir = join(request.cacheDir, `audit-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const opened = [];
    for (const path of request.exports) opened.push(await openExport(path));
    // Before any data file is hashed: a chain with a gap, out of order or of another table is refused at once.
    checkExportChain(opened);
    for (const [i, one] of opened.entries()) {
      onStep(opened.length > 1 ? `verify export ${i + 1}/${opened.length}` : 'verify');
      await verifyExport(one);
    }
    await mkdir(dbDir, { recursive: true });
    const result = await duckAudit({
      exports: opened,
      convention: request.convention,
      table: request.table,
      dbPath: join(dbDir, 'audit.duckdb'),
      memoryMb: request.memoryMb,
      threads: request.threads,
      onStep,
      rows: request.rows === true,
    });
    const [full, ...incrementals] = opened;
    const last = opened[opened.length - 1]!.summary as { exportTime: string; exportToTime?: string };
    const source: ExportSource = {
      kind: 'export',
      exportArn: full!.summary.exportArn,
      exportTime: incrementals.length ? (last.exportToTime ?? last.exportTime) : full!.summary.exportTime,
      itemsRead: result.linesRead,
      ...(incrementals.length
        ? {
            incrementals: incrementals.map((e) => ({
              exportArn: e.summary.exportArn,
              exportTime: (e.summary as { exportToTime?: string }).exportToTime ?? e.summary.exportTime,
            })),
          }
        : {}),
    };
    return { kind: 'done', report: { ...result.report, source }, pulled: result.pulled, ...(result.rows ? { rows: result.rows } : {}) };
  } catch (error) {
    if (error instanceof ExportError)
      return { kind: 'error', message: error.message, export: true, ...(error.file ? { file: error.file } : {}) };
    // DuckDB's own errors (a data file that is not JSON, a disk full) say what failed, over several lines
    // ending in the query and a `^`: one line is kept, naming the export when DuckDB names no file.
    const first = oneLine(error, 500);
    return {
      kind: 'error',
      message: /\.json(?:\.gz)?\b/.test(first) ? first : `${first} (reading the export at ${request.exports.join(', ')})`,
    };
  } finally {
    await rm(dbDir, { recursive: true, force: true });
  }
}

/** What a child talks to its parent through: Electron's `process.parentPort` (utilityProcess), narrowed. */
export interface ParentPort {
  once(event: 'message', listener: (event: { readonly data: unknown }) => void): void;
  postMessage(message: ExportAuditMessage): void;
}

/** Serves one request from a utilityProcess parent; the parent kills the child once it has the answer. */
export function serveParentPort(port: ParentPort): void {
  port.once('message', (event) => {
    void runExportAuditRequest(event.data as ExportAuditRequest, (step) => port.postMessage({ kind: 'step', step })).then((message) =>
      port.postMessage(message),
    );
  });
}

// Started by Electron's utilityProcess.fork (the app) or Node's fork (CLI, browser mode): one request in, messages out.
// Only as the forked entry point: a module importing this one (a test in a worker that has an IPC
// channel of its own) must not take that channel's messages for requests.
const parentPort = (process as { parentPort?: ParentPort }).parentPort;
const forkedEntry = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (parentPort) serveParentPort(parentPort);
else if (process.send && forkedEntry) {
  // The parent is gone (killed, crashed) or let go of us: nobody will read the answer, and a run
  // folder whose owner is gone is swept by the next run; stop now rather than at the end of a long query.
  process.once('disconnect', () => process.exit(1));
  process.once('message', (request: ExportAuditRequest) => {
    void runExportAuditRequest(request, (step) => process.send?.({ kind: 'step', step } satisfies ExportAuditMessage)).then((message) => {
      process.send?.(message, () => process.exit(0));
    });
  });
}
