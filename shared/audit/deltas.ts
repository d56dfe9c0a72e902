/**
 * The audit engine's delta bookkeeping, used only while a watcher reads deltas (the app): which
 * rows changed since the last delta, which are held back while the scan runs, which orphan rows a
 * watcher has received and must be told to remove. The CLI, export and watch audits run without it.
 */
import type { KeySchema } from '../model';
import { idOf, lockCount, type AccountState, type LockState, type RowState } from './state';
import type { AccountGroup, AuditCounts, GroupRow } from './types';

/** Rows to send and row ids to remove, as AuditEngine.takeDelta returns them (counts aside). */
export interface RowChanges {
  readonly upserted: GroupRow[];
  readonly removed: string[];
}

/**
 * Accounts awaiting a lock that go out marked `checking` while the scan runs, per audit: the first
 * screens of rows appear with the first scanned pages instead of when the first account's locks have
 * all been read. The rest are held back until they settle, as before: each checking row is sent
 * again once settled, and re-sending every account that waits for a lock doubled what a watcher
 * receives (see AuditEngine.takeDelta).
 */
export const CHECKING_ROWS = 500;

/** Pending rows of one audit between two takeDelta calls (see AuditEngine.takeDelta for what is held back and why). */
export class DeltaQueue {
  private readonly pendingUpsert = new Set<RowState>();
  /** Accounts held back while streaming because a lock of theirs has not been read yet. */
  private readonly heldAccounts = new Set<AccountState>();
  /** Accounts sent marked `checking` and not yet sent settled. */
  private readonly checkingSent = new Set<AccountState>();
  /** How many more accounts may go out marked `checking`. */
  private checkingLeft = CHECKING_ROWS;
  /** Orphan lock rows not yet sent: kept apart, because one seen before its account is provisional. */
  private readonly pendingStrays = new Set<LockState>();
  /** Orphan lock rows that went out in a delta: only these need a removal when their account arrives. */
  private readonly sentStrays = new Set<LockState>();
  private readonly pendingRemoved = new Set<string>();

  /** Rows are removed by the id of the key schema's states. */
  constructor(private readonly keys: KeySchema) {}

  /** A row was added or changed. */
  changed(state: RowState): void {
    this.pendingUpsert.add(state);
  }

  /** A lock became an orphan: its row goes out once the scan has settled. */
  strayed(lock: LockState): void {
    this.pendingStrays.add(lock);
  }

  /** A lock is no longer an orphan: its row is dropped, and removed where a watcher received it. */
  unstrayed(lock: LockState): void {
    this.pendingStrays.delete(lock);
    // A row the watcher never received needs no removal.
    if (this.sentStrays.delete(lock)) this.pendingRemoved.add(idOf(lock, this.keys));
  }

  /** Takes at most `max` rows (the rest stay pending); with `settled: false`, provisional rows are held back. */
  take(max: number, settled: boolean, rowOf: (state: RowState) => GroupRow | undefined): RowChanges {
    const upserted: GroupRow[] = [];
    for (const state of this.pendingUpsert) {
      if (upserted.length >= max) break;
      this.pendingUpsert.delete(state);
      if (!settled && state.kind === 'account' && awaitsLock(state)) {
        const row = this.checkingSent.has(state) || this.checkingLeft > 0 ? rowOf(state) : undefined;
        if (row?.kind === 'account') {
          if (!this.checkingSent.has(state)) this.checkingLeft--;
          this.checkingSent.add(state);
          upserted.push(checkingRow(row));
        } else this.heldAccounts.add(state);
        continue;
      }
      if (state.kind === 'account') {
        this.heldAccounts.delete(state);
        this.checkingSent.delete(state);
      }
      const row = rowOf(state);
      if (row) upserted.push(row);
    }
    if (settled) {
      for (const waiting of [this.heldAccounts, this.checkingSent])
        for (const state of waiting) {
          if (upserted.length >= max) break;
          waiting.delete(state);
          const row = rowOf(state);
          if (row) upserted.push(row);
        }
      for (const lock of this.pendingStrays) {
        if (upserted.length >= max) break;
        this.pendingStrays.delete(lock);
        const row = rowOf(lock);
        if (!row) continue;
        upserted.push(row);
        this.sentStrays.add(lock);
      }
    }
    const removed = [...this.pendingRemoved];
    this.pendingRemoved.clear();
    return { upserted, removed };
  }

  /** Counts while the scan runs: the accounts awaiting a lock are `checking`, their missing locks not yet counted. */
  unsettled(counts: AuditCounts): AuditCounts {
    // Each waiting account is in one of the two sets until a take sees its lock: read as it stands after
    // the last take (an account whose lock came in a page this take left pending still counts), not
    // re-checked here: one pass over tens of thousands of accounts per delta showed up in the server's CPU.
    const checking = this.heldAccounts.size + this.checkingSent.size;
    // Every missing lock while the scan runs is one not read yet: each is an awaited value of a waiting account.
    return { ...counts, summary: { ...counts.summary, 'missing-lock': 0 }, checking };
  }
}

// An account row as it goes out while a lock of its is still awaited: checking, its missing lock not (yet) a problem.
function checkingRow(row: AccountGroup): AccountGroup {
  return { ...row, problems: row.problems.filter((kind) => kind !== 'missing-lock'), checking: true };
}

// True while one of the account's values has no lock item read so far.
function awaitsLock(state: AccountState): boolean {
  const entries = state.entries;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry === undefined) continue;
    // A value held as a string (compact mode): this account is its only holder, and its bit says whether the canonical lock was read.
    if (typeof entry === 'string' ? (state.locked & (1 << i)) === 0 : lockCount(entry) === 0) return true;
  }
  return false;
}
