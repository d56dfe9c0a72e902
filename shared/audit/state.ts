/**
 * The audit engine's internal state, kept deliberately lean: the engine runs inside a scan of
 * up to a million items and every retained object costs GC time. States hold the key values
 * the SDK already allocated (no key objects, no id strings until someone asks) and link to one
 * join entry per (rule, normalized value).
 */
import type { CompiledConvention } from '../conventions/parse';
import type { ScopeValues } from '../conventions/scope';
import type { KeySchema, PlainKey, PlainValue } from '../model';

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
  /**
   * Per rule index (undefined where the account holds no value): the value's join entry, or, in
   * compact mode, the normalized value itself while this account is the value's only holder and
   * nothing but the rule's canonical lock joins it — the index then maps the value to this account
   * (see IndexSlot). The engine turns the string into an entry when a second participant arrives.
   */
  readonly entries: (Entry | string | undefined)[];
  /**
   * The values as stored, by rule index, only when one differs from its normalized form (mixed
   * case, spaces): usually they are the same string and a second array would be waste.
   */
  raws: (string | undefined)[] | undefined;
  /** Compact mode: bit r is set once rule r's canonical lock was read for the value held as a string. */
  locked: number;
}

/**
 * What the index maps a join key to. In compact mode (unscoped rules, at most 30 of them), the two
 * states of nearly every value need no entry: the rule's canonical form while only its lock was
 * read, then the account itself (its `locked` bit set) once its holder was — a healthy value costs
 * the index slot and nothing else (~64 bytes per value less than an entry). Otherwise an entry.
 */
export type IndexSlot = Entry | AccountState | CanonicalForm;

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

/**
 * What a rule's first template writes for a value, when that is all a lock item can be: no
 * `{scope}`, and a fixed range on a table with a range key (or no range key at all). Nearly every
 * lock item is exactly this for its entry's value (value as written === normalized value, no owner),
 * so such a lock is not stored: the entry points at its rule's form instead (one shared object per
 * rule) and a LockState is rebuilt from it when something reads the lock (see locksOf). That saves
 * the state object and the key string of ~2/3 of the items of a table. The form never carries
 * state: the engine stores a real LockState before anything must be remembered about the lock
 * (an orphan's `stray`, the identity the delta sets track, a second lock on the value).
 */
