/** The app's audit methods over a request context: `audit.start`, `audit.cancel`, `audit.report`. */
import { randomUUID } from 'node:crypto';
import { emptySummary } from '../../../shared/audit/problem-rules';
import type { AuditReport } from '../../../shared/audit/types';
import type { AuditReportView, AuditStarted } from '../../../shared/contract/views';
import { err, ok, type Result } from '../../../shared/result';
import type { ConventionContext } from '../context/request-context';
import type { AuditRuns } from './audit-runs';
import { targetKey } from '../context/client-pool';
import { runAudit, STREAM_ROWS_PER_DELTA } from './run-audit';
import { historyTarget } from '../history/audit-history';

/** How long at most an audit start keeps the overview's survey waiting for its first rows. */
export const FIRST_ROWS_YIELD_MS = 2_000;

/** Starts auditing the context's table in the background; events go to `audit.events`. */
export async function startAudit(
  ctx: ConventionContext,
  runs: AuditRuns,
  args: { readonly segments?: number | undefined },
): Promise<Result<AuditStarted>> {
  const runId = `run_${randomUUID().replace(/-/g, '')}`;
  const run = runs.add(runId);
  run.target = targetKey(ctx.connectionId, ctx.target);
  run.history = { target: historyTarget(ctx.target), source: 'live' };
  const { convention } = ctx;
  const table = ctx.table.name;
  // The overview's survey keeps yielding until the first rows are out: a survey's detection, run on this
  // thread beside the first pages, held the first delta back by its own length. A table whose
  // rows all come at the end (only orphan locks) holds the survey back no longer than FIRST_ROWS_YIELD_MS.
  const firstRowsOut = runs.opening.enter();
  setTimeout(firstRowsOut, FIRST_ROWS_YIELD_MS).unref();
  void runAudit({
    client: ctx.client,
    table,
    convention,
    ...(args.segments ? { segments: args.segments } : {}),
    signal: run.controller.signal,
    errorContext: ctx.errorContext,
    maxRowsPerDelta: STREAM_ROWS_PER_DELTA,
    onDelta: (delta, progress) => {
      runs.delta(runId, run, delta, progress);
      if (delta.upserted.length > 0) firstRowsOut();
    },
  })
    // runAudit is not meant to throw; if it ever does, the run must still end — as incomplete,
    // with the reason — or the UI would wait for a `done` that never comes.
    .catch((error: unknown): { report: AuditReport } => ({
      report: {
        table,
        complete: false,
        reason: `the audit stopped unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
        convention,
        scanned: run.counts?.scanned ?? 0,
        accounts: run.counts?.accounts ?? 0,
        locks: run.counts?.locks ?? 0,
        summary: run.counts?.summary ?? emptySummary(),
        problems: [],
        warnings: [],
      },
    }))
    .then((done) => {
      firstRowsOut();
      // A complete audit answers this connection's lookups of the table until Locksmith writes through it.
      if ('index' in done && done.index) runs.indexes.remember(targetKey(ctx.connectionId, ctx.target), done.index);
      runs.finish(runId, run, done.report);
    });
  return ok({ runId, convention });
}

/** Cancels a running audit; false when it is unknown or already finished. */
export async function cancelAudit(runs: AuditRuns, args: { readonly runId: string }): Promise<Result<{ cancelled: boolean }>> {
  const run = runs.get(args.runId);
  if (!run || run.report) return ok({ cancelled: false });
  run.controller.abort();
  return ok({ cancelled: true });
}

/** The report of a finished run (a running one answers `conflict`: the report is ready when it finishes). */
export async function auditReport(runs: AuditRuns, args: { readonly runId: string }): Promise<Result<AuditReportView>> {
  const run = runs.get(args.runId);
  if (!run) return err('not-found', `No audit run ${args.runId}.`);
  return run.report ? ok(run.report) : err('conflict', 'The audit is still running; its report is ready when it finishes.');
}
