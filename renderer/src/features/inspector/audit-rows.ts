/**
 * The inspector's row store: audit deltas are applied into a Map keyed by row id and the row
 * array is derived from it. Unchanged rows keep their object identity and a delta that changes
 * nothing keeps the array itself, so the table's `data` stays referentially stable.
 */
import type { AuditCounts, AuditDelta, GroupRow } from '../../../../shared/audit/types';

/** What one step changed: rows that came in (new or replacing) and rows that went (removed or replaced). */
export interface RowsChange {
  /** The store this step started from: a consumer that saw exactly that store can apply just the change. */
  readonly from: AuditRows;
  readonly added: readonly GroupRow[];
  readonly removed: readonly GroupRow[];
}

/** Rows received so far, in arrival order, plus the latest counts. */
export interface AuditRows {
  readonly byId: ReadonlyMap<string, GroupRow>;
  readonly list: readonly GroupRow[];
  readonly counts: AuditCounts | undefined;
  /** Set when this store was made by applying deltas to another one. */
  readonly change?: RowsChange;
}

/** The store before the first delta. */
export const EMPTY_AUDIT_ROWS: AuditRows = { byId: new Map(), list: [], counts: undefined };

// Maps made here for one store chain, the only ones an in-place step may write. A store copied by
// spreading (`{ ...store }`) shares its map, so "not the empty store" is not enough: a counts-only
// first delta once shared EMPTY_AUDIT_ROWS's map, every later run wrote into it, and each new audit
// started from the rows of the previous ones (re-runs showed nothing new, switches showed old rows).
const writableMaps = new WeakSet<Map<string, GroupRow>>();

function ownMap(source: ReadonlyMap<string, GroupRow>): Map<string, GroupRow> {
  const map = new Map(source);
  writableMaps.add(map);
  return map;
}

// Rows arrive as fresh objects on every delta; compare content so an unchanged row keeps its identity
// (the engine re-sends a row only when it changed, so this is rarely more than a reference check).
function sameRow(a: GroupRow, b: GroupRow): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Applies one delta; returns the same `list` array when no row actually changed. */
export function applyAuditDelta(state: AuditRows, delta: AuditDelta): AuditRows {
  return applyAuditDeltas(state, [delta]);
}

/**
 * Applies several deltas in order with one copy of the store: a burst of deltas costs one O(rows)
 * pass instead of one per delta (the stream can deliver hundreds between two frames). With
 * `inPlace`, `state`'s map is updated instead of copied and `state` must not be used afterwards.
 */
export function applyAuditDeltas(state: AuditRows, deltas: readonly AuditDelta[], options: { readonly inPlace?: boolean } = {}): AuditRows {
  const last = deltas[deltas.length - 1];
  if (!last) return state;
  let byId: Map<string, GroupRow> | undefined;
  // In place: the caller owns `state` and drops it for the result (copying a 70k-entry Map per batch
  // was the largest cost of streaming a 200k-item audit). Only a map this module made is written.
  const writable = (): Map<string, GroupRow> => {
    if (byId) return byId;
    const own = state.byId as Map<string, GroupRow>;
    byId = options.inPlace && writableMaps.has(own) ? own : ownMap(state.byId);
    return byId;
  };
  // Rows are tracked by object: a row added and replaced within these deltas is neither added nor removed.
  const added = new Set<GroupRow>();
  const removed: GroupRow[] = [];
  const drop = (row: GroupRow): void => {
    if (!added.delete(row)) removed.push(row);
  };
  for (const delta of deltas) {
    for (const row of delta.upserted) {
      const previous = (byId ?? state.byId).get(row.id);
      if (previous && sameRow(previous, row)) continue;
      // A changed row moves to the end of the arrival order (delete first): sorted views keep ties
      // in arrival order, and an incremental sort puts a changed row after its equals too.
      if (previous) writable().delete(row.id);
      writable().set(row.id, row);
      if (previous) drop(previous);
      added.add(row);
    }
    for (const id of delta.removed) {
      const previous = (byId ?? state.byId).get(id);
      if (!previous) continue;
      writable().delete(id);
      drop(previous);
    }
  }
  if (!byId) return { ...state, counts: last.counts, change: { from: state, added: [], removed: [] } };
  return { byId, list: Array.from(byId.values()), counts: last.counts, change: { from: state, added: [...added], removed } };
}
