/**
 * The problem rules in one home (DESIGN.md "Problem kinds"): what a lookup's holder and lock
 * counts mean (its verdict), what a verdict means for a holder's lock (its status), which problem
 * kind a lock status is, an account row's problem kinds, the report order, and the report entries
 * of the inspector's rows. The audit's row derivation, the lookup service and the inspector (its
 * re-check after a write, its exports) all read these, so they cannot drift apart.
 */
import type { LookupVerdict } from '../domain';
import { PROBLEM_KINDS, type KeySchema, type PlainKey, type Problem, type ProblemKind, type ProblemSummary } from '../model';
import { keyId } from '../plain-key';
import { compareText } from './state';
import type { AccountGroup, GroupLock, GroupRow, LockStatus } from './types';

/** A lookup's verdict from the number of accounts holding the value and the number of its locks found. */
export function verdictFor(holders: number, locksFound: number): LookupVerdict {
  if (holders > 1) return 'duplicate';
  if (holders === 1) return locksFound > 0 ? 'held' : 'unprotected';
  return locksFound > 0 ? 'orphan' : 'free';
}

// The status a verdict implies for a holder's lock; undefined: the verdict has no holder to speak of.
const VERDICT_STATUS: Readonly<Record<LookupVerdict, LockStatus | undefined>> = {
  held: 'ok',
  unprotected: 'missing',
  duplicate: 'duplicate',
  free: undefined,
  orphan: undefined,
};

/** The lock status a fresh lookup implies for the value's holder; undefined when the verdict cannot tell. */
export function statusOfVerdict(verdict: LookupVerdict): LockStatus | undefined {
  return VERDICT_STATUS[verdict];
}

/** Whether an orphan-lock row of the value is still an orphan after a lookup with this verdict. */
export function orphanRemains(verdict: LookupVerdict): boolean {
  return verdict === 'orphan';
}

/**
 * The status of one held value from what the join found: a duplicate outranks a missing lock,
 * which outranks an owner mismatch (the row shows the worst; the problem kinds keep all three).
 */
export function lockStatus(missing: boolean, duplicate: boolean, ownerMismatch: boolean): LockStatus {
  if (duplicate) return 'duplicate';
  if (missing) return 'missing';
  return ownerMismatch ? 'owner-mismatch' : 'ok';
}

const STATUS_PROBLEM: Readonly<Record<LockStatus, ProblemKind | undefined>> = {
  ok: undefined,
  missing: 'missing-lock',
  duplicate: 'duplicate-value',
  'owner-mismatch': 'owner-mismatch',
};

/** The problem kind a lock status is (undefined for `ok`). */
export function problemOfStatus(status: LockStatus): ProblemKind | undefined {
  return STATUS_PROBLEM[status];
}

/** The problem kinds an account row can carry, in report order. */
export const ACCOUNT_PROBLEM_KINDS: readonly ProblemKind[] = PROBLEM_KINDS.filter(
  (k) => k === 'missing-lock' || k === 'duplicate-value' || k === 'owner-mismatch',
);

// One frozen list per combination: an account row is built for every account of a streaming audit.
const KIND_LISTS: readonly (readonly ProblemKind[])[] = Array.from({ length: 8 }, (_, bits) =>
  Object.freeze(ACCOUNT_PROBLEM_KINDS.filter((_k, i) => (bits & (1 << i)) !== 0)),
);

/** An account's problem kinds (report order) from whether any of its values misses a lock, is duplicated, or has a lock naming someone else. */
export function accountProblemKinds(missing: boolean, duplicate: boolean, ownerMismatch: boolean): readonly ProblemKind[] {
  return KIND_LISTS[(missing ? 1 : 0) | (duplicate ? 2 : 0) | (ownerMismatch ? 4 : 0)]!;
}

/** An account's problem kinds from its locks' statuses (each kind once, report order). */
export function problemsOfLocks(locks: readonly Pick<GroupLock, 'status'>[]): readonly ProblemKind[] {
  const has = (status: LockStatus) => locks.some((l) => l.status === status);
  return accountProblemKinds(has('missing'), has('duplicate'), has('owner-mismatch'));
}

/**
 * What one row adds to the per-kind summary: a stray row counts its kind; an account counts each
 * missing lock and owner mismatch, but not duplicate-value, which the audit counts once per value.
 */
