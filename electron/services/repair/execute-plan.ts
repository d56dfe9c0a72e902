/**
 * Executes a stored plan transaction by transaction: a stop request is honoured between two
 * transactions; releases are looked for again (one consistent scan per transaction) and a held
 * value refuses its whole transaction before sending; each request goes out exactly as planned,
 * retried with its own token; a cancellation's reasons are mapped to the fixes by position; what
 * was written is re-read; every transaction gets its activity-log line. An error whose outcome is
 * unknown stops the plan: nothing more is sent on a guess.
 */
import type { RepairFixOutcome, RepairReasonView, RepairStatusView, RepairTransactionOutcome } from '../../../shared/contract/repair-views';
import type { Convention, PlainKey } from '../../../shared/model';
import { formatKey } from '../../../shared/plain-key';
import type { Outcome } from '../../../shared/transactions/types';
import { toAppError } from '../dynamo/errors';
import type { ActivityEntry } from '../transactions/activity-log';
import { logWrite, sendLogged, type LogLine } from '../transactions/send-path';
import type { TransactionContext } from '../transactions/service';
import { errorContextOf } from '../transactions/transaction-context';
import { verifyExecuted } from '../transactions/verify-writes';
import { holdersOf, type BuiltPlan, type PlannedTransaction } from './make-plan';

/** The live state of one execution, read by `status` while it runs. */
export interface Execution {
  stopRequested: boolean;
  phase: RepairStatusView['phase'];
  readonly transactions: RepairTransactionOutcome[];
  readonly fixes: RepairFixOutcome[];
  finished: number;
  message?: string;
}

/** What one execution needs. */
export interface ExecuteInput {
  readonly planId: string;
  readonly table: string;
  readonly convention: Convention;
  readonly plan: BuiltPlan;
  readonly dataDir?: string;
  readonly clock: () => number;
  /** Called after every change of the execution (the CLI prints progress from it). */
  readonly onProgress?: (execution: Execution) => void;
}

/** A fresh execution: every transaction pending. */
export function newExecution(plan: BuiltPlan): Execution {
  return {
    stopRequested: false,
    phase: 'running',
    transactions: plan.transactions.map((t) => ({ index: t.view.index, state: 'pending' })),
    fixes: plan.fixes.map((f) => ({ fix: f.index, state: 'pending', message: 'not sent yet' })),
    finished: 0,
  };
}

function settle(execution: Execution, t: PlannedTransaction, outcome: RepairTransactionOutcome, fixMessage: (fix: number) => string): void {
  execution.transactions[t.view.index] = outcome;
  for (const fix of t.view.fixes) execution.fixes[fix] = { fix, state: outcome.state, message: fixMessage(fix) };
}

/** The activity-log line of one plan transaction. */
function lineOf(input: ExecuteInput, t: PlannedTransaction): LogLine {
  const total = input.plan.transactions.length;
  return {
    table: input.table,
    previewId: `${input.planId}-${t.view.index + 1}`,
    kind: 'repair',
    summary: `Repair transaction ${t.view.index + 1} of ${total}: ${t.view.fixes.map((f) => input.plan.fixes[f]?.summary ?? '').join('; ')}`,
    request: t.view.input,
  };
}

/** What came of one transaction: whether the plan must stop, and why its log line could not be written (if so). */
interface RanOne {
  readonly unknown: boolean;
  readonly unlogged?: string | undefined;
}

