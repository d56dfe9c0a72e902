/**
 * Writes kept by main under an id until they expire: previews and repair plans alike. Ten minutes is
 * DynamoDB's idempotency window for a ClientRequestToken: within it, re-sending the same request is
 * safe (no second effect). The store knows the terms every kept write is held to (who owns it, where
 * it was made, what must be typed back); the gate (write-gate.ts) judges them, in one set of words.
 */
import { randomUUID } from 'node:crypto';
import type { PreviewConnection } from '../../../shared/transactions/types';

/** How long a kept write (and its tokens) stays executable. */
export const PREVIEW_TTL_MS = 10 * 60 * 1000;

/** Milliseconds since the epoch; injectable so tests can move time. */
export type Clock = () => number;

/** What every kept write is held to, whatever it carries. */
export interface KeptTerms {
  readonly id: string;
  /** Who may execute it: the connection id it was made on (the CLI: its connection label). */
  readonly owner: string;
  /** Where its reads went and its copy-as commands point: another place is another database. */
  readonly where: PreviewConnection;
  /** The text a person types back to execute it. */
  readonly confirm: string;
  /** What typing `confirm` does, for the refusal of a wrong one ("claim", "execute the plan (the number of actions)"). */
  readonly confirmFor: string;
  readonly expiresAtMs: number;
}

/** The words a kind of kept write is spoken of in (one set of messages for every kind). */
export interface KeptWords {
  /** "preview", "repair plan". */
  readonly noun: string;
  /** What to do to get a fresh one: "preview again", "plan again". */
  readonly again: string;
  /** The argument naming its id. */
  readonly field: string;
  /** Prefix of its ids. */
  readonly prefix: string;
}

/** Why a kept write was not found, or may not be claimed now. */
export type KeptMiss = 'unknown' | 'expired' | 'executing' | 'executed';

/** What `get` finds: the entry, or why there is none. */
export type KeptLookup<T> = { readonly found: true; readonly entry: T } | { readonly found: false; readonly reason: 'expired' | 'unknown' };

/** What `claim` gets: the entry, now this caller's alone, or why not (another execute holds it, or it was sent already). */
export type KeptClaim<T> = KeptLookup<T> | { readonly found: false; readonly reason: 'executing' | 'executed' };

/** An in-memory store of kept writes with expiry and single-use claims; expired entries are dropped lazily. */
export class KeptWrites<T extends KeptTerms> {
  private readonly entries = new Map<string, T>();
  /** Entries an execute holds right now, or that were sent (kept until expiry so a repeat is told so). */
  private readonly claims = new Map<string, 'executing' | 'executed'>();

  constructor(
    readonly words: KeptWords,
    readonly clock: Clock = Date.now,
    readonly ttlMs: number = PREVIEW_TTL_MS,
  ) {}

  /** A fresh id (opaque, URL-safe). */
  newId(): string {
    return `${this.words.prefix}${randomUUID().replace(/-/g, '')}`;
  }

  /** Keeps an entry until it expires. */
  put(entry: T): void {
    this.prune();
    this.entries.set(entry.id, entry);
  }

  /** Finds an entry; after its expiry it is reported as expired (once) and forgotten. */
  get(id: string): KeptLookup<T> {
    const entry = this.entries.get(id);
    if (!entry) return { found: false, reason: 'unknown' };
    if (this.clock() >= entry.expiresAtMs) {
      this.entries.delete(id);
      return { found: false, reason: 'expired' };
    }
    return { found: true, entry };
  }

  /**
   * Claims an entry for one execute. Synchronous, so two executes arriving together cannot both
   * get it (the event loop runs one claim to completion before the other): the second is told
   * `executing`, and one that was sent is `executed` — single use.
   */
  claim(id: string): KeptClaim<T> {
    const state = this.claims.get(id);
    if (state) return { found: false, reason: state };
    const found = this.get(id);
    if (found.found) this.claims.set(id, 'executing');
    return found;
  }

  /** Ends a claim: `sent` marks the entry used for good; otherwise (nothing sent) it may be executed again. */
  release(id: string, sent: boolean): void {
    if (sent && this.entries.has(id)) this.claims.set(id, 'executed');
    else this.claims.delete(id);
  }

  /** Forgets an entry (executed through a shell that never re-sends it: no reason to hold it for the full window). */
  delete(id: string): void {
    this.entries.delete(id);
    if (this.claims.get(id) !== 'executing') this.claims.delete(id);
  }

  /** Number of live entries (for tests and diagnostics). */
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
