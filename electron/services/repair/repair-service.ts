/**
 * The repair service of the app and the CLI: plan from an audit's problems (fresh reads, packed
 * transactions), keep the plan under an id (single use, expiring, bound to the connection it was
 * made for), execute it after the action count is typed back (the gate of every kept write:
 * write-gate.ts), stream its progress, stop between transactions on request, and report the state of an execution.
 */
import type { ConventionWarning } from '../../../shared/audit/fit';
import type { RepairPlanView, RepairStatusView } from '../../../shared/contract/repair-views';
import type { Convention, Problem } from '../../../shared/model';
import { err, ok, type Result } from '../../../shared/result';
import { selectProblems, type RepairSelection } from '../../../shared/repair/select';
import { toAppError } from '../dynamo/errors';
import { KeptWrites, PREVIEW_TTL_MS, type KeptTerms, type KeptWords } from '../transactions/kept-writes';
import type { TransactionContext } from '../transactions/service';
import { errorContextOf } from '../transactions/transaction-context';
import { claimKept } from '../transactions/write-gate';
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

/** How a repair plan is spoken of in refusals. */
export const PLAN_WORDS: KeptWords = { noun: 'repair plan', again: 'plan again', field: 'planId', prefix: 'rp_' };

/** A plan kept for execute: the terms of every kept write, and what its execution needs. */
interface KeptPlan extends KeptTerms {
  readonly view: RepairPlanView;
  readonly convention: Convention;
  readonly built: BuiltPlan;
}

/** A started execution, kept for `status` and `stop` after its plan is used up (and expired). */
interface Running {
  readonly owner: string;
  readonly execution: Execution;
}

/** Where repair progress goes (the bridge's stream hub, narrowed to what this needs). */
export interface RepairEvents {
  publish(stream: 'repair.events', event: RepairStatusView): void;
  setReplay(stream: 'repair.events', replay: (filter: Readonly<Record<string, unknown>>) => readonly RepairStatusView[]): void;
}

/** Options: a data folder for the activity log, where progress streams, a clock and the plan lifetime (tests move time). */
export interface RepairServiceOptions {
  readonly dataDir?: string;
  /** Every change of an execution is published there; a subscriber who comes late first gets the latest. */
  readonly events?: RepairEvents;
  readonly clock?: () => number;
  readonly ttlMs?: number;
}

/** Executions kept for `status` after they finish (oldest dropped first). */
const MAX_FINISHED = 20;

/** The repair service (one per process; plans live in memory). */
export class RepairService {
  private readonly plans: KeptWrites<KeptPlan>;
  private readonly executions = new Map<string, Running>();
  private readonly clock: () => number;

  constructor(private readonly options: RepairServiceOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.plans = new KeptWrites<KeptPlan>(PLAN_WORDS, this.clock, options.ttlMs ?? PREVIEW_TTL_MS);
    options.events?.setReplay('repair.events', (filter) => {
      const running = typeof filter.planId === 'string' ? this.executions.get(filter.planId) : undefined;
      return running ? [statusOf(filter.planId as string, running.execution)] : [];
    });
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
        error: toAppError(error, errorContextOf(ctx, request.table)),
      };
    }
    if (!built.ok) return built;
    const planId = this.plans.newId();
    const expiresAtMs = this.clock() + this.plans.ttlMs;
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
    this.plans.put({
      id: planId,
      owner: request.owner,
      where: ctx.connection,
      confirm: view.confirmText,
      confirmFor: 'execute the plan (the number of actions)',
      expiresAtMs,
      view,
      convention: request.convention,
      built: b,
    });
    return ok(view);
  }

  /** Starts executing a plan; `done` settles when every transaction was sent, refused or stopped. */
  start(ctx: TransactionContext, request: ExecuteRequest): Result<{ status: RepairStatusView; done: Promise<RepairStatusView> }> {
    const claimed = claimKept(this.plans, ctx, { id: request.planId, owner: request.owner, confirmation: request.confirmation }, (plan) =>
      plan.view.actionCount === 0 ? 'the plan has nothing to execute' : undefined,
    );
    if (!claimed.ok) return claimed;
    const kept = claimed.value;
    // Used up as it starts: its transactions go out from now on, and a plan is never sent twice.
    this.plans.release(kept.id, true);
    const execution = newExecution(kept.built);
    this.prune();
    this.executions.set(kept.id, { owner: request.owner, execution });
    const report = (): RepairStatusView => statusOf(request.planId, execution);
    const events = this.options.events;
    const told = request.onProgress;
    const onProgress =
      events || told
        ? (): void => {
            const status = report();
            events?.publish('repair.events', status);
            told?.(status);
          }
        : undefined;
    const done = executePlan(
      ctx,
      {
        planId: request.planId,
        table: kept.view.table,
        convention: kept.convention,
        plan: kept.built,
        clock: this.clock,
        ...(this.options.dataDir ? { dataDir: this.options.dataDir } : {}),
        ...(onProgress ? { onProgress } : {}),
      },
      execution,
    )
      .catch((error: unknown) => {
        execution.phase = 'failed';
        execution.message = `the repair stopped unexpectedly: ${toAppError(error, { secrets: ctx.secrets }).message}`;
        onProgress?.();
      })
      .then(report);
    return ok({ status: report(), done });
  }

  /** Asks a running execution to stop before its next transaction. */
  stop(owner: string, planId: string): Result<RepairStatusView> {
    const running = this.executions.get(planId);
    if (!running || running.owner !== owner) return err('not-found', `no running repair ${planId}`, { field: 'planId' });
    if (running.execution.phase === 'running') {
      running.execution.stopRequested = true;
      running.execution.phase = 'stopping';
      this.options.events?.publish('repair.events', statusOf(planId, running.execution));
    }
    return ok(statusOf(planId, running.execution));
  }

  /** The state of an execution now. */
  status(owner: string, planId: string): Result<RepairStatusView> {
    const running = this.executions.get(planId);
    if (!running || running.owner !== owner) return err('not-found', `no repair ${planId} has been executed`, { field: 'planId' });
    return ok(statusOf(planId, running.execution));
  }

  /** Drops the oldest finished executions beyond MAX_FINISHED (running ones stay). */
  private prune(): void {
    const finished = [...this.executions].filter(([, r]) => r.execution.phase !== 'running' && r.execution.phase !== 'stopping');
    for (const [id] of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED))) this.executions.delete(id);
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
