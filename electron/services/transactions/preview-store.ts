/**
 * Previews kept by main under an id until they expire. Ten minutes is DynamoDB's idempotency
 * window for a ClientRequestToken: within it, re-sending the same preview is safe (no second effect).
 */
import { randomUUID } from 'node:crypto';
import type { BuiltTransaction, Preview, TransactionSpec } from '../../../shared/transactions/types';
import type { Convention, LockRule } from '../../../shared/model';

/** How long a preview (and its token) stays executable. */
export const PREVIEW_TTL_MS = 10 * 60 * 1000;

/** Milliseconds since the epoch; injectable so tests can move time. */
export type Clock = () => number;

/** Everything execute needs besides the preview itself. */
export interface StoredPreview {
  readonly preview: Preview;
  /** The connection it was made on: execute sends it on that connection only. */
  readonly connectionId: string;
  readonly built: BuiltTransaction;
  readonly convention: Convention;
  /** The rules the transaction's actions name, looked up once when it was built (execute uses them as they are). */
  readonly rules: ReadonlyMap<string, LockRule>;
  readonly spec: TransactionSpec;
  readonly expiresAtMs: number;
}

/** What `get` finds: the preview, or why there is none. */
export type PreviewLookup =
  { readonly found: true; readonly entry: StoredPreview } | { readonly found: false; readonly reason: 'expired' | 'unknown' };

/** What `claim` gets: the preview, now this caller's alone, or why not (another execute holds it, or it was sent already). */
export type PreviewClaim = PreviewLookup | { readonly found: false; readonly reason: 'executing' | 'executed' };

/** An in-memory store of previews with expiry; expired entries are dropped lazily. */
export class PreviewStore {
  private readonly entries = new Map<string, StoredPreview>();
  /** Previews an execute holds right now, or that were sent (kept until expiry so a repeat is told so). */
  private readonly claims = new Map<string, 'executing' | 'executed'>();

  constructor(
    readonly clock: Clock = Date.now,
    readonly ttlMs: number = PREVIEW_TTL_MS,
  ) {}

  /** A fresh preview id (opaque, URL-safe). */
  newId(): string {
    return `pv_${randomUUID().replace(/-/g, '')}`;
  }

  /** Keeps a preview until it expires. */
  put(entry: StoredPreview): void {
    this.prune();
    this.entries.set(entry.preview.id, entry);
  }

  /** Finds a preview; after its expiry it is reported as expired (once) and forgotten. */
  get(id: string): PreviewLookup {
    const entry = this.entries.get(id);
    if (!entry) return { found: false, reason: 'unknown' };
    if (this.clock() >= entry.expiresAtMs) {
      this.entries.delete(id);
      return { found: false, reason: 'expired' };
    }
    return { found: true, entry };
  }

  /**
   * Claims a preview for one execute. Synchronous, so two executes arriving together cannot both
   * get it (the event loop runs one claim to completion before the other): the second is told
   * `executing`, and a preview that was sent is `executed` — single use.
   */
  claim(id: string): PreviewClaim {
    const state = this.claims.get(id);
    if (state) return { found: false, reason: state };
    const found = this.get(id);
    if (found.found) this.claims.set(id, 'executing');
    return found;
  }

  /** Ends a claim: `sent` marks the preview used for good; otherwise (nothing sent) it may be executed again. */
  release(id: string, sent: boolean): void {
    if (sent && this.entries.has(id)) this.claims.set(id, 'executed');
    else this.claims.delete(id);
  }

  /** Forgets a preview (executed through a shell that never re-sends it: no reason to hold it for the full window). */
  delete(id: string): void {
    this.entries.delete(id);
    if (this.claims.get(id) !== 'executing') this.claims.delete(id);
  }

  /** Number of live previews (for tests and diagnostics). */
  size(): number {
    this.prune();
    return this.entries.size;
  }

  private prune(): void {
    const now = this.clock();
    for (const [id, entry] of this.entries) {
      if (now < entry.expiresAtMs) continue;
      this.entries.delete(id);
      if (this.claims.get(id) !== 'executing') this.claims.delete(id);
    }
  }
}
