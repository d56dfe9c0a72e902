/**
 * The streaming audit engine: feed scan pages in any order from any segment, read counts,
 * rows, deltas and problems at any time. Per item: one lock-key parse (a few `startsWith`),
 * one map lookup per protected value, one small state object — no key objects or id strings
 * until something is read. Problems are recomputed lazily, once per touched (rule, value)
 * entry, when counts/rows/problems are read, so a million-item audit stays O(n).
 */
import { isAccount, scalarText } from '../conventions/classify';
import { compileConvention, parseLockKey, type CompiledConvention } from '../conventions/parse';
import { accountScope, joinKey, lockScope, type ScopeValues } from '../conventions/scope';
import type { Convention, Item, PlainKey, Problem, ProblemKind, ProblemSummary } from '../model';
import { PROBLEM_KINDS } from '../model';
import { toPlainValue } from '../plain-key';
import { fitWarnings, KeySample, ruleFits } from './fit';
import { accountRow, entryProblems, malformedProblem, malformedRow, orphanRow } from './derive';
import { DeltaQueue } from './deltas';
import { compareProblems } from './problem-rules';
import {
  addCanonicalLock,
  addHolder,
  addLockTo,
  byId,
  canonicalForms,
  compareText,
  entryOf,
  expandSlot,
  hasCanonicalLock,
  holderCount,
  holdersOf,
  idOf,
  keyOfState,
  locksOf,
  storeLocks,
  type AccountState,
  type CanonicalForm,
  type Entry,
  type IndexSlot,
  type LockState,
  type MalformedState,
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
  private readonly compiled: CompiledConvention;
  private readonly trackDeltas: boolean;
  /** Per rule: the lock its first template writes, when a lock can be exactly that (see CanonicalForm). */
  private readonly canonical: readonly (CanonicalForm | undefined)[];
  /** Per rule: join key (the normalized value, with the scope in front for a scoped rule) → join entry. */
  private readonly index: Map<string, IndexSlot>[];
  /** No deltas and at most 30 rules (one bit each in AccountState.locked): healthy values get no entry (see IndexSlot). */
  private readonly compact: boolean;
  private readonly accounts: AccountState[] = [];
  private readonly malformed: MalformedState[] = [];
  /**
   * Entries whose problems must be recomputed, while deltas are tracked. Without deltas nothing is
   * queued per item: the first read after a change recomputes every entry (the CLI reads once, at the end).
   */
  private readonly dirty = new Set<Entry>();
  /** Without deltas: items were added since problems were last computed. */
  private stale = false;
  /** The problems of the entries that have any (about 1% of a table's values), as of the last flush. */
  private readonly problemsByEntry = new Map<Entry, readonly Problem[]>();
  /** The rows changed since the last delta; undefined without deltas. */
  private readonly deltas: DeltaQueue | undefined;
  private readonly summary: Record<ProblemKind, number>;
  private scanned = 0;
  private lockCount = 0;
  /** Keys of items that are neither accounts nor locks, and of accounts holding no protected value: where a misread convention's locks end up (bounded, see fit.ts). */
  private readonly others = new KeySample();

  /** Starts an empty audit for `convention`. */
  constructor(convention: Convention, options: AuditEngineOptions = {}) {
    this.convention = convention;
    this.compiled = compileConvention(convention);
    this.trackDeltas = options.trackDeltas ?? true;
    this.deltas = this.trackDeltas ? new DeltaQueue(convention.keys) : undefined;
    this.index = convention.rules.map(() => new Map<string, IndexSlot>());
    this.compact = !this.trackDeltas && convention.rules.length <= 30;
    this.canonical = canonicalForms(this.compiled);
    this.summary = Object.fromEntries(PROBLEM_KINDS.map((k) => [k, 0])) as Record<ProblemKind, number>;
  }

  /**
   * Feeds one scan page (any order, any segment). With a convention that names a lock table, pages
   * of that table come with `from: 'lock-table'`: only locks count there, and a lock found in the
   * accounts table is malformed (the library checks the lock table, so it protects nothing).
   */
  addItems(items: readonly Item[], from: 'table' | 'lock-table' = 'table'): void {
    const compiled = this.compiled;
    const split = this.convention.lockTable !== undefined;
    const lockSide = from === 'lock-table';
    const keys = this.convention.keys;
    const hashName = keys.hash.name;
    const rangeName = keys.range?.name;
    this.scanned += items.length;
    if (items.length > 0) this.stale = true;
    for (const item of items) {
      const hashAttr = item[hashName];
      if (hashAttr === undefined) continue;
      const hash = hashAttr.S;
      const rangeAttr = rangeName === undefined ? undefined : item[rangeName];
      // Locks only exist on string hash keys; N/B-keyed items are accounts or other.
      if (hash !== undefined) {
        let parsed = parseLockKey(compiled, hash, rangeAttr?.S);
        if (split && !lockSide && parsed.kind === 'lock')
          parsed = {
            ...parsed,
            kind: 'malformed',
            reason: `a lock item in the accounts table, but the locks live in ${this.convention.lockTable ?? ''}: nothing checks this one`,
          };
        if (parsed.kind === 'lock') {
          this.addLock(item, hash, rangeAttr, parsed.ruleIndex, parsed.templateIndex, parsed.value, parsed.normalized, parsed.parts);
          continue;
        }
        if (parsed.kind === 'malformed') {
          const rule = parsed.ruleIndex === undefined ? undefined : this.convention.rules[parsed.ruleIndex]?.name;
          const state: MalformedState = {
            kind: 'malformed',
            hash,
            range: toPlainValue(rangeAttr),
            id: undefined,
            reason: parsed.reason,
            rule,
            text: hash,
          };
          this.malformed.push(state);
          this.summary['malformed-lock']++;
          this.deltas?.changed(state);
          continue;
        }
      }
      if (!lockSide && isAccount(compiled, item, hash)) this.addAccount(item, hashAttr, rangeAttr, hash);
      else if (hash !== undefined) this.others.add(hash, rangeAttr?.S);
    }
  }

  private addLock(
    item: Item,
    hash: string,
    rangeAttr: Item[string] | undefined,
    ruleIndex: number,
    templateIndex: number,
    raw: string,
    value: string,
    parts: Readonly<Record<string, string>> | undefined,
  ): void {
    const byValue = this.index[ruleIndex]!;
    const ownerAttribute = this.convention.ownerAttribute;
    const owner = ownerAttribute === undefined ? undefined : scalarText(item[ownerAttribute]);
    // parseLockKey gives parts only for templates whose placeholders the rule's scope maps.
    const scope = parts === undefined ? undefined : lockScope(this.convention.rules[ruleIndex]!, parts);
    const key = joinKey(scope, value);
    const form = this.canonical[ruleIndex];
    // Exactly what the rule's first template writes for the entry's value: rebuilt on demand, not stored.
    // parseLockKey already checked the range equals the form's (or that the table has none).
    const canonical = form !== undefined && templateIndex === 0 && owner === undefined && raw === value;
    let slot = byValue.get(key);
    if (this.compact && scope === undefined) {
      if (slot === undefined && canonical) {
        byValue.set(key, form);
        this.lockCount++;
        return;
      }
      const bit = 1 << ruleIndex;
      if (slot !== undefined && 'kind' in slot && slot.kind === 'account' && canonical && (slot.locked & bit) === 0) {
        slot.locked |= bit;
        this.lockCount++;
        return;
      }
      if (slot !== undefined && 'kind' in slot) slot = this.expand(byValue, ruleIndex, key, slot);
    }
    const existing = slot as Entry | undefined;
    const entry = existing ?? this.newEntry(byValue, ruleIndex, key, value, scope);
    if (canonical && form !== undefined && entry.locks === undefined) {
      addCanonicalLock(entry, form);
    } else {
      const lock: LockState = {
        kind: 'lock',
        hash,
        range: toPlainValue(rangeAttr),
        id: undefined,
        ruleIndex,
        raw,
        owner,
        entry,
        stray: false,
      };
      addLockTo(entry, lock);
    }
    if (existing) this.touch(existing);
    this.lockCount++;
  }

  private addAccount(item: Item, hashAttr: Item[string], rangeAttr: Item[string] | undefined, hashText: string | undefined): void {
    const rules = this.convention.rules;
    // By rule index, sized up front: `[]` + push would reserve 17 slots per account.
    const state: AccountState = {
      kind: 'account',
      hash: toPlainValue(hashAttr) ?? '',
      range: toPlainValue(rangeAttr),
      id: undefined,
      entries: new Array<Entry | string | undefined>(rules.length),
      raws: undefined,
      locked: 0,
    };
    let holds = false;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      const raw = scalarText(item[rule.attribute]);
      if (raw === undefined || raw === '') continue;
      const normalize = this.compiled.normalizers[i];
      const normalized = normalize ? normalize(raw) : raw;
      // A value that normalizes to nothing (only spaces, with trim) protects nothing.
      if (normalized === '') continue;
      let scope: ScopeValues | undefined;
      if (rule.scope !== undefined) {
        // Without its scope a value is protected by no lock the library could write: it joins nothing.
        scope = accountScope(rule, item);
        if (scope === undefined) continue;
      }
      holds = true;
      const key = joinKey(scope, normalized);
      const byValue = this.index[i]!;
      let slot = byValue.get(key);
      // The stored spelling is kept only when it is not the normalized value (see AccountState.raws).
      if (raw !== normalized) (state.raws ??= new Array<string | undefined>(rules.length))[i] = raw;
      if (this.compact && scope === undefined) {
        if (slot === undefined || ('kind' in slot && slot.kind === 'canonical')) {
          // First holder: the index maps the value to the account itself. Keyed by this account's copy
          // of the value, so the slice of a (never stored) lock key does not keep that key string alive.
          if (slot !== undefined) {
            byValue.delete(key);
            state.locked |= 1 << i;
          }
          byValue.set(normalized, state);
          state.entries[i] = normalized;
          continue;
        }
        if ('kind' in slot) slot = this.expand(byValue, i, key, slot);
      }
      let entry = slot as Entry | undefined;
      if (entry) {
        this.touch(entry);
        // First holder of a value a canonical lock brought in: key the entry by this account's copy, so
        // the slice of the (unstored) lock key stops keeping that key string alive. Order in the index
        // does not matter: every reader sorts.
        if (entry.holders === undefined && hasCanonicalLock(entry)) {
          byValue.delete(entry.value);
          entry.value = normalized;
          byValue.set(normalized, entry);
        }
      } else entry = this.newEntry(byValue, i, key, normalized, scope);
      state.entries[i] = entry;
      addHolder(entry, state);
    }
    // An "account" that holds nothing may be a lock the convention does not recognise (a not-lock matcher reads every unknown key as an account).
    if (!holds && hashText !== undefined) this.others.add(hashText, rangeAttr?.S);
    this.accounts.push(state);
    this.deltas?.changed(state);
  }

  /** Compact mode: replaces the entry-less slot of (rule, key) with a real entry (see expandSlot). */
  private expand(byValue: Map<string, IndexSlot>, ruleIndex: number, key: string, slot: AccountState | CanonicalForm): Entry {
    return expandSlot(byValue, ruleIndex, key, slot, this.canonical[ruleIndex]);
  }

  /** The join entry of `account`'s value under rule `ruleIndex` (see entryOf). */
  private readonly entryView = (account: AccountState, ruleIndex: number): Entry | undefined =>
    entryOf(account, ruleIndex, this.canonical[ruleIndex]);

  /**
   * Rows added or changed and rows removed since the last call (at most `max` upserts; the rest stay
   * pending), with fresh counts. With `settled: false` (while a scan runs), rows whose state is only
   * provisional are held back: orphan locks (most are locks whose account has not been read yet) and
   * accounts with a value whose lock has not been read yet (a "missing" lock that usually turns up
   * moments later). Sending those only to retract or change them doubled what a watcher receives
   * (61k orphan rows and 60k account re-sends in a 200k-item table). Pass `settled: true` (the
   * default) once the scan has ended: every held row goes out then, as it finally is. Duplicates are
   * never held: a second holder of a value is certain the moment it is read.
   */
  takeDelta(max = Number.POSITIVE_INFINITY, settled = true): AuditDelta {
    this.flush();
    const { upserted, removed } = this.deltas?.take(max, settled, (state) => this.rowOf(state)) ?? { upserted: [], removed: [] };
    return { upserted, removed, counts: this.countsNow() };
  }

  /** Running totals (items scanned, accounts, lock items incl. malformed ones, problems per kind). */
  counts(): AuditCounts {
    this.flush();
    return this.countsNow();
  }

  /** Every current row: accounts, orphan locks and malformed locks, ordered by id. */
  rows(): GroupRow[] {
    this.flush();
    const states: RowState[] = [...this.accounts, ...this.malformed];
    // A canonical form is never a stray: flush stores a real lock for every orphan.
    for (const byValue of this.index)
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
    for (const state of this.malformed) out.push(malformedProblem(this.convention, state));
    return out.sort(compareProblems);
  }

  /**
   * The accounts read holding `normalized` under rule `ruleIndex` (in `scope`, for a scoped rule):
   * what a lookup needs from a finished audit instead of a scan. Keys only, in key order; callers re-read them.
   */
  holderKeys(ruleIndex: number, normalized: string, scope?: ScopeValues): PlainKey[] {
    const slot = this.index[ruleIndex]?.get(joinKey(scope, normalized));
    const keys = this.convention.keys;
    if (slot === undefined || ('kind' in slot && slot.kind === 'canonical')) return [];
    if ('kind' in slot) return [keyOfState(slot, keys)];
    return byId(holdersOf(slot), keys).map((h) => keyOfState(h, keys));
  }

  /** How many join entries the engine stores (without deltas, none for a healthy value): for tests and probes. */
  joinEntries(): number {
    let n = 0;
    for (const byValue of this.index) for (const slot of byValue.values()) if (!('kind' in slot)) n++;
    return n;
  }

  /** Per rule index: the distinct values accounts hold (see fit.ts). */
  heldValues(): number[] {
    this.flush();
    return this.index.map((byValue) => {
      let n = 0;
      byValue.forEach((slot) => {
        if ('kind' in slot ? slot.kind === 'account' : holderCount(slot) > 0) n++;
      });
      return n;
    });
  }

  /** The key texts kept for the fit's embedding test (bounded, see KeySample). */
  otherKeys(): readonly string[] {
    return this.others.texts();
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
      ? fitWarnings(ruleFits({ convention: this.convention, problems, held: this.heldValues(), otherKeys: this.others.texts() }))
      : [];
    return { ...head, ...counts, convention: this.convention, problems, warnings };
  }

  private countsNow(): AuditCounts {
    const summary: ProblemSummary = { ...this.summary };
    return { scanned: this.scanned, accounts: this.accounts.length, locks: this.lockCount + this.malformed.length, summary };
  }

  /** A new entry, queued for recomputation; the caller puts its first participant in. */
  private newEntry(byValue: Map<string, IndexSlot>, ruleIndex: number, key: string, value: string, scope: ScopeValues | undefined): Entry {
    const entry: Entry = { ruleIndex, value, scope, holders: undefined, locks: undefined };
    byValue.set(key, entry);
    if (this.trackDeltas) this.dirty.add(entry);
    return entry;
  }

  private touch(entry: Entry): void {
    if (this.trackDeltas) this.dirty.add(entry);
  }

  /** Recomputes the problems of every touched entry (every entry, without deltas) and queues the rows they affect. */
  private flush(): void {
    if (this.trackDeltas) {
      if (this.dirty.size === 0) return;
      const dirty = [...this.dirty];
      this.dirty.clear();
      for (const entry of dirty) this.recompute(entry);
      return;
    }
    if (!this.stale) return;
    this.stale = false;
    this.index.forEach((byValue, ruleIndex) => {
      const bit = 1 << ruleIndex;
      // forEach, not for…of: no [key, slot] pair allocated per slot (most of a flush's time was those pairs).
      byValue.forEach((slot, key) => {
        if (!('kind' in slot)) this.recompute(slot);
        // Compact mode: an account whose canonical lock was read is healthy; a lone account (missing
        // lock) or a lone lock (orphan) has a problem to report, so it gets an entry.
        else if (slot.kind === 'canonical' || (slot.locked & bit) === 0) this.recompute(this.expand(byValue, ruleIndex, key, slot));
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
