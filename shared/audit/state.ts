/**
 * The audit engine's internal state, kept deliberately lean: the engine runs inside a scan of
 * up to a million items and every retained object costs GC time. States hold the key values
 * the SDK already allocated (no key objects, no id strings until someone asks) and link to one
 * join entry per (rule, normalized value).
 */
import type { KeySchema, PlainKey, PlainValue, Problem } from '../model';

/** Key values and the lazily computed row id shared by account and lock states. */
interface Keyed {
  readonly hash: PlainValue;
  readonly range: PlainValue | undefined;
  /** Canonical key id (see plain-key.ts keyId), computed on first use. */
  id?: string;
}

/** An account item as the engine remembers it. */
export interface AccountState extends Keyed {
  readonly kind: 'account';
  /** The join entry of each value the account holds, in rule order (the entry knows its rule). */
  readonly entries: readonly Entry[];
  /**
   * The values as stored, aligned with `entries`, only when one differs from its normalized form
   * (mixed case, spaces): usually they are the same string and a second array would be waste.
   */
  readonly raws: readonly string[] | undefined;
}

/** A readable lock item as the engine remembers it. */
export interface LockState extends Keyed {
  readonly kind: 'lock';
  readonly ruleIndex: number;
  /** The value as written in the key. */
  readonly raw: string;
  readonly owner: string | undefined;
  readonly entry: Entry;
  /** True while the lock is shown as an orphan row (no account holds its value). */
  stray: boolean;
}

/** A lock key that cannot be read. */
export interface MalformedState extends Keyed {
  readonly kind: 'malformed';
  readonly reason: string;
  readonly rule: string | undefined;
  readonly text: string;
}

/** Anything that can become a row. */
export type RowState = AccountState | LockState | MalformedState;

/**
 * The join point of one (rule, normalized value): who holds it, which locks protect it. Nearly
 * every value has exactly one holder and one lock, so a single participant is stored bare and an
 * array appears only from the second one: two arrays per value would cost ~50 bytes per entry.
 * Read them through holdersOf/locksOf and the counts.
 */
export interface Entry {
  readonly ruleIndex: number;
  readonly value: string;
  holders: AccountState | AccountState[] | undefined;
  locks: LockState | LockState[] | undefined;
  /** Problems computed at the last flush (subtracted from the summary before recomputing). */
  problems: readonly Problem[];
  /** Queued for recomputation (avoids a Set insert per touched entry). */
  dirty: boolean;
}

/** The value account `state` stores for its `i`-th entry. */
export function rawValue(state: AccountState, i: number): string {
  return state.raws?.[i] ?? state.entries[i]?.value ?? '';
}

const NO_ACCOUNTS: readonly AccountState[] = [];
const NO_LOCKS: readonly LockState[] = [];

/** The accounts holding an entry's value (a fresh one-element list for a single holder). */
export function holdersOf(entry: Entry): readonly AccountState[] {
  const h = entry.holders;
  return h === undefined ? NO_ACCOUNTS : Array.isArray(h) ? h : [h];
}

/** The locks protecting an entry's value. */
export function locksOf(entry: Entry): readonly LockState[] {
  const l = entry.locks;
  return l === undefined ? NO_LOCKS : Array.isArray(l) ? l : [l];
}

/** How many accounts hold an entry's value. */
export function holderCount(entry: Entry): number {
  const h = entry.holders;
  return h === undefined ? 0 : Array.isArray(h) ? h.length : 1;
}

/** How many locks protect an entry's value. */
export function lockCount(entry: Entry): number {
  const l = entry.locks;
  return l === undefined ? 0 : Array.isArray(l) ? l.length : 1;
}

/** Adds a holder, turning a bare one into a list on the second. */
export function addHolder(entry: Entry, state: AccountState): void {
  const h = entry.holders;
  if (h === undefined) entry.holders = state;
  else if (Array.isArray(h)) h.push(state);
  else entry.holders = [h, state];
}

/** Adds a lock, turning a bare one into a list on the second. */
export function addLockTo(entry: Entry, lock: LockState): void {
  const l = entry.locks;
  if (l === undefined) entry.locks = lock;
  else if (Array.isArray(l)) l.push(lock);
  else entry.locks = [l, lock];
}

/** The canonical id of a state's key (cached); equal to keyId() of its plain key. */
export function idOf(state: RowState, keys: KeySchema): string {
  if (state.id === undefined) state.id = keys.range ? JSON.stringify([state.hash, state.range ?? '']) : JSON.stringify([state.hash]);
  return state.id;
}

/** The plain key of a state, built on demand. */
export function keyOfState(state: RowState, keys: KeySchema): PlainKey {
  return keys.range ? { [keys.hash.name]: state.hash, [keys.range.name]: state.range ?? '' } : { [keys.hash.name]: state.hash };
}

/** Compares two strings by code unit, the same on every machine (no locale). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorts states by id, for output that does not depend on the order pages arrived in. */
export function byId<T extends RowState>(list: readonly T[], keys: KeySchema): T[] {
  return [...list].sort((a, b) => compareText(idOf(a, keys), idOf(b, keys)));
}
