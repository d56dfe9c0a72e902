/**
 * The engine's index of what a scan read: per item one lock-key parse (a few `startsWith`), one
 * map lookup per protected value, one small state object — no key objects or id strings until
 * something is read. What the items mean (problems, rows, deltas) is the engine's (engine.ts); this
 * module only files them, marking the entries it touched.
 */
import { isAccount, scalarText } from '../conventions/classify';
import { compileConvention, parseLockKey, type CompiledConvention } from '../conventions/parse';
import { accountScope, joinKey, lockScope, type ScopeValues } from '../conventions/scope';
import type { Convention, Item, ProblemKind } from '../model';
import { toPlainValue } from '../plain-key';
import type { DeltaQueue } from './deltas';
import { KeySample } from './fit';
import {
  addCanonicalLock,
  addHolder,
  addLockTo,
  canonicalForms,
  expandSlot,
  hasCanonicalLock,
  type AccountState,
  type CanonicalForm,
  type Entry,
  type IndexSlot,
  type LockState,
  type MalformedState,
} from './state';

/** What the index reports into: the engine's problem tally, its touched entries and its delta queue (both absent without deltas). */
export interface IndexSinks {
  readonly summary: Record<ProblemKind, number>;
  /** Entries whose problems must be recomputed; undefined when the engine recomputes everything on read. */
  readonly dirty: Set<Entry> | undefined;
  readonly deltas: DeltaQueue | undefined;
  /** At most 30 rules (one bit each in AccountState.locked): healthy values get no entry (see IndexSlot). */
  readonly compact: boolean;
}

/** Files scanned items by (rule, value): accounts, locks, malformed locks, and a sample of the rest. */
export class ItemIndex {
  readonly compiled: CompiledConvention;
  /** Per rule: the lock its first template writes, when a lock can be exactly that (see CanonicalForm). */
  readonly canonical: readonly (CanonicalForm | undefined)[];
  /** Per rule: join key (the normalized value, with the scope in front for a scoped rule) → join entry. */
  readonly index: Map<string, IndexSlot>[];
  readonly accounts: AccountState[] = [];
  readonly malformed: MalformedState[] = [];
  scanned = 0;
  lockCount = 0;
  /** Compact mode: canonical locks read with no holder so far, kept as their slot (each one orphan until an account holds its value). */
  loneCanonical = 0;
  /** Keys of items that are neither accounts nor locks, and of accounts holding no protected value: where a misread convention's locks end up (bounded, see fit.ts). */
  readonly others = new KeySample();
  private readonly summary: Record<ProblemKind, number>;
  private readonly dirty: Set<Entry> | undefined;
  private readonly deltas: DeltaQueue | undefined;
  private readonly compact: boolean;

  /** An empty index for `convention`, reporting into `sinks`. */
  constructor(
    readonly convention: Convention,
    sinks: IndexSinks,
  ) {
    this.compiled = compileConvention(convention);
    this.canonical = canonicalForms(this.compiled);
    this.index = convention.rules.map(() => new Map<string, IndexSlot>());
    this.summary = sinks.summary;
    this.dirty = sinks.dirty;
    this.deltas = sinks.deltas;
    this.compact = sinks.compact;
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
        this.loneCanonical++;
        this.lockCount++;
        return;
      }
      const bit = 1 << ruleIndex;
      if (slot !== undefined && 'kind' in slot && slot.kind === 'account' && canonical && (slot.locked & bit) === 0) {
        slot.locked |= bit;
        this.lockCount++;
        // The account's row settles (a watcher may hold it as checking).
        this.deltas?.changed(slot);
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
            this.loneCanonical--;
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
  expand(byValue: Map<string, IndexSlot>, ruleIndex: number, key: string, slot: AccountState | CanonicalForm): Entry {
    if (slot.kind === 'canonical') this.loneCanonical--;
    return expandSlot(byValue, ruleIndex, key, slot, this.canonical[ruleIndex]);
  }

  /** A new entry, queued for recomputation; the caller puts its first participant in. */
  private newEntry(byValue: Map<string, IndexSlot>, ruleIndex: number, key: string, value: string, scope: ScopeValues | undefined): Entry {
    const entry: Entry = { ruleIndex, value, scope, holders: undefined, locks: undefined };
    byValue.set(key, entry);
    this.dirty?.add(entry);
    return entry;
  }

  private touch(entry: Entry): void {
    this.dirty?.add(entry);
  }
}
