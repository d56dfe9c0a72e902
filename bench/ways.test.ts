import { describe, expect, it } from 'vitest';
import { modelOverheadLine, uiLine } from './ways';

describe('modelOverheadLine', () => {
  it('gives the medians and the median of the paired ratios', () => {
    const line = modelOverheadLine([1000, 2000, 3000], [1100, 2000, 3300]);
    expect(line).toContain('3 paired runs');
    expect(line).toContain('2.00 s vs 2.00 s');
    expect(line).toContain('1.10×');
  });
});

describe('uiLine', () => {
  const ui = {
    firstRowsMs: 450,
    completeMs: 3000,
    completeVsRaw: 1.6,
    maxLongTaskMs: 0,
    maxScrollLongTaskMs: 0,
    heapBytes: Number.NaN,
    pageHeapBytes: Number.NaN,
    longTasks: 0,
    scrollP50: 16,
    scrollP95: 17,
    frames: 100,
    rows: '10 rows',
    baselineP50: 16,
    baselineP95: 17,
  };

  it('names the way and gives each target its verdict against the whole raw-scan process', () => {
    const line = uiLine('through the latency model', ui);
    expect(line.startsWith('through the latency model: UI, a first open')).toBe(true);
    expect(line).toContain('first rows 450 ms (target ≤ 500 ms: met)');
    expect(line).toContain('1.60× a whole raw-scan process (target ≤ 1.5×: MISSED)');
  });
});
