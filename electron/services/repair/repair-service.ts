/**
 * The repair service of the app and the CLI: plan from an audit's problems (fresh reads, packed
 * transactions), keep the plan under an id (single use, expiring, bound to the connection it was
 * made for), execute it after the action count is typed back (refused on a read-only connection),
 * stop between transactions on request, and report the state of an execution.
 */
import { randomUUID } from 'node:crypto';
import type { ConventionWarning } from '../../../shared/audit/fit';
import type { RepairPlanView, RepairStatusView } from '../../../shared/contract/repair-views';
import type { Convention, Problem } from '../../../shared/model';
import { err, ok, type Result } from '../../../shared/result';
import { selectProblems, type RepairSelection } from '../../../shared/repair/select';
import { toAppError } from '../dynamo/errors';
import { PREVIEW_TTL_MS } from '../transactions/preview-store';
import { movedConnection, readOnlyRefusal, type TransactionContext } from '../transactions/service';
import { executePlan, newExecution, type Execution } from './execute-plan';
import { makePlan, type BuiltPlan } from './make-plan';

/** What a plan is made from: the audit's problems (complete report only) and the selection. */
export interface PlanRequest {
  /** Who may execute it: the bridge's connection id, or the CLI's connection label. */
  readonly owner: string;
  readonly table: string;
  readonly convention: Convention;
  readonly problems: readonly Problem[];
  /** The audit's convention warnings: a warned rule's problems are left to a person (see planRepairs). */
  readonly warnings?: readonly ConventionWarning[];
  readonly selection?: RepairSelection;
  readonly signal?: AbortSignal;
}

/** Executing a plan: its id, the owner, and the action count typed back. */
export interface ExecuteRequest {
  readonly owner: string;
  readonly planId: string;
  readonly confirmation: string;
  readonly onProgress?: (status: RepairStatusView) => void;
}

interface Kept {
  readonly view: RepairPlanView;
  readonly owner: string;
  /** Where the plan's reads went and its copy-as commands point: execute refuses another place. */
  readonly where: TransactionContext['connection'];
  readonly convention: Convention;
  readonly built: BuiltPlan;
  readonly expiresAtMs: number;
  execution?: Execution;
  done?: Promise<RepairStatusView>;
}

/** Options: a data folder for the activity log, a clock and the plan lifetime (tests move time). */
export interface RepairServiceOptions {
  readonly dataDir?: string;
  readonly clock?: () => number;
  readonly ttlMs?: number;
}

/** Executions kept for `status` after they finish (oldest dropped first). */
const MAX_FINISHED = 20;

/** The repair service (one per process; plans live in memory). */
export class RepairService {
  private readonly plans = new Map<string, Kept>();
  private readonly clock: () => number;
  private readonly ttlMs: number;

  constructor(private readonly options: RepairServiceOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.ttlMs = options.ttlMs ?? PREVIEW_TTL_MS;
  }

