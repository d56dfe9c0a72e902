/**
 * The inspector's row store: audit deltas are applied into a Map keyed by row id and the row
 * array is derived from it. Unchanged rows keep their object identity and a delta that changes
 * nothing keeps the array itself, so the table's `data` stays referentially stable.
 */
import type { AuditCounts, AuditDelta, GroupRow } from '../../../../shared/audit/types';

/** Rows received so far, in arrival order, plus the latest counts. */
export interface AuditRows {
  readonly byId: ReadonlyMap<string, GroupRow>;
  readonly list: readonly GroupRow[];
  readonly counts: AuditCounts | undefined;
}

/** The store before the first delta. */
export const EMPTY_AUDIT_ROWS: AuditRows = { byId: new Map(), list: [], counts: undefined };

// Rows arrive as fresh objects on every delta; compare content so an unchanged row keeps its identity.
function sameRow(a: GroupRow, b: GroupRow): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Applies one delta; returns the same `list` array when no row actually changed. */
export function applyAuditDelta(state: AuditRows, delta: AuditDelta): AuditRows {
  return applyAuditDeltas(state, [delta]);
}

/**
 * Applies several deltas in order with one copy of the store: a burst of deltas costs one O(rows)
 * pass instead of one per delta (the stream can deliver hundreds between two frames).
 */
export function applyAuditDeltas(state: AuditRows, deltas: readonly AuditDelta[]): AuditRows {
  const last = deltas[deltas.length - 1];
  if (!last) return state;
  let byId: Map<string, GroupRow> | undefined;
  const writable = (): Map<string, GroupRow> => (byId ??= new Map(state.byId));
  for (const delta of deltas) {
    for (const row of delta.upserted) {
      const previous = (byId ?? state.byId).get(row.id);
      if (previous && sameRow(previous, row)) continue;
      writable().set(row.id, row);
    }
    for (const id of delta.removed) {
      if ((byId ?? state.byId).has(id)) writable().delete(id);
    }
  }
  if (!byId) return { ...state, counts: last.counts };
  return { byId, list: Array.from(byId.values()), counts: last.counts };
}
