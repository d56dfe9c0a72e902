/**
 * The settle window. A TransactWriteItems reaches the stream as several records (new lock, old
 * lock deleted, account updated) that may arrive in any order, even on different shards; checking
 * after the first one would see a half-applied transaction. So a touched scope waits until no record
 * has touched it for `settleMs`, and never longer than `maxWaitMs` after the first (a hot value
 * still gets checked). Pure: the caller passes the clock.
 */
import type { Convention } from '../model';
import type { WatchCause } from './watch-events';
import { mergeScopes, type WatchScope } from './scopes';

/** A scope ready for its consistent re-check, with the latest record that touched it. */
export interface DueCheck {
  readonly scope: WatchScope;
  readonly cause: WatchCause;
  /** A second look: the first re-read saw the scope's problems change (see watch.ts). */
  readonly confirm: boolean;
}

interface Pending {
  scope: WatchScope;
  cause: WatchCause;
  confirm: boolean;
  readonly first: number;
  last: number;
}

/** Settle-window timing. */
export interface SettleOptions {
  readonly settleMs: number;
  /** Upper bound of a scope's wait, from its first record (default 4 × settleMs). */
  readonly maxWaitMs?: number;
  /** Above this many pending scopes the queue reports itself full, so the reader waits (memory stays bounded). */
  readonly maxPending?: number;
}

/** Default settle window: DynamoDB writes a transaction's records within milliseconds of each other. */
export const DEFAULT_SETTLE_MS = 2_000;

/**
 * True when `a` was written before `b` by their stream times. DynamoDB rounds those (to the second on
 * AWS, the minute on DynamoDB Local): records of one instant are not ordered by it, and arrival decides.
 */
function writtenBefore(a: WatchCause, b: WatchCause): boolean {
  return Date.parse(a.at) < Date.parse(b.at);
}

/** Scopes waiting for their records to settle. */
export class SettleQueue {
  private readonly pending = new Map<string, Pending>();
  private readonly settleMs: number;
  private readonly maxWaitMs: number;
  private readonly maxPending: number;

  /** An empty queue for `convention` (used to merge scopes). */
  constructor(
    private readonly convention: Convention,
    options: SettleOptions,
  ) {
    this.settleMs = options.settleMs;
    this.maxWaitMs = options.maxWaitMs ?? options.settleMs * 4;
    this.maxPending = options.maxPending ?? 10_000;
  }

  /** Records that `cause` touched `scopes` at time `now` (ms); `confirm` asks for a second look at a changed scope. */
  add(scopes: readonly WatchScope[], cause: WatchCause, now: number, confirm = false): void {
    for (const scope of scopes) {
      const known = this.pending.get(scope.id);
      if (known) {
        known.scope = mergeScopes(known.scope, scope, this.convention);
        // A second look keeps the newest record: the one a write that landed meanwhile produced.
        // Newest by the stream's time, then by arrival: shards and a lock table's stream are polled
        // apart, so a record written earlier can arrive later and must not be named over a later write.
        if (!confirm && !writtenBefore(cause, known.cause)) known.cause = cause;
        known.confirm ||= confirm;
        known.last = now;
      } else this.pending.set(scope.id, { scope, cause, confirm, first: now, last: now });
    }
  }

  /** Removes and returns the scopes whose window has passed at `now`. */
  takeDue(now: number): DueCheck[] {
    const out: DueCheck[] = [];
    for (const [id, p] of this.pending) {
      if (Math.min(p.last + this.settleMs, p.first + this.maxWaitMs) > now) continue;
      this.pending.delete(id);
      out.push({ scope: p.scope, cause: p.cause, confirm: p.confirm });
    }
    return out;
  }

  /** Scopes waiting. */
  get size(): number {
    return this.pending.size;
  }

  /** True when the reader should wait for checks to drain before adding more. */
  get full(): boolean {
    return this.pending.size >= this.maxPending;
  }
}
