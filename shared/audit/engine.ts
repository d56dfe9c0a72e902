/**
 * The streaming audit engine: feed scan pages in any order from any segment, read counts,
 * rows, deltas and problems at any time. Items are filed by `ItemIndex` (item-index.ts);
 * problems are recomputed lazily, once per touched (rule, value) entry, when
 * counts/rows/problems are read, so a million-item audit stays O(n).
 */
import { joinKey, type ScopeValues } from '../conventions/scope';
import type { Convention, Item, PlainKey, Problem, ProblemKind, ProblemSummary } from '../model';
import { PROBLEM_KINDS } from '../model';
import { fitWarnings, ruleFits } from './fit';
import { accountRow, entryProblems, malformedProblem, malformedRow, orphanRow } from './derive';
import { DeltaQueue } from './deltas';
import { ItemIndex } from './item-index';
import { compareProblems } from './problem-rules';
import {
  byId,
  compareText,
  entryOf,
  hasCanonicalLock,
  holderCount,
  holdersOf,
  idOf,
  keyOfState,
  locksOf,
  storeLocks,
  type Entry,
  type LockState,
  type RowState,
} from './state';
import type { AuditCounts, AuditDelta, AuditReport, GroupRow } from './types';

export { projectionFor } from './projection';

/** Engine options. */
export interface AuditEngineOptions {
  /**
   * Track changed rows for takeDelta (default true). The CLI turns it off: it only reads the
   * final report, and the pending-row set would otherwise grow to the size of the table.
   */
  readonly trackDeltas?: boolean;
}

const NO_PROBLEMS: readonly Problem[] = [];
const NO_LOCKS: readonly LockState[] = [];

/**
 * The pure, incremental audit of one table under one convention. Each item must be fed once
 * (a parallel scan never returns an item twice); start a new engine to audit again.
 */
export class AuditEngine {
  readonly convention: Convention;
  private readonly trackDeltas: boolean;
  private readonly items: ItemIndex;
  /**
   * Entries whose problems must be recomputed, while deltas are tracked. Without deltas nothing is
   * queued per item: the first read after a change recomputes every entry (the CLI reads once, at the end).
   */
  private readonly dirty = new Set<Entry>();
  /**
   * Items were added since problems were last settled: without deltas every entry is recomputed on the
   * next read; with deltas, the next settled read gives the compact slots that have a problem (a lone
   * account's missing lock, a lone canonical lock) their entries.
   */
  private stale = false;
  /** The problems of the entries that have any (about 1% of a table's values), as of the last flush. */
  private readonly problemsByEntry = new Map<Entry, readonly Problem[]>();
  /** The rows changed since the last delta; undefined without deltas. */
  private readonly deltas: DeltaQueue | undefined;
  private readonly summary: Record<ProblemKind, number>;

  /** Starts an empty audit for `convention`. */
  constructor(convention: Convention, options: AuditEngineOptions = {}) {
    this.convention = convention;
    this.trackDeltas = options.trackDeltas ?? true;
    this.deltas = this.trackDeltas ? new DeltaQueue(convention.keys) : undefined;
    this.summary = Object.fromEntries(PROBLEM_KINDS.map((k) => [k, 0])) as Record<ProblemKind, number>;
    this.items = new ItemIndex(convention, {
      summary: this.summary,
      dirty: this.trackDeltas ? this.dirty : undefined,
      deltas: this.deltas,
      // Tracking deltas too: a full entry per value had cost the app's audits about twice the CPU (figures: docs/benchmarks.md).
      compact: convention.rules.length <= 30,
    });
  }

  /**
   * Feeds one scan page (any order, any segment). With a convention that names a lock table, pages
   * of that table come with `from: 'lock-table'`: only locks count there, and a lock found in the
   * accounts table is malformed (the library checks the lock table, so it protects nothing).
   */
  addItems(items: readonly Item[], from: 'table' | 'lock-table' = 'table'): void {
    if (items.length > 0) this.stale = true;
    this.items.addItems(items, from);
  }

  /** The join entry of `account`'s value under rule `ruleIndex` (see entryOf). */
  private readonly entryView = (account: Parameters<typeof entryOf>[0], ruleIndex: number): Entry | undefined =>
    entryOf(account, ruleIndex, this.items.canonical[ruleIndex]);

