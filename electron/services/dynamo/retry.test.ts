import { describe, expect, it, vi } from 'vitest';
import { backoffDelay, sleep, withRetry } from './retry';

const policy = { maxAttempts: 4, baseMs: 10, capMs: 50 };
const throttle = (): Error => Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' });

describe('backoffDelay', () => {
  it('doubles the ceiling per attempt up to the cap (random = 1 shows the ceiling)', () => {
    const top = (): number => 0.999999;
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, policy, top))).toEqual([9, 19, 39, 49, 49]);
  });

  it('is full jitter: random = 0 gives no delay', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
  });

  it('never exceeds the cap however many attempts', () => {
    for (let a = 1; a < 200; a++) expect(backoffDelay(a, policy)).toBeLessThan(policy.capMs);
  });
});

describe('withRetry', () => {
  it('retries retryable errors and returns the eventual result', async () => {
    const call = vi.fn<() => Promise<string>>().mockRejectedValueOnce(throttle()).mockRejectedValueOnce(throttle()).mockResolvedValue('ok');
    const onRetry = vi.fn();
    await expect(withRetry(call, { policy, random: () => 0, onRetry })).resolves.toBe('ok');
    expect(call).toHaveBeenCalledTimes(3);
    expect(onRetry).toHaveBeenCalledTimes(2);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const call = vi.fn<() => Promise<string>>().mockRejectedValue(throttle());
    await expect(withRetry(call, { policy, random: () => 0 })).rejects.toThrow('slow down');
    expect(call).toHaveBeenCalledTimes(4);
  });

  it('does not retry what cannot succeed', async () => {
    const call = vi.fn<() => Promise<string>>().mockRejectedValue(Object.assign(new Error('bad'), { name: 'ValidationException' }));
    await expect(withRetry(call, { policy })).rejects.toThrow('bad');
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('stops waiting as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const call = vi.fn<() => Promise<string>>().mockRejectedValue(throttle());
    const running = withRetry(call, {
      policy: { maxAttempts: 5, baseMs: 60_000, capMs: 60_000 },
      random: () => 1,
      signal: controller.signal,
    });
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('sleep', () => {
  it('rejects at once when already aborted', async () => {
    await expect(sleep(10_000, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});