  /** Plans the repair of the selected problems and keeps the plan for execute. */
  async plan(ctx: TransactionContext, request: PlanRequest): Promise<Result<RepairPlanView>> {
    const selected = selectProblems(request.problems, request.selection ?? {});
    let built: Result<BuiltPlan>;
    try {
      built = await makePlan(ctx, {
        table: request.table,
        convention: request.convention,
        problems: selected.problems,
        ...(request.warnings ? { warnings: request.warnings } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      return {
        ok: false,
        error: toAppError(error, {
          table: request.table,
          endpoint: ctx.connection.endpoint,
          profile: ctx.connection.profile,
          secrets: ctx.secrets,
        }),
      };
    }
    if (!built.ok) return built;
    this.prune();
    const planId = `rp_${randomUUID().replace(/-/g, '')}`;
    const expiresAtMs = this.clock() + this.ttlMs;
    const b = built.value;
    const view: RepairPlanView = {
      planId,
      table: request.table,
      connection: ctx.connection.label,
      expiresAt: new Date(expiresAtMs).toISOString(),
      fixes: b.fixes,
      transactions: b.transactions.map((t) => t.view),
      manual: b.manual,
      resolved: b.resolved,
      unknownIds: selected.unknownIds,
      actionCount: b.actionCount,
      confirmText: String(b.actionCount),
      executable: ctx.writable && b.actionCount > 0,
      ...(ctx.writable ? {} : { readOnlyReason: `${ctx.connection.label} is read-only: allow writes for this connection to execute` }),
    };
    this.plans.set(planId, { view, owner: request.owner, where: ctx.connection, convention: request.convention, built: b, expiresAtMs });
    return ok(view);
  }

  /** Starts executing a plan; `done` settles when every transaction was sent, refused or stopped. */
  start(ctx: TransactionContext, request: ExecuteRequest): Result<{ status: RepairStatusView; done: Promise<RepairStatusView> }> {
    const kept = this.plans.get(request.planId);
    if (!kept || (!kept.execution && this.clock() >= kept.expiresAtMs)) {
      if (kept) this.plans.delete(request.planId);
      return err('not-found', `no repair plan ${request.planId} (unknown or expired: plans last 10 minutes): plan again`, {
        field: 'planId',
      });
    }
    if (kept.owner !== request.owner)
      return err('validation', `plan ${request.planId} was made for another connection: plan again on this one`, { field: 'planId' });
    if (kept.execution)
      return err('conflict', `plan ${request.planId} was already executed (a plan is used once): plan again`, { field: 'planId' });
    const moved = movedConnection(kept.where, ctx.connection);
    if (moved)
      return err('validation', `plan ${request.planId} cannot be executed: ${moved}. Nothing was sent: plan again`, { field: 'planId' });
    const readOnly = readOnlyRefusal(ctx);
    if (readOnly) return { ok: false, error: readOnly };
    if (kept.view.actionCount === 0) return err('validation', 'the plan has nothing to execute', { field: 'planId' });
    if (request.confirmation !== kept.view.confirmText)
      return err(
        'validation',
        `the confirmation does not match: type ${kept.view.confirmText} (the number of actions) to execute the plan`,
        { field: 'confirmation' },
      );
    // Set synchronously after the checks: a second execute arriving meanwhile is refused above.
    const execution = newExecution(kept.built);
    kept.execution = execution;
    const report = (): RepairStatusView => statusOf(request.planId, execution);
    const onProgress = request.onProgress;
    kept.done = executePlan(
      ctx,
      {
        planId: request.planId,
        table: kept.view.table,
        convention: kept.convention,
        plan: kept.built,
        clock: this.clock,
        ...(this.options.dataDir ? { dataDir: this.options.dataDir } : {}),
        ...(onProgress ? { onProgress: () => onProgress(report()) } : {}),
      },
      execution,
    )
      .catch((error: unknown) => {
        execution.phase = 'failed';
        execution.message = `the repair stopped unexpectedly: ${toAppError(error, { secrets: ctx.secrets }).message}`;
      })
      .then(report);
    return ok({ status: report(), done: kept.done });
  }

  /** Asks a running execution to stop before its next transaction. */
  stop(owner: string, planId: string): Result<RepairStatusView> {
    const kept = this.plans.get(planId);
    if (!kept?.execution || kept.owner !== owner) return err('not-found', `no running repair ${planId}`, { field: 'planId' });
    if (kept.execution.phase === 'running') {
      kept.execution.stopRequested = true;
      kept.execution.phase = 'stopping';
    }
    return ok(statusOf(planId, kept.execution));
  }

  /** The state of an execution now. */
  status(owner: string, planId: string): Result<RepairStatusView> {
    const kept = this.plans.get(planId);
    if (!kept?.execution || kept.owner !== owner) return err('not-found', `no repair ${planId} has been executed`, { field: 'planId' });
    return ok(statusOf(planId, kept.execution));
  }

  private prune(): void {
    const now = this.clock();
    const finished: string[] = [];
    for (const [id, kept] of this.plans) {
      if (!kept.execution && now >= kept.expiresAtMs) this.plans.delete(id);
      else if (kept.execution && kept.execution.phase !== 'running' && kept.execution.phase !== 'stopping') finished.push(id);
    }
    for (const id of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED))) this.plans.delete(id);
  }
}

function statusOf(planId: string, e: Execution): RepairStatusView {
  return {
    planId,
    phase: e.phase,
    transactions: [...e.transactions],
    fixes: [...e.fixes],
    finished: e.finished,
    ...(e.message ? { message: e.message } : {}),
  };
}