/** Sends one transaction (after its fresh release check) through the send path; a refusal is logged as well. */
async function runOne(ctx: TransactionContext, input: ExecuteInput, execution: Execution, t: PlannedTransaction): Promise<RanOne> {
  const errorContext = errorContextOf(ctx, input.table);
  const line = lineOf(input, t);
  const refused = async (outcome: ActivityEntry['outcome']): Promise<RanOne> => ({
    unknown: false,
    unlogged: await logWrite(ctx, line, outcome, input.dataDir, input.clock()),
  });
  const summaries = (fix: number): string => input.plan.fixes[fix]?.summary ?? `fix ${fix + 1}`;
  let held: { fix: number; names: string; keys: readonly PlainKey[] }[];
  try {
    const holders = await holdersOf(
      ctx,
      input,
      t.releases.map((r) => r.spec),
    );
    held = t.releases.flatMap((r, i) =>
      holders[i]?.length
        ? [{ fix: r.fix, keys: holders[i], names: holders[i].map((h) => formatKey(h, input.convention.keys)).join(', ') }]
        : [],
    );
  } catch (error) {
    const e = toAppError(error, errorContext);
    settle(
      execution,
      t,
      { index: t.view.index, state: 'error', message: `the fresh read before sending failed: ${e.message}. Nothing was sent.` },
      () => 'not sent: the fresh read before sending failed',
    );
    return refused({ status: 'error', error: e });
  }
  if (held.length > 0) {
    const message = `refused before sending: ${held.map((h) => `${h.names} holds the value of "${summaries(h.fix)}"`).join('; ')}. Nothing in this transaction was sent.`;
    const byFix = new Map(held.map((h) => [h.fix, h.names]));
    settle(execution, t, { index: t.view.index, state: 'refused', message }, (fix) =>
      byFix.has(fix) ? `refused: ${byFix.get(fix)} holds this value right now` : 'not sent: its transaction was refused for another fix',
    );
    return refused({ status: 'refused', message, holders: held.flatMap((h) => h.keys) });
  }
  const { sent, unlogged } = await sendLogged(
    ctx,
    {
      line,
      actions: t.actions,
      ...(input.convention.ownerAttribute !== undefined ? { ownerAttribute: input.convention.ownerAttribute } : {}),
      ...(input.dataDir ? { dataDir: input.dataDir } : {}),
    },
    input.clock,
  );
  if (!sent.ok) {
    // The plan stops either way; only a send that may have reached DynamoDB is said to be possibly applied.
    if (sent.error.outcome === 'unknown') {
      settle(
        execution,
        t,
        { index: t.view.index, state: 'outcome-unknown', message: `${sent.error.message}; the plan stopped here` },
        () => 'unknown: its transaction may have been applied (look the value up)',
      );
      return { unknown: true, unlogged };
    }
    settle(
      execution,
      t,
      {
        index: t.view.index,
        state: 'error',
        message: `${sent.error.message} — nothing in this transaction was written; the plan stopped here`,
      },
      () => 'not applied: its transaction failed to send',
    );
    return { unknown: true, unlogged };
  }
  const outcome: Outcome = sent.value;
  if (outcome.status === 'succeeded') {
    const check = await verifyExecuted(ctx.client, { input: t.view.input, actions: t.actions });
    const differences = [...check.differences, ...check.unchecked.map((u) => `not checked: ${u}`)];
    settle(
      execution,
      t,
      {
        index: t.view.index,
        state: 'succeeded',
        message: outcome.message,
        verified: check.verified,
        ...(check.verified ? {} : { differences }),
      },
      () => (check.verified ? 'applied and verified' : 'applied, NOT verified (see the transaction)'),
    );
    return { unknown: false, unlogged };
  }
  const reasons: RepairReasonView[] = outcome.reasons
    .filter((r) => r.code !== 'None')
    .map((r) => ({ index: r.index, fix: t.view.actions[r.index]?.fix ?? -1, code: r.code, message: r.message }));
  const failed = new Map<number, string>();
  for (const r of reasons) failed.set(r.fix, [failed.get(r.fix), r.message].filter(Boolean).join('; '));
  const culprits = [...failed.keys()].map((f) => f + 1).join(', ');
  settle(
    execution,
    t,
    { index: t.view.index, state: 'cancelled', message: `cancelled by DynamoDB, nothing in it was written: ${outcome.message}`, reasons },
    (fix) =>
      failed.has(fix) ? `cancelled: ${failed.get(fix)}` : `not applied: fix ${culprits} of the same transaction failed its condition`,
  );
  return { unknown: false, unlogged };
}

/** Runs every transaction of the plan in order, updating `execution` as it goes. */
export async function executePlan(ctx: TransactionContext, input: ExecuteInput, execution: Execution): Promise<void> {
  const total = input.plan.transactions.length;
  for (const t of input.plan.transactions) {
    if (execution.stopRequested || execution.phase === 'failed') {
      settle(
        execution,
        t,
        {
          index: t.view.index,
          state: 'not-sent',
          message: execution.stopRequested ? 'stopped on request before this transaction' : 'not sent: the plan stopped after an error',
        },
        () => (execution.stopRequested ? 'not sent: stopped on request' : 'not sent: the plan stopped after an error'),
      );
      continue;
    }
    execution.transactions[t.view.index] = { index: t.view.index, state: 'sending' };
    input.onProgress?.(execution);
    const { unknown, unlogged } = await runOne(ctx, input, execution, t);
    execution.finished += 1;
    if (unlogged) {
      const current = execution.transactions[t.view.index]!;
      execution.transactions[t.view.index] = { ...current, message: `${current.message ?? ''} (${unlogged})` };
    }
    if (unknown) {
      execution.phase = 'failed';
      execution.message = `transaction ${t.view.index + 1} failed to send; nothing after it was sent`;
    }
    input.onProgress?.(execution);
  }
  if (execution.phase !== 'failed')
    execution.phase = execution.stopRequested && execution.transactions.some((t) => t.state === 'not-sent') ? 'stopped' : 'done';
  const applied = execution.transactions.filter((t) => t.state === 'succeeded').length;
  execution.message ??= `${applied} of ${total} transaction(s) applied${execution.phase === 'stopped' ? ', then stopped on request' : ''}`;
  input.onProgress?.(execution);
}