export function rowSummaryKinds(row: GroupRow): ProblemKind[] {
  if (row.kind !== 'account') return [row.kind];
  const out: ProblemKind[] = [];
  for (const lock of row.locks) {
    const kind = problemOfStatus(lock.status);
    if (kind === 'missing-lock' || kind === 'owner-mismatch') out.push(kind);
  }
  return out;
}

/** A summary with every kind at zero. */
export function emptySummary(): ProblemSummary {
  return Object.fromEntries(PROBLEM_KINDS.map((k) => [k, 0])) as Record<ProblemKind, number>;
}

/** Why a lock naming `owner` is an owner-mismatch, given the hash keys of the accounts that hold the value. */
export function ownerMismatchReason(owner: string, heldBy: readonly string[]): string {
  return `the lock names ${owner}, which does not hold this value; held by ${heldBy.join(', ')}`;
}

const KIND_ORDER = Object.fromEntries(PROBLEM_KINDS.map((k, i) => [k, i])) as Readonly<Record<ProblemKind, number>>;
const scopeText = (p: Problem): string => (p.scope === undefined ? '' : JSON.stringify(p.scope));
const tieBreak = (p: Problem): string => JSON.stringify(p.lock ?? p.accounts?.[0] ?? null);

/** Report order: kind (PROBLEM_KINDS order), rule, value, scope, then the lock / first account key. */
export function compareProblems(a: Problem, b: Problem): number {
  return (
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
    compareText(a.rule ?? '', b.rule ?? '') ||
    compareText(a.value, b.value) ||
    compareText(scopeText(a), scopeText(b)) ||
    compareText(tieBreak(a), tieBreak(b))
  );
}

const hashOf = (key: PlainKey, keys: KeySchema): string => String(key[keys.hash.name] ?? '');

function strayProblem(row: Exclude<GroupRow, AccountGroup>): Problem {
  const base: Problem = {
    kind: row.kind,
    value: row.value,
    lock: row.key,
    ...(row.rule !== undefined ? { rule: row.rule } : {}),
    ...(row.scope !== undefined ? { scope: row.scope } : {}),
  };
  return row.reason !== undefined ? { ...base, reason: row.reason } : base;
}

// One (rule, value) of an account: its missing / duplicate / owner-mismatch problems. A value held by
// several accounts is reported once (by whichever holder comes first), with every holder.
function lockProblems(row: AccountGroup, lock: GroupLock, keys: KeySchema, seen: Set<string>): Problem[] {
  const { rule, normalized: value } = lock;
  // Scoped rules (uniqueness within an org…) carry the scope: one value in two scopes is two problems.
  const at = lock.scope !== undefined ? { rule, value, scope: lock.scope } : { rule, value };
  const duplicate = lock.status === 'duplicate';
  if (duplicate) {
    const id = JSON.stringify([rule, value, lock.scope ?? null]);
    if (seen.has(id)) return [];
    seen.add(id);
  }
  const holders = [row.key, ...(duplicate ? (lock.otherHolders ?? []) : [])].sort((a, b) => (keyId(a, keys) < keyId(b, keys) ? -1 : 1));
  const out: Problem[] = [];
  // A duplicate shows as the row's status, but nobody's lock may protect the value either.
  if (lock.status === 'missing' || (duplicate && lock.lock === undefined)) out.push({ kind: 'missing-lock', ...at, accounts: holders });
  if (duplicate) out.push({ kind: 'duplicate-value', ...at, accounts: holders });
  const owner = lock.owner;
  if (lock.lock !== undefined && owner !== undefined && !holders.some((h) => hashOf(h, keys) === owner)) {
    const reason = ownerMismatchReason(
      owner,
      holders.map((h) => hashOf(h, keys)),
    );
    out.push({ kind: 'owner-mismatch', ...at, lock: lock.lock, accounts: holders, reason });
  }
  return out;
}

/**
 * The problems of inspector rows as report entries, in report order: exports are made from the
 * rows on screen (after any write patched them), so an export never disagrees with the inspector.
 */
export function problemsOfRows(rows: readonly GroupRow[], keys: KeySchema): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const row of rows) {
    if (row.kind !== 'account') out.push(strayProblem(row));
    else for (const lock of row.locks) out.push(...lockProblems(row, lock, keys, seen));
  }
  return out.sort(compareProblems);
}
