/**
 * Which values a stream record touches: the scopes the watch re-checks. A scope is one
 * (rule, normalized value) — the audit's join point — or one malformed lock key. Everything else
 * (other items, an account update that leaves its protected values alone) needs no re-check.
 */
import { classifyItem, type AccountValue, type ItemClass } from '../conventions/classify';
import { compileConvention, type CompiledConvention } from '../conventions/parse';
import { joinKey, type ScopeValues } from '../conventions/scope';
import type { Convention, Item, PlainKey } from '../model';
import { keyId, keyOf } from '../plain-key';
import type { StreamChange, WatchCause } from './watch-events';

/** At most this many stored spellings, lock keys and accounts are remembered per scope (memory stays bounded in a hot burst). */
export const SCOPE_LIST_LIMIT = 16;

/** One (rule, normalized value) to re-check, with what the records said about it. */
export interface ValueScope {
  readonly kind: 'value';
  readonly id: string;
  readonly ruleIndex: number;
  readonly rule: string;
  readonly normalized: string;
  /** For a scoped rule: the scope the value is unique within (part of the join, as in the audit). */
  readonly scope?: ScopeValues;
  /** Stored spellings seen on accounts (an index finds exact spellings only). */
  readonly forms: readonly string[];
  /** Lock keys the records named (covers scoped and legacy keys no template can enumerate). */
  readonly locks: readonly PlainKey[];
  /** Accounts the records named as holders, before or after. */
  readonly accounts: readonly PlainKey[];
  /**
   * An account came to hold the value in these records. With no lock record alongside (`locks` empty:
   * written outside a transaction) while a lock exists, another account may hold it too: the re-check
   * looks for other holders then (a signup or change of value brings its lock record, and stays cheap).
   */
  readonly gained: boolean;
  /**
   * A lock of the value was deleted in these records. With no account record alongside (a delete-account
   * or change of value names its account) and no lock left, a holder may stand unprotected: the re-check
   * looks for holders then.
   */
  readonly lockRemoved: boolean;
}

/** Which table a record came from: the watched one, or the convention's lock table. */
export type RecordSource = 'table' | 'lock-table';

/** One malformed lock key to re-check. */
export interface MalformedScope {
  readonly kind: 'malformed';
  readonly id: string;
  readonly key: PlainKey;
  /** The item lives in the convention's lock table (else in the watched table). */
  readonly inLockTable: boolean;
}

/** What one re-check covers. */
export type WatchScope = ValueScope | MalformedScope;

/** The id of a value scope: the rule and the audit's join key (scope values and normalized value). */
export function valueScopeId(ruleIndex: number, normalized: string, scope?: ScopeValues): string {
  return JSON.stringify(['v', ruleIndex, joinKey(scope, normalized)]);
}

/** The cause object of a stream record. */
export function causeOf(change: StreamChange, convention: Convention): WatchCause {
  return { eventName: change.eventName, keys: keyOf(change.keys, convention.keys), at: change.at, sequenceNumber: change.sequenceNumber };
}

/** A held value as stored, with its rule and scope: an account moved to another scope holds a different value. */
function heldAs(v: AccountValue): string {
  return JSON.stringify([v.ruleIndex, v.value, v.scope ?? null]);
}

function sameValues(a: readonly AccountValue[], b: readonly AccountValue[]): boolean {
  return a.length === b.length && a.every((v, i) => b[i] !== undefined && heldAs(v) === heldAs(b[i]));
}

/** An account's values that the other image of the same record does not hold as well (an update leaves the rest alone). */
function changedValues(values: readonly AccountValue[], other: ItemClass | undefined): readonly AccountValue[] {
  if (other?.kind !== 'account') return values;
  const kept = new Set(other.values.map(heldAs));
  return values.filter((v) => !kept.has(heldAs(v)));
}

function classify(compiled: CompiledConvention, image: Item | undefined): ItemClass | undefined {
  return image === undefined ? undefined : classifyItem(compiled, image);
}

