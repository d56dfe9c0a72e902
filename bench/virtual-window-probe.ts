/**
 * `npx tsx bench/virtual-window-probe.ts`: what a change of the inspector's row count costs the page's
 * thread at 340k–1M rows, the sizes a 1M-item audit's view reaches. A general virtualizer
 * (TanStack Virtual, as the grid used it: fixed estimate, keys by place) rebuilds its per-row
 * measurement table whenever the count changes; the grid's own window (`shared/virtual-window.ts`) answers
 * the same questions (the rows in view, where they start, the body's height) from the count and the
 * expanded rows alone. Median of 7 count changes each, plus what the change allocates
 * (`node --expose-gc --import tsx bench/virtual-window-probe.ts` for a clean baseline).
 */
import { Virtualizer } from '@tanstack/react-virtual';
import { extrasOf, rowStart, totalHeight, visibleRange, type RowGeometry } from '../shared/virtual-window';
import { median } from './stats';

const ROW = 38;

function virtualizer(count: number): Virtualizer<never, never> {
  return new Virtualizer<never, never>({
    count,
    getScrollElement: () => null,
    estimateSize: () => ROW,
    getItemKey: (index) => index,
    scrollToFn: () => undefined,
    observeElementRect: () => undefined,
    observeElementOffset: () => undefined,
  });
}

// The JS heap and array buffers (the virtualizer keeps its measurements in a Float64Array).
function allocated(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

const lines: string[] = [];
for (const length of [340_000, 524_288, 1_000_000]) {
  const tanstack: number[] = [];
  const own: number[] = [];
  let garbage = 0;
  for (let run = 0; run < 7; run++) {
    const v = virtualizer(length - 1_000);
    v.getTotalSize();
    globalThis.gc?.();
    const before = allocated();
    let started = performance.now();
    v.setOptions({ ...v.options, count: length });
    v.getTotalSize();
    tanstack.push(performance.now() - started);
    garbage = Math.max(garbage, allocated() - before);

    started = performance.now();
    // Two rows expanded, as a person reading the grid may have.
    const geometry: RowGeometry = {
      length,
      rowHeight: ROW,
      extras: extrasOf(
        [
          { index: 10, height: 300 },
          { index: 5_000, height: 240 },
        ],
        length,
        ROW,
      ),
    };
    const range = visibleRange(geometry, (length / 2) * ROW, 900, 4);
    for (let i = range.first; i <= range.last; i++) rowStart(geometry, i);
    totalHeight(geometry);
    own.push(performance.now() - started);
  }
  lines.push(
    `${String(length).padStart(9)} rows: virtual-core count change ${median(tanstack).toFixed(2)} ms (max ${Math.max(...tanstack).toFixed(2)}), ~${(garbage / 1048576).toFixed(1)} MiB allocated; own window ${median(own).toFixed(3)} ms`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
