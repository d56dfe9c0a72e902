/**
 * What the repair service returns, in the app and the CLI alike: the batched plan (every
 * transaction's exact request), and the state of its execution, per transaction and per fix.
 */
import type { Problem } from '../model';
import type { ActionOperation, ClaimOperation, CopyAs, ReleaseOperation, TransactWriteInputJson } from '../transactions/types';

/** One action of a planned transaction, with the fix it belongs to. */
export interface RepairActionView {
  /** Position in its transaction (what a CancellationReason's index refers to). */
  readonly index: number;
  readonly type: ActionOperation;
  readonly keyText: string;
  readonly explanation: string;
  /** The fix (index in the plan's `fixes`) this action belongs to. */
  readonly fix: number;
}

/** One automatic fix: the problem, what will be done, and where. */
export interface RepairFixView {
  readonly index: number;
  readonly kind: 'claim' | 'release';
  readonly summary: string;
  readonly problem: Problem;
  /** What is asked of the builders (the same request a single claim or release preview takes). */
  readonly operation: ClaimOperation | ReleaseOperation;
  /** The transaction (index in `transactions`) it is sent in. */
  readonly transaction: number;
}

/** One TransactWriteItems request of the plan, exactly as it will be sent. */
export interface RepairTransactionView {
  readonly index: number;
  readonly clientRequestToken: string;
  readonly input: TransactWriteInputJson;
  readonly actions: readonly RepairActionView[];
  readonly fixes: readonly number[];
  readonly copyAs: CopyAs;
}

/** A problem the plan does not touch, with why (a human decides, or it is no longer a problem). */
export interface RepairLeftView {
  readonly problem: Problem;
  readonly why: string;
}

/** A plan kept by main under `planId` (single use, bound to its connection) until `expiresAt`. */
export interface RepairPlanView {
  readonly planId: string;
  readonly table: string;
  readonly connection: string;
  readonly expiresAt: string;
  readonly fixes: readonly RepairFixView[];
  readonly transactions: readonly RepairTransactionView[];
  /** Left for you: duplicates and anything needing a human judgement. Never guessed. */
  readonly manual: readonly RepairLeftView[];
  /** Problems that fresh reads found already gone (nothing to do). */
  readonly resolved: readonly RepairLeftView[];
  /** Selected problem ids the audit's report does not hold (the rows changed since: audit again). */
  readonly unknownIds: number;
  readonly actionCount: number;
  /** What to type back to execute: the number of actions. */
  readonly confirmText: string;
  readonly executable: boolean;
  readonly readOnlyReason?: string;
}

/** How one transaction of a plan ended (or that it has not been sent). */
/** `error`: failed, nothing written; `outcome-unknown`: failed after it may have reached DynamoDB (it may have been applied). */
export type RepairTransactionState =
  'pending' | 'sending' | 'succeeded' | 'cancelled' | 'refused' | 'error' | 'outcome-unknown' | 'not-sent';

/** One failed action of a cancelled transaction, mapped from its CancellationReason. */
export interface RepairReasonView {
  readonly index: number;
  readonly fix: number;
  readonly code: string;
  readonly message: string;
}

/** The outcome of one transaction. */
export interface RepairTransactionOutcome {
  readonly index: number;
  readonly state: RepairTransactionState;
  readonly message?: string;
  /** After success: true when consistent re-reads found every written item as written. */
  readonly verified?: boolean;
  readonly differences?: readonly string[];
  readonly reasons?: readonly RepairReasonView[];
}

/** The outcome of one fix (all the actions of a fix share their transaction's fate). */
export interface RepairFixOutcome {
  readonly fix: number;
  readonly state: RepairTransactionState;
  readonly message: string;
}

/** Where an execution is: running (stoppable between transactions), or finished and how. */
export interface RepairStatusView {
  readonly planId: string;
  readonly phase: 'running' | 'stopping' | 'stopped' | 'done' | 'failed';
  readonly transactions: readonly RepairTransactionOutcome[];
  readonly fixes: readonly RepairFixOutcome[];
  /** Transactions finished (sent or refused) so far. */
  readonly finished: number;
  readonly message?: string;
}
