/** Types of the audit engine's output: groups (what the inspector shows) and the report (what the CLI prints). */
import type { Convention, PlainKey, Problem, ProblemKind, ProblemSummary } from '../model';
import type { ConventionWarning } from './fit';

/** Status of one expected lock of an account. */
export type LockStatus =
  /** The lock exists and (when there is an owner attribute) names this account. */
  | 'ok'
  /** No lock protects this value: missing-lock. */
  | 'missing'
  /** Another account holds the same normalized value: duplicate-value. */
  | 'duplicate'
  /** The lock names another account: owner-mismatch. */
  | 'owner-mismatch';

/** One rule of an account: its value, the lock that protects it (if any) and the status. */
export interface GroupLock {
  readonly rule: string;
  /** The value as stored on the account. */
  readonly value: string;
  /** The value after the rule's normalization; joins use this. */
  readonly normalized: string;
  /** For a scoped rule: the scope the value is unique within (account attribute → value). */
  readonly scope?: Readonly<Record<string, string>>;
  /** Key of the lock item found for this value, if any. */
  readonly lock?: PlainKey;
  /** Owner named on the lock, when the convention has an owner attribute. */
  readonly owner?: string;
  readonly status: LockStatus;
  /** Other accounts holding the same normalized value (duplicate-value). */
  readonly otherHolders?: readonly PlainKey[];
}

/** An account with its expected and actual locks. */
export interface AccountGroup {
  readonly kind: 'account';
  /** Stable id: the account key serialized canonically. */
  readonly id: string;
  readonly key: PlainKey;
  readonly locks: readonly GroupLock[];
  /** Problem kinds affecting this account (empty when healthy). */
  readonly problems: readonly ProblemKind[];
  /**
   * While the scan runs: a value's lock has not been read yet. Neither healthy nor missing its lock
   * until it settles (`problems` then leaves missing-lock out); the row comes again settled.
   */
  readonly checking?: true;
}

/** A lock that belongs to no account: an orphan, or a lock key that cannot be read. */
export interface StrayLockRow {
  readonly kind: 'orphan-lock' | 'malformed-lock';
  readonly id: string;
  readonly key: PlainKey;
  readonly rule?: string;
  readonly value: string;
  /** For a scoped rule: the scope written in the lock key (account attribute → value). */
  readonly scope?: Readonly<Record<string, string>>;
  readonly owner?: string;
  readonly reason?: string;
}

/** One row of the inspector: an account group or a stray lock. */
export type GroupRow = AccountGroup | StrayLockRow;

/** Batched change since the previous delta: rows added or changed, rows removed, fresh counts. */
export interface AuditDelta {
  readonly upserted: readonly GroupRow[];
  readonly removed: readonly string[];
  readonly counts: AuditCounts;
}

/** Running totals. */
export interface AuditCounts {
  readonly scanned: number;
  readonly accounts: number;
  /** Lock items, malformed ones included. */
  readonly locks: number;
  readonly summary: ProblemSummary;
  /**
   * While the scan runs: accounts with a value whose lock has not been read yet. Their missing locks
   * are not in `summary` until the scan has settled them.
   */
  readonly checking?: number;
}

/** The final (or partial) report; `--json` prints exactly this shape. */
export interface AuditReport extends AuditCounts {
  readonly table: string;
  /** False when any segment failed or the scan was cancelled; `reason` then says why. */
  readonly complete: boolean;
  readonly reason?: string;
  readonly convention: Convention;
  readonly problems: readonly Problem[];
  /**
   * Rules the table contradicts (see fit.ts): while one stands the audit is not clean and repairs
   * leave that rule to a person.
   */
  readonly warnings: readonly ConventionWarning[];
}