  /**
   * Rows added or changed and rows removed since the last call (at most `max` upserts; the rest stay
   * pending), with fresh counts. With `settled: false` (while a scan runs), rows whose state is only
   * provisional are held back: orphan locks (most are locks whose account has not been read yet) and
   * accounts with a value whose lock has not been read yet (a "missing" lock that usually turns up
   * moments later). Sending those only to retract or change them doubled what a watcher receives
   * (61k orphan rows and 60k account re-sends in a 200k-item table). Pass `settled: true` (the
   * default) once the scan has ended: every held row goes out then, as it finally is. Duplicates are
   * never held: a second holder of a value is certain the moment it is read. The first CHECKING_ROWS
   * waiting accounts go out at once marked `checking` (deltas.ts), and the counts of an unsettled
   * delta name the waiting accounts instead of counting their locks missing.
   */
  takeDelta(max = Number.POSITIVE_INFINITY, settled = true): AuditDelta {
    this.flush(settled);
    const { upserted, removed } = this.deltas?.take(max, settled, (state) => this.rowOf(state)) ?? { upserted: [], removed: [] };
    const counts = this.countsNow();
    return { upserted, removed, counts: settled || !this.deltas ? counts : this.deltas.unsettled(counts) };
  }

  /** Running totals (items scanned, accounts, lock items incl. malformed ones, problems per kind). */
  counts(): AuditCounts {
    this.flush();
    return this.countsNow();
  }

  /** Every current row: accounts, orphan locks and malformed locks, ordered by id. */
  rows(): GroupRow[] {
    this.flush();
    const states: RowState[] = [...this.items.accounts, ...this.items.malformed];
    // A canonical form is never a stray: flush stores a real lock for every orphan.
    for (const byValue of this.items.index)
      for (const slot of byValue.values())
        if (!('kind' in slot) && !hasCanonicalLock(slot)) for (const lock of locksOf(slot)) if (lock.stray) states.push(lock);
    const keys = this.convention.keys;
    states.sort((a, b) => compareText(idOf(a, keys), idOf(b, keys)));
    const out: GroupRow[] = [];
    for (const state of states) {
      const row = this.rowOf(state);
      if (row) out.push(row);
    }
    return out;
  }

  /** Every problem found so far, in report order (kind, rule, value). */
  problems(): Problem[] {
    this.flush();
    const out: Problem[] = [];
    for (const problems of this.problemsByEntry.values()) out.push(...problems);
    for (const state of this.items.malformed) out.push(malformedProblem(this.convention, state));
    return out.sort(compareProblems);
  }

  /**
   * The accounts read holding `normalized` under rule `ruleIndex` (in `scope`, for a scoped rule):
   * what a lookup needs from a finished audit instead of a scan. Keys only, in key order; callers re-read them.
   */
  holderKeys(ruleIndex: number, normalized: string, scope?: ScopeValues): PlainKey[] {
    const slot = this.items.index[ruleIndex]?.get(joinKey(scope, normalized));
    const keys = this.convention.keys;
    if (slot === undefined || ('kind' in slot && slot.kind === 'canonical')) return [];
    if ('kind' in slot) return [keyOfState(slot, keys)];
    return byId(holdersOf(slot), keys).map((h) => keyOfState(h, keys));
  }

  /** How many join entries the engine stores (in compact mode, none for a healthy value): for tests and probes. */
  joinEntries(): number {
    let n = 0;
    for (const byValue of this.items.index) for (const slot of byValue.values()) if (!('kind' in slot)) n++;
    return n;
  }

  /** Per rule index: the distinct values accounts hold (see fit.ts). */
  heldValues(): number[] {
    this.flush();
    return this.items.index.map((byValue) => {
      let n = 0;
      byValue.forEach((slot) => {
        if ('kind' in slot ? slot.kind === 'account' : holderCount(slot) > 0) n++;
      });
      return n;
    });
  }

  /** The key texts kept for the fit's embedding test (bounded, see KeySample). */
  otherKeys(): readonly string[] {
    return this.items.others.texts();
  }

