/**
 * Deriving problems and inspector rows from the join entries, exactly as DESIGN.md
 * "Problem kinds" defines them. Pure functions of one entry (problems) or one account (rows).
 */
import type { Convention, Problem } from '../model';
import { scopeRecord } from '../conventions/scope';
import { accountProblemKinds, lockStatus, ownerMismatchReason } from './problem-rules';
import type { AccountGroup, GroupLock, StrayLockRow } from './types';
import {
  byId,
  compareText,
  holderCount,
  holdersOf,
  idOf,
  keyOfState,
  lockCount,
  locksOf,
  rawValue,
  singleLock,
  type AccountState,
  type Entry,
  type LockState,
  type MalformedState,
} from './state';

const NONE: readonly Problem[] = [];

/** The hash key as text: what an owner attribute names. */
export const hashText = (state: AccountState): string => String(state.hash);

/** The problems of one (rule, value) entry. */
export function entryProblems(convention: Convention, entry: Entry): readonly Problem[] {
  const holderTotal = holderCount(entry);
  const lockTotal = lockCount(entry);
  if (holderTotal === 0 && lockTotal === 0) return NONE;
  if (holderTotal === 1 && lockTotal === 1 && convention.ownerAttribute === undefined) return NONE;
  const holders = holdersOf(entry);
  const locks = locksOf(entry);
  const keys = convention.keys;
  const lockRule = convention.rules[entry.ruleIndex];
  const rule = lockRule?.name ?? '';
  const value = entry.value;
  const scope = lockRule ? scopeRecord(lockRule, entry.scope) : undefined;
  const at = scope ? { rule, value, scope } : { rule, value };
  if (holders.length === 0) {
    // Each lock nobody holds is an orphan (canonical and legacy forms can both be left behind).
    return byId(locks, keys).map((lock) => ({ kind: 'orphan-lock', ...at, lock: keyOfState(lock, keys) }));
  }
  const out: Problem[] = [];
  const sorted = byId(holders, keys);
  const accounts = sorted.map((h) => keyOfState(h, keys));
  if (locks.length === 0) out.push({ kind: 'missing-lock', ...at, accounts });
  if (holders.length >= 2) out.push({ kind: 'duplicate-value', ...at, accounts });
  if (convention.ownerAttribute !== undefined) {
    for (const lock of byId(locks, keys)) {
      const owner = lock.owner;
      if (owner === undefined || holders.some((h) => hashText(h) === owner)) continue;
      out.push({
        kind: 'owner-mismatch',
        ...at,
        lock: keyOfState(lock, keys),
        accounts,
        reason: ownerMismatchReason(owner, sorted.map(hashText)),
      });
    }
  }
  return out.length === 0 ? NONE : out;
}

/** The problem of a malformed lock key. */
export function malformedProblem(convention: Convention, state: MalformedState): Problem {
  const lock = keyOfState(state, convention.keys);
  const base: Problem = { kind: 'malformed-lock', value: state.text, lock, reason: state.reason };
  return state.rule === undefined ? base : { ...base, rule: state.rule };
}

/** Whether a lock names someone other than this holder while the convention stores owners. */
function ownerMismatch(convention: Convention, entry: Entry, lock: LockState | undefined): boolean {
  if (convention.ownerAttribute === undefined || lock?.owner === undefined) return false;
  const owner = lock.owner;
  return !holdersOf(entry).some((h) => hashText(h) === owner);
}

/** Picks the lock shown for an account: one naming it as owner, else the lowest id (deterministic). */
function pickLock(convention: Convention, entry: Entry, account: AccountState): LockState | undefined {
  const only = entry.locks;
  // The common case needs no comparison (and no list).
  if (!Array.isArray(only)) return singleLock(entry);
  let best: LockState | undefined;
  const keys = convention.keys;
  for (const lock of only) {
    if (lock.owner !== undefined && lock.owner === hashText(account)) return lock;
    if (!best || compareText(idOf(lock, keys), idOf(best, keys)) < 0) best = lock;
  }
  return best;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The inspector row of one account: each held value with its lock and status (one object per lock: rows are built for every account of a streaming audit).
 * `entryOf` gives the join entry of the account's value under a rule (a compact-mode value held as a string gets a transient one).
 */
export function accountRow(
  convention: Convention,
  account: AccountState,
  entryOf: (account: AccountState, ruleIndex: number) => Entry | undefined,
): AccountGroup {
  const keys = convention.keys;
  let missing = false;
  let duplicate = false;
  let mismatch = false;
  const locks: GroupLock[] = [];
  for (let i = 0; i < account.entries.length; i++) {
    const entry = entryOf(account, i);
    if (entry === undefined) continue;
    const lock = pickLock(convention, entry, account);
    const lockMissing = lockCount(entry) === 0;
    const duplicated = holderCount(entry) >= 2;
    const namesOther = ownerMismatch(convention, entry, lock);
    missing ||= lockMissing;
    duplicate ||= duplicated;
    mismatch ||= namesOther;
    const lockRule = convention.rules[entry.ruleIndex];
    const row: Writable<GroupLock> = {
      rule: lockRule?.name ?? '',
      value: rawValue(account, i),
      normalized: entry.value,
      status: lockStatus(lockMissing, duplicated, namesOther),
    };
    if (entry.scope !== undefined && lockRule) row.scope = scopeRecord(lockRule, entry.scope);
    if (duplicated)
      row.otherHolders = byId(
        holdersOf(entry).filter((h) => h !== account),
        keys,
      ).map((h) => keyOfState(h, keys));
    if (lock) row.lock = keyOfState(lock, keys);
    if (lock?.owner !== undefined) row.owner = lock.owner;
    locks.push(row);
  }
  return {
    kind: 'account',
    id: idOf(account, keys),
    key: keyOfState(account, keys),
    locks,
    problems: accountProblemKinds(missing, duplicate, mismatch),
  };
}

/** The row of an orphan lock (its value as written in the key). */
export function orphanRow(convention: Convention, lock: LockState): StrayLockRow {
  const keys = convention.keys;
  const rule = convention.rules[lock.ruleIndex];
  const scope = rule ? scopeRecord(rule, lock.entry.scope) : undefined;
  const base: StrayLockRow = {
    kind: 'orphan-lock',
    id: idOf(lock, keys),
    key: keyOfState(lock, keys),
    rule: rule?.name ?? '',
    value: lock.raw,
    ...(scope ? { scope } : {}),
  };
  return lock.owner === undefined ? base : { ...base, owner: lock.owner };
}

/** The row of a malformed lock (its raw hash key text and the reason). */
export function malformedRow(convention: Convention, state: MalformedState): StrayLockRow {
  const keys = convention.keys;
  const base: StrayLockRow = {
    kind: 'malformed-lock',
    id: idOf(state, keys),
    key: keyOfState(state, keys),
    value: state.text,
    reason: state.reason,
  };
  return state.rule === undefined ? base : { ...base, rule: state.rule };
}
