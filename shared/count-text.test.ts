import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countText } from './count-text';

describe('countText', () => {
  it('groups digits as en-US does', () => {
    expect(countText(0)).toBe('0');
    expect(countText(999)).toBe('999');
    expect(countText(1_000)).toBe('1,000');
    expect(countText(1_998)).toBe('1,998');
    expect(countText(200_002)).toBe('200,002');
    expect(countText(-1_234_567)).toBe('-1,234,567');
  });

  it('prints every number exactly as toLocaleString("en-US")', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double(), fc.constant(-0), fc.constant(2 ** 60)), (n) => {
        expect(countText(n)).toBe(n.toLocaleString('en-US'));
      }),
      { numRuns: 2_000 },
    );
  });
});