  /** The report `audit --json` prints; `complete: false` with a reason when the scan did not finish. */
  report(meta: { readonly table: string; readonly complete: boolean; readonly reason?: string }): AuditReport {
    const counts = this.counts();
    const head =
      meta.reason === undefined
        ? { table: meta.table, complete: meta.complete }
        : { table: meta.table, complete: meta.complete, reason: meta.reason };
    const problems = this.problems();
    // Measured on the whole table only: half a scan reads accounts whose locks come later as "missing".
    const warnings = meta.complete
      ? fitWarnings(ruleFits({ convention: this.convention, problems, held: this.heldValues(), otherKeys: this.items.others.texts() }))
      : [];
    return { ...head, ...counts, convention: this.convention, problems, warnings };
  }

  private countsNow(): AuditCounts {
    // A canonical lock no account holds yet is an orphan so far, as an entry's would be (none are left once settled).
    const summary: ProblemSummary = { ...this.summary, 'orphan-lock': this.summary['orphan-lock'] + this.items.loneCanonical };
    const { scanned, accounts, lockCount, malformed } = this.items;
    return { scanned, accounts: accounts.length, locks: lockCount + malformed.length, summary };
  }

  /**
   * Recomputes the problems of every touched entry (every entry, without deltas) and queues the rows they
   * affect. With deltas, `settle` also expands the compact slots with a problem; while a scan runs
   * (`settle: false`) those are only provisional: a lone account's lock or a lone lock's account is
   * usually read moments later, and takeDelta holds such rows back anyway.
   */
  private flush(settle = true): void {
    if (this.trackDeltas) {
      if (this.dirty.size > 0) {
        const dirty = [...this.dirty];
        this.dirty.clear();
        for (const entry of dirty) this.recompute(entry);
      }
      if (settle && this.stale) {
        this.stale = false;
        this.settleSlots(false);
      }
      return;
    }
    if (!this.stale) return;
    this.stale = false;
    this.settleSlots(true);
  }

  /**
   * One pass over the index: recomputes every entry when `entries` says so (without deltas), and gives the
   * compact slots with a problem their entry. Compact mode: an account whose canonical lock was read is
   * healthy; a lone account (missing lock) or a lone lock (orphan) has a problem to report.
   */
  private settleSlots(entries: boolean): void {
    this.items.index.forEach((byValue, ruleIndex) => {
      const bit = 1 << ruleIndex;
      // forEach, not for…of: no [key, slot] pair allocated per slot (most of a flush's time was those pairs).
      byValue.forEach((slot, key) => {
        if (!('kind' in slot)) {
          if (entries) this.recompute(slot);
        } else if (slot.kind === 'canonical' || (slot.locked & bit) === 0) this.recompute(this.items.expand(byValue, ruleIndex, key, slot));
      });
    });
  }

  private recompute(entry: Entry): void {
    const deltas = this.deltas;
    const orphan = holderCount(entry) === 0;
    // An orphan's lock gets state (stray) and, when tracking, an identity in the delta sets: store it.
    const locks = orphan ? storeLocks(entry) : hasCanonicalLock(entry) ? NO_LOCKS : locksOf(entry);
    const before = this.problemsByEntry.get(entry) ?? NO_PROBLEMS;
    for (const p of before) this.summary[p.kind]--;
    const problems = entryProblems(this.convention, entry);
    if (problems.length > 0) this.problemsByEntry.set(entry, problems);
    else if (before.length > 0) this.problemsByEntry.delete(entry);
    for (const p of problems) this.summary[p.kind]++;
    for (const lock of locks) {
      // An orphan seen before its account is provisional: its row goes away when the account arrives.
      if (orphan) {
        lock.stray = true;
        deltas?.strayed(lock);
      } else if (lock.stray) {
        lock.stray = false;
        deltas?.unstrayed(lock);
      }
    }
    if (deltas) for (const holder of holdersOf(entry)) deltas.changed(holder);
  }

  private rowOf(state: RowState): GroupRow | undefined {
    switch (state.kind) {
      case 'account':
        return accountRow(this.convention, state, this.entryView);
      case 'lock':
        return state.stray ? orphanRow(this.convention, state) : undefined;
      case 'malformed':
        return malformedRow(this.convention, state);
    }
  }
}
