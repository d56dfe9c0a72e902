import { describe, expect, it } from 'vitest';
import { extrasOf, rowAt, rowStart, scrollToReveal, totalHeight, visibleRange, type RowGeometry } from './virtual-window';

const H = 38;
const flat = (length: number): RowGeometry => ({ length, rowHeight: H, extras: [] });
// Rows 3 and 10 expanded: 100 px and 200 px tall.
const open: RowGeometry = {
  length: 20,
  rowHeight: H,
  extras: extrasOf(
    [
      { index: 10, height: 200 },
      { index: 3, height: 100 },
    ],
    20,
    H,
  ),
};

describe('the virtual window', () => {
  it('places collapsed rows at index × row height, and rows after an expanded one below its extra height', () => {
    expect(rowStart(flat(100), 0)).toBe(0);
    expect(rowStart(flat(100), 7)).toBe(7 * H);
    expect(rowStart(open, 3)).toBe(3 * H);
    expect(rowStart(open, 4)).toBe(3 * H + 100);
    expect(rowStart(open, 11)).toBe(11 * H + (100 - H) + (200 - H));
    expect(totalHeight(open)).toBe(20 * H + (100 - H) + (200 - H));
  });

  it('finds the row covering an offset, inside an expanded row too, clamped to the view', () => {
    expect(rowAt(flat(0), 0)).toBe(-1);
    expect(rowAt(flat(100), 0)).toBe(0);
    expect(rowAt(flat(100), H - 1)).toBe(0);
    expect(rowAt(flat(100), H)).toBe(1);
    expect(rowAt(flat(100), 1e9)).toBe(99);
    expect(rowAt(open, 3 * H + 99)).toBe(3);
    expect(rowAt(open, 3 * H + 100)).toBe(4);
    for (let offset = 0; offset < totalHeight(open); offset += 7) {
      const index = rowAt(open, offset);
      expect(rowStart(open, index)).toBeLessThanOrEqual(offset);
      expect(rowStart(open, index + 1)).toBeGreaterThan(offset);
    }
  });

  it('renders the rows in view plus the overscan, never a place past the length', () => {
    expect(visibleRange(flat(0), 0, 500, 4)).toEqual({ first: 0, last: -1 });
    expect(visibleRange(flat(1_000), 0, 10 * H, 4)).toEqual({ first: 0, last: 13 });
    expect(visibleRange(flat(1_000), 100 * H, 10 * H, 4)).toEqual({ first: 96, last: 113 });
    expect(visibleRange(flat(5), 0, 10 * H, 4)).toEqual({ first: 0, last: 4 });
  });

  it('answers in time independent of the length (a million rows, no pass over them)', () => {
    const huge = flat(1_000_000);
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) visibleRange(huge, (i * 997 * H) % (1_000_000 * H), 900, 4);
    expect(performance.now() - started).toBeLessThan(200);
    expect(visibleRange(huge, 999_990 * H, 900, 4).last).toBe(999_999);
  });

  it('keeps only expanded rows inside the view, the tallest per place', () => {
    expect(
      extrasOf(
        [
          { index: 5, height: 50 },
          { index: 30, height: 90 },
          { index: 5, height: 80 },
        ],
        20,
        H,
      ),
    ).toEqual([{ index: 5, extra: 80 - H }]);
  });

  it('scrolls the least that shows a row whole below the sticky header, and not at all when it is shown', () => {
    const header = 40;
    // 10 rows of view below the header.
    const viewport = header + 10 * H;
    expect(scrollToReveal(flat(100), 5, 0, viewport, header)).toBeUndefined();
    // Down past the bottom: the row's bottom meets the view's bottom.
    expect(scrollToReveal(flat(100), 10, 0, viewport, header)).toBe(header + 11 * H - viewport);
    // Up past the top: the row's top meets the header's bottom.
    expect(scrollToReveal(flat(100), 2, 20 * H, viewport, header)).toBe(2 * H);
    expect(scrollToReveal(flat(100), 100, 0, viewport, header)).toBeUndefined();
    // An expanded row taller than the view shows its top.
    const tall: RowGeometry = { length: 100, rowHeight: H, extras: [{ index: 50, extra: 1_000 }] };
    expect(scrollToReveal(tall, 50, 0, viewport, header)).toBe(50 * H);
  });
});
