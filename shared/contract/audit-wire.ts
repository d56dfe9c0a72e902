/**
 * The audit stream's rows as they cross the bridge: tuples over a per-delta string table instead of
 * objects. A large run streams tens of thousands of rows; as objects that was mostly field
 * names, the row id (the key again) and each lock's key (its rule's prefix + the value again), all
 * stringified on the server's thread (the one that runs the scan) and parsed in the page's row
 * store. Tuples carry each fact once, in a fraction of the bytes (figures: docs/benchmarks.md).
 * Every delta is self-contained (its own tables), so a replay or a late subscriber needs no state.
 * `decodeDelta(encodeDelta(d))` equals `d` for every delta; audit-wire.test.ts holds it to that.
 */
import type { AccountGroup, AuditCounts, AuditDelta, GroupLock, GroupRow, LockStatus, StrayLockRow } from '../audit/types';
import type { PlainKey, PlainValue, ProblemKind } from '../model';

/**
 * `[rule, value, normalized (0: same as value), status, lock key, owner, scope, other holders]`, `0`
 * for an absent field, absent tail trimmed (rule, status: indexes in `strings`). The lock key is
 * `[shape, ...values]`, or, when its first value is a prefix + the normalized value (the usual
 * `UNIQ#EMAIL#<value>`), `[-1 - shape, index of the prefix in strings, ...rest]`.
 */
type WireLock = readonly unknown[];
/** `[0, id (0: derived from the key), key, locks, problems, 1 when checking]` or `[1 | 2, id, key, value, rule + 1 (0: none), scope, owner, reason]`. */
type WireRow = readonly unknown[];

/** A delta on the wire (see the file comment). */
export interface WireDelta {
  /** Format version: a page and a server of different builds fail loudly instead of misreading rows. */
  readonly wire: 1;
  /** Attribute-name lists of the keys in this delta: a key is `[shape, ...values]`, named by `keyShapes[shape]`. */
  readonly keyShapes: readonly (readonly string[])[];
  /** Rule names, statuses, problem kinds, lock-key prefixes of this delta. */
  readonly strings: readonly string[];
  readonly rows: readonly WireRow[];
  readonly removed: readonly string[];
  readonly counts: AuditCounts;
}

const ROW_KINDS = ['account', 'orphan-lock', 'malformed-lock'] as const;

/** Builds one delta's tables while its rows are encoded. */
class Tables {
  readonly strings: string[] = [];
  readonly keyShapes: string[][] = [];
  private readonly stringIndex = new Map<string, number>();
  private readonly shapeIndex = new Map<string, number>();

  string(s: string): number {
    let i = this.stringIndex.get(s);
    if (i === undefined) {
      i = this.strings.push(s) - 1;
      this.stringIndex.set(s, i);
    }
    return i;
  }

  shape(names: string[]): number {
    const id = names.join('\u0000');
    let i = this.shapeIndex.get(id);
    if (i === undefined) {
      i = this.keyShapes.push(names) - 1;
      this.shapeIndex.set(id, i);
    }
    return i;
  }
}

function encodeKey(key: PlainKey, tables: Tables): unknown[] {
  const names = Object.keys(key);
  const out: unknown[] = [tables.shape(names)];
  for (const name of names) out.push(key[name]);
  return out;
}

/** The id of a key as the engine makes it (plain-key.ts keyId: its values in key order, as JSON), so a row need not carry it. */
function derivedId(key: PlainKey): string {
  return JSON.stringify(Object.values(key));
}

function encodeLockKey(key: PlainKey, normalized: string, tables: Tables): unknown[] {
  const out = encodeKey(key, tables);
  const first = out[1];
  if (typeof first === 'string' && normalized !== '' && first.length > normalized.length && first.endsWith(normalized)) {
    out[0] = -1 - (out[0] as number);
    out[1] = tables.string(first.slice(0, first.length - normalized.length));
  }
  return out;
}

function trimmed(tuple: unknown[]): unknown[] {
  let end = tuple.length;
  while (end > 0 && tuple[end - 1] === 0) end -= 1;
  return end === tuple.length ? tuple : tuple.slice(0, end);
}

function encodeLock(lock: GroupLock, tables: Tables): WireLock {
  return trimmed([
    tables.string(lock.rule),
    lock.value,
    lock.normalized === lock.value ? 0 : lock.normalized,
    tables.string(lock.status),
    lock.lock ? encodeLockKey(lock.lock, lock.normalized, tables) : 0,
    lock.owner ?? 0,
    lock.scope ?? 0,
    lock.otherHolders ? lock.otherHolders.map((k) => encodeKey(k, tables)) : 0,
  ]);
}

