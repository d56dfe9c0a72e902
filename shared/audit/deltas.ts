/**
 * The audit engine's delta bookkeeping, used only while a watcher reads deltas (the app): which
 * rows changed since the last delta, which are held back while the scan runs, which orphan rows a
 * watcher has received and must be told to remove. The CLI, export and watch audits run without it.
 */
import type { KeySchema } from '../model';
import { idOf, lockCount, type AccountState, type LockState, type RowState } from './state';
import type { GroupRow } from './types';

/** Rows to send and row ids to remove, as AuditEngine.takeDelta returns them (counts aside). */
export interface RowChanges {
  readonly upserted: GroupRow[];
  readonly removed: string[];
}

/** Pending rows of one audit between two takeDelta calls (see AuditEngine.takeDelta for what is held back and why). */
export class DeltaQueue {
  private readonly pendingUpsert = new Set<RowState>();
  /** Accounts held back while streaming because a lock of theirs has not been read yet. */
  private readonly heldAccounts = new Set<AccountState>();
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
        this.heldAccounts.add(state);
        continue;
      }
      if (state.kind === 'account') this.heldAccounts.delete(state);
      const row = rowOf(state);
      if (row) upserted.push(row);
    }
    if (settled) {
      for (const state of this.heldAccounts) {
        if (upserted.length >= max) break;
        this.heldAccounts.delete(state);
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
}

// True while one of the account's values has no lock item read so far.
function awaitsLock(state: AccountState): boolean {
  // Only with deltas, where every value has an entry.
  for (const entry of state.entries) if (entry !== undefined && typeof entry !== 'string' && lockCount(entry) === 0) return true;
  return false;
}
