/**
 * The inspector grid's window arithmetic. Collapsed rows all have one height, so where a row starts,
 * which row covers a given offset and the body's height follow from its index and the extra height of
 * the expanded rows before it: O(expanded rows), never a pass over the view's length (a general
 * virtualizer's per-row measurement table is rebuilt in O(rows) whenever the length changes, which
 * at a million items made long tasks: docs/benchmarks.md).
 */

/** An expanded row: its place in the view and its height beyond the collapsed row height. */
export interface ExtraHeight {
  readonly index: number;
  readonly extra: number;
}

/** The rows' geometry: how many, the collapsed height, and the expanded rows sorted by index (see {@link extrasOf}). */
export interface RowGeometry {
  readonly length: number;
  readonly rowHeight: number;
  readonly extras: readonly ExtraHeight[];
}

/** The rows to render: `first…last` inclusive; empty when `last < first`. */
export interface RowRange {
  readonly first: number;
  readonly last: number;
}

/** Expanded rows' places and measured heights → the sorted extras of the rows inside the view (one per place, the tallest). */
export function extrasOf(
  places: Iterable<{ readonly index: number; readonly height: number }>,
  length: number,
  rowHeight: number,
): ExtraHeight[] {
  const byIndex = new Map<number, number>();
  for (const { index, height } of places) {
    if (index < 0 || index >= length) continue;
    const extra = Math.max(0, height - rowHeight);
    byIndex.set(index, Math.max(extra, byIndex.get(index) ?? 0));
  }
  return [...byIndex.entries()].map(([index, extra]) => ({ index, extra })).sort((a, b) => a.index - b.index);
}

/** Where row `index` starts, from the top of the body. */
export function rowStart(geometry: RowGeometry, index: number): number {
  let shift = 0;
  for (const e of geometry.extras) {
    if (e.index >= index) break;
    shift += e.extra;
  }
  return index * geometry.rowHeight + shift;
}

/** The height of row `index`. */
function rowSize(geometry: RowGeometry, index: number): number {
  return geometry.rowHeight + (geometry.extras.find((e) => e.index === index)?.extra ?? 0);
}

/** The body's height: every row, expanded ones at their measured height. */
export function totalHeight(geometry: RowGeometry): number {
  return geometry.extras.reduce((sum, e) => sum + e.extra, geometry.length * geometry.rowHeight);
}

/** The row that covers `offset` (from the top of the body), clamped to the view; -1 for an empty view. */
export function rowAt(geometry: RowGeometry, offset: number): number {
  const { length, rowHeight } = geometry;
  if (length === 0) return -1;
  let shift = 0;
  for (const e of geometry.extras) {
    const start = e.index * rowHeight + shift;
    if (offset < start) break;
    if (offset < start + rowHeight + e.extra) return e.index;
    shift += e.extra;
  }
  return Math.max(0, Math.min(length - 1, Math.floor((offset - shift) / rowHeight)));
}

/**
 * The rows to render for a body seen from `top` for `height` px (both from the top of the body), with
 * `overscan` rows beyond each end. Never a place past the view's length.
 */
export function visibleRange(geometry: RowGeometry, top: number, height: number, overscan: number): RowRange {
  if (geometry.length === 0) return { first: 0, last: -1 };
  const first = rowAt(geometry, Math.max(0, top));
  const last = rowAt(geometry, Math.max(0, top + Math.max(0, height) - 1));
  return { first: Math.max(0, first - overscan), last: Math.min(geometry.length - 1, last + overscan) };
}

/**
 * The scroll position that brings row `index` fully into view with the least movement, or undefined
 * when it is already there. `scrollTop` and `viewport` are the scroll container's; `bodyTop` is where
 * the body starts inside it, under a sticky header of that height which covers the view's top.
 */
export function scrollToReveal(
  geometry: RowGeometry,
  index: number,
  scrollTop: number,
  viewport: number,
  bodyTop: number,
): number | undefined {
  if (index < 0 || index >= geometry.length) return undefined;
  const start = bodyTop + rowStart(geometry, index);
  const end = start + rowSize(geometry, index);
  if (start < scrollTop + bodyTop) return start - bodyTop;
  if (end > scrollTop + viewport) return Math.min(start - bodyTop, end - viewport);
  return undefined;
}
