import { describe, expect, it } from 'vitest';
import { RateLimiter, isLimited } from './rate-limit';

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('RateLimiter', () => {
  it('spaces requests at 1/pagesPerSecond', () => {
    const c = clock();
    const limiter = new RateLimiter({ pagesPerSecond: 4 }, c.now);
    expect([limiter.reserve(), limiter.reserve(), limiter.reserve()]).toEqual([0, 250, 500]);
    c.advance(1_000);
    expect(limiter.reserve()).toBe(0);
  });

  it('makes the next request wait until consumed capacity is paid back', () => {
    const c = clock();
    const limiter = new RateLimiter({ capacityUnitsPerSecond: 100 }, c.now);
    expect(limiter.reserve()).toBe(0);
    limiter.consumed(50);
    expect(limiter.reserve()).toBe(500);
    c.advance(500);
    expect(limiter.reserve()).toBe(0);
  });

  it('ignores capacity when no capacity limit is set', () => {
    const limiter = new RateLimiter({ pagesPerSecond: 1_000 }, clock().now);
    limiter.consumed(1_000_000);
    expect(limiter.reserve()).toBe(0);
  });

  it('isLimited is false for empty or zero limits', () => {
    expect(isLimited(undefined)).toBe(false);
    expect(isLimited({})).toBe(false);
    expect(isLimited({ pagesPerSecond: 0 })).toBe(false);
    expect(isLimited({ capacityUnitsPerSecond: 5 })).toBe(true);
  });
});