export interface CanonicalForm {
  readonly kind: 'canonical';
  /** Literal hash text before and after `{value}`. */
  readonly prefix: string;
  readonly suffix: string;
  /** The range value of every such lock; undefined on a hash-only table. */
  readonly range: string | undefined;
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
 * Read them through holdersOf/locksOf and the counts. What the engine derives from an entry (its
 * problems, whether it awaits recomputation) lives in the engine, for the ~1% of entries it concerns.
 */
export interface Entry {
  readonly ruleIndex: number;
  /**
   * The normalized value (the index key of an unscoped rule). Rebased by the engine onto its first holder's copy when a
   * canonical lock created the entry: the text read from the lock key is a slice that would keep the
   * whole key string alive, which nothing else needs.
   */
  value: string;
  /** A scoped rule's scope values (the index key is then joinKey(scope, value)); undefined for an unscoped rule. */
  readonly scope: ScopeValues | undefined;
  holders: AccountState | AccountState[] | undefined;
  /** Real lock states, or the rule's canonical form standing for the one lock that is exactly it. */
  locks: LockState | LockState[] | CanonicalForm | undefined;
}

/**
 * The join entry of `account`'s value under rule `ruleIndex`: the stored one, or, in compact mode
 * (the value held as a string), one built from the account and, when its `locked` bit is set, the
 * rule's canonical form `form`. A built entry is a view: fine for reading, never stored by itself.
 */
export function entryOf(account: AccountState, ruleIndex: number, form: CanonicalForm | undefined): Entry | undefined {
  const e = account.entries[ruleIndex];
  if (typeof e !== 'string') return e;
  const locks = (account.locked & (1 << ruleIndex)) === 0 ? undefined : form;
  return { ruleIndex, value: e, scope: undefined, holders: account, locks };
}

/**
 * Compact mode: replaces the entry-less slot of (rule, key) in `byValue` with a real entry holding
 * the same participants, because a second one arrives or the value has a problem to report; the
 * account (if the slot was one) then points at the entry too. `form` is the rule's canonical form.
 */
export function expandSlot(
  byValue: Map<string, IndexSlot>,
  ruleIndex: number,
  key: string,
  slot: AccountState | CanonicalForm,
  form: CanonicalForm | undefined,
): Entry {
  if (slot.kind === 'canonical') {
    const entry: Entry = { ruleIndex, value: key, scope: undefined, holders: undefined, locks: slot };
    byValue.set(key, entry);
    return entry;
  }
  const entry = entryOf(slot, ruleIndex, form)!;
  slot.entries[ruleIndex] = entry;
  byValue.set(key, entry);
  return entry;
}

/** The normalized value account `state` holds under rule `ruleIndex` ('' when none). */
function heldValue(state: AccountState, ruleIndex: number): string {
  const e = state.entries[ruleIndex];
  return e === undefined ? '' : typeof e === 'string' ? e : e.value;
}

/** The value account `state` stores under rule `ruleIndex`. */
export function rawValue(state: AccountState, ruleIndex: number): string {
  return state.raws?.[ruleIndex] ?? heldValue(state, ruleIndex);
}

const NO_ACCOUNTS: readonly AccountState[] = [];
const NO_LOCKS: readonly LockState[] = [];

/** The accounts holding an entry's value (a fresh one-element list for a single holder). */
export function holdersOf(entry: Entry): readonly AccountState[] {
  const h = entry.holders;
  return h === undefined ? NO_ACCOUNTS : Array.isArray(h) ? h : [h];
}

/** True when the entry's only lock is its rule's canonical form (no LockState stored). */
export function hasCanonicalLock(entry: Entry): boolean {
  const l = entry.locks;
  return l !== undefined && !Array.isArray(l) && l.kind === 'canonical';
}

/** The lock a canonical form stands for: field for field what the engine would have stored for the item. */
export function canonicalLock(entry: Entry, form: CanonicalForm): LockState {
  const value = entry.value;
  return {
    kind: 'lock',
    hash: form.prefix + value + form.suffix,
    range: form.range,
    id: undefined,
    ruleIndex: entry.ruleIndex,
    raw: value,
    owner: undefined,
    entry,
    stray: false,
  };
}

/** The one lock of an entry holding a single lock (rebuilt when canonical; undefined when none or several). */
export function singleLock(entry: Entry): LockState | undefined {
  const l = entry.locks;
  if (l === undefined || Array.isArray(l)) return undefined;
  return l.kind === 'canonical' ? canonicalLock(entry, l) : l;
}

/**
 * The locks protecting an entry's value. A canonical lock comes back as a fresh LockState on every
 * call: fine for reading, never for keeping (use storeLocks for that).
 */
export function locksOf(entry: Entry): readonly LockState[] {
  const l = entry.locks;
  return l === undefined ? NO_LOCKS : Array.isArray(l) ? l : [l.kind === 'canonical' ? canonicalLock(entry, l) : l];
}

/** Replaces a canonical form with a real LockState, so the lock can carry state and identity; returns the locks. */
export function storeLocks(entry: Entry): readonly LockState[] {
  const l = entry.locks;
  if (l !== undefined && !Array.isArray(l) && l.kind === 'canonical') {
    const lock = canonicalLock(entry, l);
    entry.locks = lock;
    return [lock];
  }
  return locksOf(entry);
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

/** Adds a lock, turning a bare one into a list on the second (a canonical one is stored first, keeping arrival order). */
export function addLockTo(entry: Entry, lock: LockState): void {
  const l = entry.locks;
  if (l === undefined) entry.locks = lock;
  else if (Array.isArray(l)) l.push(lock);
  else entry.locks = [l.kind === 'canonical' ? canonicalLock(entry, l) : l, lock];
}

/** Records an entry's first lock as its rule's canonical form (the caller checked the lock is exactly that). */
export function addCanonicalLock(entry: Entry, form: CanonicalForm): void {
  if (entry.locks !== undefined) throw new Error('a canonical lock must be the first lock of its entry');
  entry.locks = form;
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

/** Per rule, the canonical form of its first template, when a lock item can be exactly it (see CanonicalForm). */
export function canonicalForms(compiled: CompiledConvention): (CanonicalForm | undefined)[] {
  const hasRange = compiled.convention.keys.range !== undefined;
  return compiled.convention.rules.map((_, ruleIndex) => {
    const t = compiled.templates.find((c) => c.ruleIndex === ruleIndex && c.templateIndex === 0);
    // A scope cannot be rebuilt from the value; a range key without a fixed value cannot either.
    if (t === undefined || t.placeholders > 0 || (hasRange && t.range === undefined)) return undefined;
    return { kind: 'canonical', prefix: t.prefix, suffix: t.suffix, range: hasRange ? t.range : undefined };
  });
}
