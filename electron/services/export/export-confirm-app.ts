/**
 * `audit.confirmExport`: an export run's findings re-checked against the live table (confirm.ts:
 * consistent reads by key, never a scan). Findings no longer true move to the report's `stale` and
 * out of `summary`; the rows become the confirmed findings' groups re-derived from the live items
 * (one delta, then `done` again with the confirmed counts). Only a confirmed export run may be repaired (repair-bridge.ts).
 */
import type { ExportConfirmView } from '../../../shared/contract/views';
import type { Problem } from '../../../shared/model';
import { err, ok, type Result } from '../../../shared/result';
import type { AuditRuns } from '../audit/audit-runs';
import { targetKey } from '../context/client-pool';
import type { TableContext } from '../context/request-context';
import { confirmWithRows, type ConfirmedReport } from './confirm';
import type { ExportAuditReport } from './export-audit-types';

/** Whether a report is of an export run (it carries `source`), and whether it was confirmed (`stale` present). */
export function exportState(report: object): 'live' | 'unconfirmed' | 'confirmed' {
  if (!('source' in report)) return 'live';
  return 'stale' in report ? 'confirmed' : 'unconfirmed';
}

/** Runs being confirmed right now. */
const confirming = new WeakSet<object>();

/** Confirms a finished, complete export run of this connection and table against the live table. */
export async function confirmExportRun(
  ctx: TableContext,
  runs: AuditRuns,
  args: { readonly runId: string },
): Promise<Result<ExportConfirmView>> {
  const run = runs.get(args.runId);
  const report = run?.report;
  if (!run || !report)
    return err(
      run ? 'conflict' : 'not-found',
      run ? 'The export audit is still running: confirm it when it finishes.' : `No audit run ${args.runId}.`,
    );
  if (exportState(report) === 'live')
    return err('validation', `audit run ${args.runId} read the live table: there is nothing to confirm`, { field: 'runId' });
  if (run.target !== targetKey(ctx.connectionId, ctx.target) || report.table !== ctx.table.name)
    return err('validation', `audit run ${args.runId} was not started for ${ctx.table.name} on this connection as it points now`, {
      field: 'runId',
    });
  if (!report.complete)
    return err('validation', `the export audit did not finish (${report.reason ?? 'incomplete'}): nothing to confirm`, { field: 'runId' });
  // One confirmation at a time per run: two would each publish their own rows and the second would drop the first's `stale`.
  if (confirming.has(run)) return err('conflict', 'This export run is being confirmed already: wait for that confirmation.');
  confirming.add(run);
  let confirmed;
  try {
    // The run's switch: app shutdown (runs.close) stops a confirmation between batches of reads.
    confirmed = await confirmWithRows({
      client: ctx.client,
      table: ctx.table.name,
      report: report as ExportAuditReport,
      errorContext: ctx.errorContext,
      signal: run.controller.signal,
    });
  } finally {
    confirming.delete(run);
  }
  if (!confirmed.ok) return confirmed;
  const { report: checked, rows = [] } = confirmed.value;
  // Confirming again re-reads what is still a finding: what went stale before stays stale.
  const before = 'stale' in report ? (report.stale as readonly Problem[]) : [];
  const stale = [...before, ...checked.stale];
  // The rows now are the confirmed findings' groups as the live items show them: the rest leave the list.
  const kept = new Set(rows.map((row) => row.id));
  const removed = [...(run.rows?.keys() ?? [])].filter((id) => !kept.has(id));
  const { scanned, accounts, locks, summary } = checked;
  const progress = run.progress ?? { items: scanned, pages: 0, segments: 0, segmentsDone: 0, capacityUnits: 0, elapsedMs: 0, retries: 0 };
  runs.delta(
    args.runId,
    run,
    { upserted: rows, removed, counts: { scanned, accounts, locks, summary } },
    { ...progress, step: 'confirmed against the live table' },
  );
  const final: ConfirmedReport = { ...checked, stale };
  runs.finish(args.runId, run, final);
  return ok({ confirmed: checked.problems.length, stale: stale.length });
}
