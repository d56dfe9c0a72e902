/**
 * A run's end reaches the page a frame after the rows that carry it. The end of a large audit
 * changes the whole view at once (its last rows and counts, then the finished state: progress gone,
 * counts final, the grid taller); applied in one commit that made the longest main-thread task of an
 * audit (figures: docs/benchmarks.md). The rows commit first, the finished state in the next frame.
 */
import { useEffect, useRef } from 'react';
import { nextFrame, type FrameScheduler } from './frame-views';
import type { RowsView, RunEnd } from './row-store';

/** Calls `onEnd` once per run, in the frame after the first committed view of `rows` that carries the run's end. */
export function useRunEnd(rows: RowsView, onEnd: (end: RunEnd) => void, schedule: FrameScheduler = nextFrame): void {
  const latest = useRef({ end: rows.end, onEnd });
  useEffect(() => {
    latest.current = { end: rows.end, onEnd };
  });
  // One number per ended run: later views of the same run (a scroll's windows) schedule nothing more.
  const endedRun = rows.end ? rows.run : 0;
  useEffect(() => {
    if (endedRun === 0) return undefined;
    return schedule(() => {
      const { end, onEnd: apply } = latest.current;
      if (end) apply(end);
    });
  }, [endedRun, schedule]);
}
