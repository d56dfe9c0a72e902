/** Optional pacing of a scan so an audit does not eat production capacity. */
import { sleep } from '../dynamo/retry';

/** Limits for one scan; either or both. */
export interface RateLimit {
  /** Scan requests per second, across all segments. */
  readonly pagesPerSecond?: number;
  /** Read capacity units per second, across all segments (only effective where DynamoDB reports consumed capacity). */
  readonly capacityUnitsPerSecond?: number;
}

/**
 * Paces requests: each page reserves a slot of 1/pagesPerSecond, and consumed capacity is paid
 * back at capacityUnitsPerSecond before the next request goes out. Time is injectable for tests.
 */
export class RateLimiter {
  private nextPageAt = 0;
  private capacityFreeAt = 0;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** How long the next request must wait, reserving its slot (pure bookkeeping, no waiting). */
  reserve(): number {
    const now = this.now();
    let wait = 0;
    const pps = this.limit.pagesPerSecond;
    if (pps && pps > 0) {
      const at = Math.max(now, this.nextPageAt);
      this.nextPageAt = at + 1000 / pps;
      wait = at - now;
    }
    return Math.max(wait, this.capacityFreeAt - now, 0);
  }

  /** Records the capacity one page consumed; later requests wait until it is paid back. */
  consumed(capacityUnits: number): void {
    const rcu = this.limit.capacityUnitsPerSecond;
    if (!rcu || rcu <= 0 || capacityUnits <= 0) return;
    this.capacityFreeAt = Math.max(this.now(), this.capacityFreeAt) + (capacityUnits * 1000) / rcu;
  }

  /** Waits for the next request's slot (rejects promptly on abort). */
  async acquire(signal?: AbortSignal): Promise<void> {
    const wait = this.reserve();
    if (wait > 0) await sleep(wait, signal);
  }
}

/** True when the limit actually limits something. */
export function isLimited(limit: RateLimit | undefined): limit is RateLimit {
  return Boolean(limit && ((limit.pagesPerSecond ?? 0) > 0 || (limit.capacityUnitsPerSecond ?? 0) > 0));
}
