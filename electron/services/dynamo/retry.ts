/** Retrying DynamoDB calls with capped exponential backoff and full jitter, cancellable. */
import { isRetryable } from './errors';

/** How often and how patiently to retry. */
export interface RetryPolicy {
  /** Attempts in total, the first included. */
  readonly maxAttempts: number;
  /** Delay scale of the first retry. */
  readonly baseMs: number;
  /** No single delay exceeds this. */
  readonly capMs: number;
}

/** Defaults: 10 attempts, 50 ms doubling to at most 5 s — rides out throttling bursts without hanging for minutes. */
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 10, baseMs: 50, capMs: 5_000 };

/**
 * The delay before retry number `attempt` (1 = first retry): "full jitter" — uniform in
 * [0, min(cap, base·2^(attempt-1))] — so parallel segments throttled together do not retry in lockstep.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy = DEFAULT_RETRY, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** An Error with name AbortError, as fetch and the SDK throw. */
export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const error = new Error('The operation was aborted');
  error.name = 'AbortError';
  return error;
}

/** Waits `ms`, or rejects with an AbortError as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Options for withRetry. */
export interface RetryOptions {
  readonly policy?: RetryPolicy;
  readonly signal?: AbortSignal;
  /** Called before each retry with the error that caused it (progress counts retries). */
  readonly onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  readonly random?: () => number;
}

/** Runs `call` until it succeeds, fails with a non-retryable error, or runs out of attempts (then the last error is thrown). */
export async function withRetry<T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const policy = options.policy ?? DEFAULT_RETRY;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (options.signal?.aborted) throw abortError(options.signal);
      if (attempt >= policy.maxAttempts || !isRetryable(error)) throw error;
      const delay = backoffDelay(attempt, policy, options.random);
      options.onRetry?.(error, attempt, delay);
      await sleep(delay, options.signal);
    }
  }
}
