/**
 * The audit engine's internal state, kept deliberately lean: the engine runs inside a scan of
 * up to a million items and every retained object costs GC time. States hold the key values
 * the SDK already allocated (no key objects, no id strings until someone asks) and link to one
 * join entry per (rule, normalized value).
 */
import type { KeySchema, PlainKey, PlainValue, Problem } from '../model';

/** A value an account holds, linked to its join entry. */
export interface HeldValue {
  readonly ruleIndex: number;
  /** The value as stored on the account. */
  readonly raw: string;
  readonly entry: Entry;
}

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
  readonly values: readonly HeldValue[];
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

/** The join point of one (rule, normalized value): who holds it, which locks protect it. */
export interface Entry {
  readonly ruleIndex: number;
  readonly value: string;
  /** Replaced (never pushed to) while it is the shared empty list; see engine.ts. */
  holders: AccountState[];
  locks: LockState[];
  /** Problems computed at the last flush (subtracted from the summary before recomputing). */
  problems: readonly Problem[];
  /** Queued for recomputation (avoids a Set insert per touched entry). */
  dirty: boolean;
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
