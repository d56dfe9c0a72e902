/**
 * Keeps the page's copy of a row when the row store sends it again unchanged. Every window the store
 * sends arrives as fresh objects (a worker's message is a copy), so without this each view would
 * re-render every row on screen, where only the rows whose content changed need to.
 */
import type { GroupRow } from '../../../../shared/audit/types';

/** `next` with each row equal in content to one of `previous` (same id) replaced by that object; `previous` itself when nothing changed. */
export function keepSameRows(previous: readonly GroupRow[], next: readonly GroupRow[]): readonly GroupRow[] {
  if (previous === next || previous.length === 0) return next;
  const byId = new Map(previous.map((row) => [row.id, row]));
  let changed = previous.length !== next.length;
  const kept = next.map((row, i) => {
    const old = byId.get(row.id);
    // A window holds a few dozen small rows: comparing their text costs microseconds, a row re-rendered far more.
    const same = old !== undefined && (old === row || JSON.stringify(old) === JSON.stringify(row)) ? old : row;
    if (same !== previous[i]) changed = true;
    return same;
  });
  return changed ? kept : previous;
}
