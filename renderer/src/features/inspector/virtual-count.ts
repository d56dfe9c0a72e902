/**
 * The row count the grid's virtualizer is given. @tanstack/virtual-core rebuilds every row's
 * measurement whenever its `count` changes: an O(count) pass and two count-sized arrays (~24 bytes
 * a row). While an audit streams, the view's length changes with every batch, so at 1M items
 * each batch cost the page a long render plus megabytes of garbage, and the GC that followed made
 * the main thread's longest tasks (figures: docs/benchmarks.md).
 * Rounded up to a power of two, the count changes ~10 times in a whole 1M run. The places past the
 * view's length are never rendered (the store sends no row for them) and the grid's body is sized
 * to the view's length (see {@link bodyHeight}), so the extra places cost only their measurements.
 */
export function virtualCount(length: number): number {
  if (length <= 0) return 0;
  let count = MIN_VIRTUAL_COUNT;
  while (count < length) count *= 2;
  return count;
}

/** The smallest count above zero: small views change count rarely enough without rounding, but a floor keeps the start of a run from rebuilding at every batch. */
export const MIN_VIRTUAL_COUNT = 1024;

/**
 * The height of the grid's body for a view of `length` rows, from the virtualizer's total size over
 * {@link virtualCount} places: the places past the view's length are never rendered, so they keep
 * their estimated `rowHeight` and are taken off again.
 */
export function bodyHeight(totalSize: number, count: number, length: number, rowHeight: number): number {
  return Math.max(0, totalSize - (count - length) * rowHeight);
}
