import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatMs,
  formatRate,
  formatRatio,
  interleave,
  itemsPerSecond,
  markdownTable,
  median,
  percentile,
  ratio,
  textTable,
} from './stats';

describe('median and percentile', () => {
  it('takes the middle value of an odd count and the mean of the middle two of an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('is NaN for no values', () => {
    expect(median([])).toBeNaN();
    expect(percentile([], 95)).toBeNaN();
  });

  it('interpolates between closest ranks like PERCENTILE.INC', () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile(values, 100)).toBe(20);
    expect(percentile(values, 95)).toBeCloseTo(19.05, 10);
    expect(percentile([10, 20], 50)).toBe(15);
  });

  it('does not reorder the caller’s list', () => {
    const values = [3, 1, 2];
    percentile(values, 50);
    expect(values).toEqual([3, 1, 2]);
  });

  it('rejects a percentile outside 0..100', () => {
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], -1)).toThrow(RangeError);
  });
});

describe('ratio and rate', () => {
  it('divides by a positive baseline only', () => {
    expect(ratio(110, 100)).toBeCloseTo(1.1, 10);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(1, Number.NaN)).toBeNaN();
  });

  it('computes items per second', () => {
    expect(itemsPerSecond(200_000, 4_000)).toBe(50_000);
    expect(itemsPerSecond(1, 0)).toBeNaN();
  });
});

describe('formatting', () => {
  it('formats durations', () => {
    expect(formatMs(850.4)).toBe('850 ms');
    expect(formatMs(12_345)).toBe('12.35 s');
    expect(formatMs(123_456)).toBe('123.5 s');
    expect(formatMs(Number.NaN)).toBe('–');
  });

  it('formats bytes in binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GiB');
    expect(formatBytes(-2048)).toBe('-2.0 KiB');
  });

  it('formats rates and ratios', () => {
    expect(formatRate(61_234.4)).toBe('61,234/s');
    expect(formatRatio(1.0449)).toBe('1.04×');
    expect(formatRatio(Number.POSITIVE_INFINITY)).toBe('–');
  });

  it('aligns a text table', () => {
    expect(textTable(['a', 'bb'], [['ccc', 'd']])).toBe('a    bb\n---  --\nccc  d');
  });

  it('writes a Markdown table, escaping pipes', () => {
    expect(markdownTable(['x'], [['a|b']])).toBe('| x |\n| --- |\n| a\\|b |');
  });
});

describe('interleave', () => {
  it('rotates the order every run so each variant leads once per cycle', () => {
    const v = ['raw', 'single', 'audit'];
    expect(interleave(v, 0)).toEqual(['raw', 'single', 'audit']);
    expect(interleave(v, 1)).toEqual(['single', 'audit', 'raw']);
    expect(interleave(v, 2)).toEqual(['audit', 'raw', 'single']);
    expect(interleave(v, 3)).toEqual(v);
    expect(interleave([], 4)).toEqual([]);
  });
});