/**
 * What an image is to the audit, by the table it came from: with a lock table, only locks count
 * there, and a lock in the watched table is malformed (the library checks the lock table, so it
 * protects nothing) — the engine's own rule (AuditEngine.addItems).
 */
function judge(compiled: CompiledConvention, image: Item | undefined, from: RecordSource): ItemClass | undefined {
  const cls = classify(compiled, image);
  if (cls === undefined || compiled.convention.lockTable === undefined) return cls;
  if (from === 'lock-table') return cls.kind === 'lock' || cls.kind === 'malformed' ? cls : undefined;
  return cls.kind === 'lock' ? { kind: 'malformed', key: cls.key, reason: 'a lock item in the accounts table', text: '' } : cls;
}

/** The scopes a record of `from` touches (none for items that are neither accounts nor locks, or an account update leaving its values alone). */
export function scopesOf(convention: Convention | CompiledConvention, change: StreamChange, from: RecordSource = 'table'): WatchScope[] {
  const compiled = 'templates' in convention ? convention : compileConvention(convention);
  const conv = compiled.convention;
  const before = judge(compiled, change.oldImage, from);
  const after = judge(compiled, change.newImage, from);
  if (before?.kind === 'account' && after?.kind === 'account' && sameValues(before.values, after.values)) return [];
  if (before?.kind === 'lock' && after?.kind === 'lock' && before.owner === after.owner) return [];
  const out = new Map<string, WatchScope>();
  for (const cls of [before, after]) {
    if (cls === undefined || cls.kind === 'other') continue;
    if (cls.kind === 'malformed') {
      const inLockTable = from === 'lock-table';
      const id = JSON.stringify(['m', keyId(cls.key, conv.keys), ...(inLockTable ? ['lock-table'] : [])]);
      out.set(id, { kind: 'malformed', id, key: cls.key, inLockTable });
      continue;
    }
    const entries =
      cls.kind === 'account'
        ? changedValues(cls.values, cls === before ? after : before).map((v) => ({ v, account: cls.key, lock: undefined }))
        : [{ v: cls, account: undefined, lock: cls.key }];
    const gained = cls === after && cls.kind === 'account';
    const lockRemoved = cls === before && cls.kind === 'lock' && after?.kind !== 'lock';
    for (const { v, account, lock } of entries) {
      const id = valueScopeId(v.ruleIndex, v.normalized, v.scope);
      const add: ValueScope = {
        kind: 'value',
        id,
        ruleIndex: v.ruleIndex,
        rule: conv.rules[v.ruleIndex]?.name ?? '',
        normalized: v.normalized,
        ...(v.scope ? { scope: v.scope } : {}),
        forms: account ? [v.value] : [],
        locks: lock ? [lock] : [],
        accounts: account ? [account] : [],
        gained,
        lockRemoved,
      };
      const known = out.get(id);
      out.set(id, known ? mergeScopes(known, add, conv) : add);
    }
  }
  return [...out.values()];
}

function mergeList<T>(a: readonly T[], b: readonly T[], id: (item: T) => string): readonly T[] {
  if (b.length === 0) return a;
  const seen = new Set(a.map(id));
  const out = [...a];
  for (const item of b) {
    if (out.length >= SCOPE_LIST_LIMIT) break;
    if (!seen.has(id(item))) {
      seen.add(id(item));
      out.push(item);
    }
  }
  return out;
}

/** Two records' view of the same scope, combined (lists deduplicated and capped). */
export function mergeScopes(a: WatchScope, b: WatchScope, convention: Convention): WatchScope {
  if (a.kind !== 'value' || b.kind !== 'value') return a;
  const key = (k: PlainKey): string => keyId(k, convention.keys);
  return {
    ...a,
    forms: mergeList(a.forms, b.forms, (f) => f),
    locks: mergeList(a.locks, b.locks, key),
    accounts: mergeList(a.accounts, b.accounts, key),
    gained: a.gained || b.gained,
    lockRemoved: a.lockRemoved || b.lockRemoved,
  };
}
