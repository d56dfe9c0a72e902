/**
 * Previews kept by main under an id until they expire. Ten minutes is DynamoDB's idempotency
 * window for a ClientRequestToken: within it, re-sending the same preview is safe (no second effect).
 */
import { randomUUID } from 'node:crypto';
import type { BuiltTransaction, Preview, ReleaseSpec, TransactionSpec } from '../../../shared/transactions/types';
import type { Convention } from '../../../shared/model';

/** How long a preview (and its token) stays executable. */
export const PREVIEW_TTL_MS = 10 * 60 * 1000;

/** Milliseconds since the epoch; injectable so tests can move time. */
export type Clock = () => number;

/** Everything execute needs besides the preview itself. */
export interface StoredPreview {
  readonly preview: Preview;
  readonly built: BuiltTransaction;
  readonly convention: Convention;
  readonly spec: TransactionSpec;
  readonly expiresAtMs: number;
}

/** What `get` finds: the preview, or why there is none. */
export type PreviewLookup = { readonly found: true; readonly entry: StoredPreview } | { readonly found: false; readonly reason: 'expired' | 'unknown' };

/** An in-memory store of previews with expiry; expired entries are dropped lazily. */
export class PreviewStore {
  private readonly entries = new Map<string, StoredPreview>();

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

  /** Forgets a preview (executed through a shell that never re-sends it: no reason to hold it for the full window). */
  delete(id: string): void {
    this.entries.delete(id);
  }

  /** Number of live previews (for tests and diagnostics). */
  size(): number {
    this.prune();
    return this.entries.size;
  }

  private prune(): void {
    const now = this.clock();
    for (const [id, entry] of this.entries) if (now >= entry.expiresAtMs) this.entries.delete(id);
  }
}

/** Narrows a stored spec to a release (execute re-checks holders for those). */
export function isRelease(spec: TransactionSpec): spec is ReleaseSpec {
  return spec.kind === 'release';
}