function encodeRow(row: GroupRow, tables: Tables): WireRow {
  const id = row.id === derivedId(row.key) ? 0 : row.id;
  if (row.kind === 'account')
    return trimmed([
      0,
      id,
      encodeKey(row.key, tables),
      row.locks.map((l) => encodeLock(l, tables)),
      row.problems.map((p) => tables.string(p)),
      row.checking ? 1 : 0,
    ]);
  return trimmed([
    ROW_KINDS.indexOf(row.kind),
    id,
    encodeKey(row.key, tables),
    row.value,
    row.rule === undefined ? 0 : tables.string(row.rule) + 1,
    row.scope ?? 0,
    row.owner ?? 0,
    row.reason ?? 0,
  ]);
}

/** Encodes a delta for the bridge. */
export function encodeDelta(delta: AuditDelta): WireDelta {
  const tables = new Tables();
  const rows = delta.upserted.map((row) => encodeRow(row, tables));
  return { wire: 1, keyShapes: tables.keyShapes, strings: tables.strings, rows, removed: delta.removed, counts: delta.counts };
}

/** A wire delta that does not read as one: the row store fails the run rather than show rows it misread. */
function bad(what: string): never {
  throw new Error(`an audit delta could not be read (${what})`);
}

/** Decodes a delta from the bridge; throws when it is not a well-formed {@link WireDelta}. */
export function decodeDelta(wire: WireDelta): AuditDelta {
  if (wire.wire !== 1) bad(`format ${String(wire.wire)}`);
  const { strings, keyShapes } = wire;
  const str = (i: unknown): string => (typeof i === 'number' && strings[i] !== undefined ? strings[i] : bad('string index'));
  const key = (tuple: unknown, normalized?: string): PlainKey => {
    if (!Array.isArray(tuple) || typeof tuple[0] !== 'number') bad('key');
    // A negative shape: the first value is a prefix of `strings` + the lock's normalized value (encodeLockKey).
    const prefixed = tuple[0] < 0;
    if (prefixed && normalized === undefined) bad('key prefix');
    const names = keyShapes[prefixed ? -1 - tuple[0] : tuple[0]] ?? bad('key shape');
    if (names.length !== tuple.length - 1) bad('key length');
    const out: Record<string, PlainValue> = {};
    for (let i = 0; i < names.length; i++) {
      const v = tuple[i + 1] as unknown;
      if (i === 0 && prefixed) out[names[0]!] = str(v) + normalized!;
      else out[names[i]!] = typeof v === 'string' || typeof v === 'number' ? v : bad('key value');
    }
    return out;
  };
  const present = (v: unknown): boolean => v !== 0 && v !== undefined;
  const lock = (t: readonly unknown[]): GroupLock => {
    const value = t[1] as string;
    const normalized = present(t[2]) ? (t[2] as string) : value;
    return {
      rule: str(t[0]),
      value,
      normalized,
      status: str(t[3]) as LockStatus,
      ...(present(t[4]) ? { lock: key(t[4], normalized) } : {}),
      ...(present(t[5]) ? { owner: t[5] as string } : {}),
      ...(present(t[6]) ? { scope: t[6] as Readonly<Record<string, string>> } : {}),
      ...(present(t[7]) ? { otherHolders: (t[7] as unknown[]).map((k) => key(k)) } : {}),
    };
  };
  const row = (t: readonly unknown[]): GroupRow => {
    const k = key(t[2]);
    const id = t[1] === 0 ? derivedId(k) : (t[1] as string);
    if (t[0] === 0) {
      const account: AccountGroup = {
        kind: 'account',
        id,
        key: k,
        locks: (t[3] as (readonly unknown[])[]).map(lock),
        problems: (t[4] as number[]).map((p) => str(p) as ProblemKind),
        ...(t[5] === 1 ? { checking: true as const } : {}),
      };
      return account;
    }
    const kind = t[0] === 1 || t[0] === 2 ? ROW_KINDS[t[0]] : bad('row kind');
    const stray: StrayLockRow = {
      kind,
      id,
      key: k,
      ...(present(t[4]) ? { rule: str((t[4] as number) - 1) } : {}),
      value: t[3] as string,
      ...(present(t[5]) ? { scope: t[5] as Readonly<Record<string, string>> } : {}),
      ...(present(t[6]) ? { owner: t[6] as string } : {}),
      ...(present(t[7]) ? { reason: t[7] as string } : {}),
    };
    return stray;
  };
  return { upserted: wire.rows.map(row), removed: wire.removed, counts: wire.counts };
}
