import { describe, expect, it } from 'vitest';
import { Virtualizer } from '@tanstack/react-virtual';
import { bodyHeight, MIN_VIRTUAL_COUNT, virtualCount } from './virtual-count';

// A virtualizer with no element, as the grid's is configured (fixed estimate, keys by place).
function virtualizer(count: number): Virtualizer<HTMLDivElement, HTMLTableRowElement> {
  return new Virtualizer<HTMLDivElement, HTMLTableRowElement>({
    count,
    getScrollElement: () => null,
    estimateSize: () => 38,
    getItemKey: (index) => index,
    scrollToFn: () => undefined,
    observeElementRect: () => undefined,
    observeElementOffset: () => undefined,
  });
}

describe('virtualCount', () => {
  it('covers the view and changes only at powers of two', () => {
    expect(virtualCount(0)).toBe(0);
    expect(virtualCount(1)).toBe(MIN_VIRTUAL_COUNT);
    expect(virtualCount(MIN_VIRTUAL_COUNT)).toBe(MIN_VIRTUAL_COUNT);
    expect(virtualCount(MIN_VIRTUAL_COUNT + 1)).toBe(2 * MIN_VIRTUAL_COUNT);
    expect(virtualCount(340_102)).toBe(524_288);
    // A whole 1M-item run's growth, one batch of 500 rows at a time: ~20 distinct counts, not ~700.
    const counts = new Set<number>();
    for (let length = 0; length <= 340_102; length += 500) counts.add(virtualCount(length));
    expect(counts.size).toBeLessThanOrEqual(20);
    for (let length = 0; length <= 5_000; length += 7) expect(virtualCount(length)).toBeGreaterThanOrEqual(length);
  });

  it('keeps the virtualizer from rebuilding its measurements while the view grows within one count', () => {
    // The premise of the rounding: a changed count rebuilds every measurement, an unchanged one does not.
    // (`getTotalSize` reads the measurements, rebuilding them when their inputs changed.)
    const v = virtualizer(virtualCount(3_000));
    v.getTotalSize();
    const before = v.measurementsCache;
    v.setOptions({ ...v.options, count: virtualCount(3_900) });
    v.getTotalSize();
    expect(v.measurementsCache).toBe(before);
    v.setOptions({ ...v.options, count: 3_900 });
    v.getTotalSize();
    expect(v.measurementsCache).not.toBe(before);
  });

  it('sizes the body to the view, not to the rounded count', () => {
    const count = virtualCount(3_000);
    const v = virtualizer(count);
    expect(bodyHeight(v.getTotalSize(), count, 3_000, 38)).toBe(3_000 * 38);
    expect(bodyHeight(0, 0, 0, 38)).toBe(0);
  });
});
