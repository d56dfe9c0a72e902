/**
 * The row store's views applied to the page at most once a frame: a run's end releases every held
 * row at once and the store may answer several times between two frames (a batch, then `done`), and
 * each view applied is a render of the grid. Only the newest view of a frame is rendered.
 */
import type { RowsView } from './row-store';

/**
 * The view to keep when `next` arrives while `pending` waits for its frame. A `sameRows` view says
 * "the rows of the previous update": when that update is the pending one, its rows are carried over.
 */
export function mergeViews(pending: RowsView | undefined, next: RowsView): RowsView {
  if (!pending || !next.sameRows || pending.run !== next.run || pending.sameRows) return next;
  const { sameRows: _same, ...rest } = next;
  return { ...rest, rows: pending.rows };
}

/** Schedules one call for the next frame; returns its cancel. */
export type FrameScheduler = (callback: () => void) => () => void;

/** The browser's frames; where there are none (tests, a worker-less host), the next task. */
export const nextFrame: FrameScheduler = (callback) => {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(() => callback());
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(callback, 0);
  return () => clearTimeout(id);
};

/** Coalesces views: `push` keeps the newest (merged), `apply` hears it once at the next frame; `drop` forgets what waits. */
export function frameViews(
  apply: (view: RowsView) => void,
  schedule: FrameScheduler = nextFrame,
): { push: (view: RowsView) => void; drop: () => void } {
  let pending: RowsView | undefined;
  let cancel: (() => void) | undefined;
  return {
    push(view) {
      pending = mergeViews(pending, view);
      cancel ??= schedule(() => {
        cancel = undefined;
        const due = pending;
        pending = undefined;
        if (due) apply(due);
      });
    },
    drop() {
      cancel?.();
      cancel = undefined;
      pending = undefined;
    },
  };
}
