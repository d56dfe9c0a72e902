/**
 * Reuses a recent answer: the first call for a key loads, calls within `reuseMs` get the same
 * promise (concurrent callers included), a failed answer is forgotten at once so the next call
 * retries. At most `max` keys are kept; when full, the cache is simply emptied.
 */
import type { Result } from '../../shared/result';

/** See {@link recentCache}. */
export interface RecentCache<T> {
  get(key: string, load: () => Promise<Result<T>>): Promise<Result<T>>;
}

/** A cache of recent `Result` promises; `clock` is injectable for tests. */
export function recentCache<T>(reuseMs: number, max: number, clock: () => number = Date.now): RecentCache<T> {
  const kept = new Map<string, { readonly at: number; readonly answer: Promise<Result<T>> }>();
  return {
    get(key, load) {
      const now = clock();
      const hit = kept.get(key);
      if (hit && now - hit.at < reuseMs) return hit.answer;
      const answer = load();
      if (kept.size >= max) kept.clear();
      kept.set(key, { at: now, answer });
      const forget = (): void => {
        if (kept.get(key)?.answer === answer) kept.delete(key);
      };
      answer.then((r) => (r.ok ? undefined : forget()), forget);
      return answer;
    },
  };
}
