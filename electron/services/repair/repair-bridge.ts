/**
 * The repair methods of the app over a request context: a plan from an audit run's report (complete
 * runs only), executed in the background, its progress streamed on `repair.events` (`repair.status`
 * answers the state now). Plans are bound to the connection id they were made on.
 */
import type { RepairPlanView, RepairStatusView } from '../../../shared/contract/repair-views';
import type { ProblemKind } from '../../../shared/model';
import { err, type Result } from '../../../shared/result';
import { auditReport } from '../audit/audit-methods';
import type { AuditRuns } from '../audit/audit-runs';
import { targetKey } from '../context/client-pool';
import { exportState } from '../export/export-confirm-app';
import type { ConnectionContext } from '../context/request-context';
import { transactionContext } from '../transactions/service';
import type { RepairService } from './repair-service';

/** What `repair.plan` asks for, after validation. */
export interface RepairPlanArgs {
  readonly table: string;
  readonly runId: string;
  readonly kinds?: readonly ProblemKind[] | undefined;
  readonly ids?: readonly string[] | undefined;
}

/** Plans the repair of a complete run's selected problems, on the request's connection. */
export async function planRepair(
  ctx: ConnectionContext,
  stores: { readonly repairs: RepairService; readonly runs: AuditRuns },
  args: RepairPlanArgs,
): Promise<Result<RepairPlanView>> {
  const report = await auditReport(stores.runs, { runId: args.runId });
  if (!report.ok) return report;
  // A run of another connection (or of this one pointed elsewhere) found another database's problems.
  if (stores.runs.get(args.runId)?.target !== targetKey(ctx.connectionId, ctx.target))
    return err('validation', `audit run ${args.runId} was not made on this connection as it points now: audit again here`, {
      field: 'runId',
    });
  if (report.value.table !== args.table)
    return err('validation', `audit run ${args.runId} is of table ${report.value.table}, not ${args.table}`, { field: 'runId' });
  if (!report.value.complete)
    return err(
      'validation',
      `the audit did not finish (${report.value.reason ?? 'incomplete'}): no repair plan from a partial scan — audit again`,
      { field: 'runId' },
    );
  // An export is not transactionally consistent: only findings confirmed against the live table may be acted on.
  if (exportState(report.value) === 'unconfirmed')
    return err(
      'validation',
      `audit run ${args.runId} read an export and its findings are not confirmed: confirm them against the live table first`,
      { field: 'runId' },
    );
  return stores.repairs.plan(transactionContext(ctx), {
    owner: ctx.connectionId,
    table: args.table,
    convention: report.value.convention,
    problems: report.value.problems,
    warnings: report.value.warnings,
    selection: { ...(args.kinds ? { kinds: args.kinds } : {}), ...(args.ids ? { ids: args.ids } : {}) },
  });
}

/**
 * Starts the execution (refused on a read-only connection) and returns its first status. Audits that
 * started before the repair, or before it ended, are no longer lent to lookups (its writes may be missing there).
 */
export async function executeRepair(
  ctx: ConnectionContext,
  stores: { readonly repairs: RepairService; readonly runs: AuditRuns },
  args: { readonly planId: string; readonly confirmation: string },
): Promise<Result<RepairStatusView>> {
  // Every send of the plan retires the audits that started before it (the send path tells `onWrite`).
  const onWrite = (): void => stores.runs.indexes.noteWrite(targetKey(ctx.connectionId, ctx.target));
  const started = stores.repairs.start(transactionContext(ctx, { onWrite }), {
    owner: ctx.connectionId,
    planId: args.planId,
    confirmation: args.confirmation,
  });
  return started.ok ? { ok: true, value: started.value.status } : started;
}

/** Stops a running repair before its next transaction. */
export async function stopRepair(
  repairs: RepairService,
  args: { readonly connectionId: string; readonly planId: string },
): Promise<Result<RepairStatusView>> {
  return repairs.stop(args.connectionId, args.planId);
}

/** Progress and per-fix outcome of a repair. */
export async function repairStatus(
  repairs: RepairService,
  args: { readonly connectionId: string; readonly planId: string },
): Promise<Result<RepairStatusView>> {
  return repairs.status(args.connectionId, args.planId);
}
