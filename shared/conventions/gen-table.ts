/**
 * The table of a generated layout: accounts written by the layout's reference writer, then drift
 * planted the way production makes it — orphan locks, accounts whose lock was never written,
 * two accounts holding one value, locks keyed by the literal `undefined` — and the problems an
 * exact audit must report. Deterministic from the layout. Test support only.
 */
import type { Item, ProblemKind } from '../model';
import type { GenAccounts, GenLayout, GenRule } from './gen-layout';
import { genSteps } from './gen-layout';
import { normalizeValue } from './normalize';
import { referenceLock, referenceLocks, writtenValue } from './reference-writer';
import { canonicalNumber } from './scope';

/** One problem the planted drift must produce (malformed locks are named by their hash key). */
export interface PlantedProblem {
  readonly kind: ProblemKind;
  readonly attribute?: string;
  readonly value: string;
  /** The scope value, for a scoped rule. */
  readonly scope?: string;
}

/** A lock the layout wrote and what it holds. */
export interface WrittenLock {
  readonly item: Item;
  readonly attribute: string;
  /** The value as written in the key. */
  readonly written: string;
  readonly scope?: string;
}

/** A generated table and what it must read as. */
export interface GenTable {
  readonly items: readonly Item[];
  readonly accounts: readonly Item[];
  /** Accounts written with every lock of theirs in one transaction (the reference writer's signup). */
  readonly healthy: readonly Item[];
  readonly locks: readonly WrittenLock[];
  readonly malformed: readonly Item[];
  readonly problems: readonly PlantedProblem[];
}

const FIRST = ['ada', 'grace', 'edsger', 'barbara', 'alan', 'frances', 'donald', 'radia', 'ken', 'margaret'];
const DOMAINS = ['lovelace.io', 'navy.mil', 'example.com'];
const WORDS = ['falcon', 'otter', 'maple', 'quartz', 'nebula', 'cobalt', 'saffron', 'tundra'];
const KOREAN = ['백과', '사전', '하늘', '바다', '구름', '나무'];
const ACCENTED = ['José', 'Zoë', 'Ångström', 'Chloé', 'Renée'];
const TENANTS = ['acme', 'globex', 'initech'];

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The value account `i` holds for rule `r` (mixed case on every third account, so case handling shows in the data). */
function valueOf(rule: GenRule, r: number, i: number): Item[string] {
  const upper = i % 3 === 0;
  switch (rule.kind) {
    case 'email': {
      const local = `${FIRST[i % FIRST.length]!}${r}x${i}`;
      const domain = DOMAINS[i % DOMAINS.length]!;
      return { S: upper ? `${capital(local)}@${capital(domain)}` : `${local}@${domain}` };
    }
    case 'handle':
      // Some handles hold separators a key also uses (`.`, `-`, `#`): the value is what stands between the literals.
      return { S: `${upper ? capital(WORDS[i % WORDS.length]!) : WORDS[i % WORDS.length]!}${['_', '_', '.', '-', '#'][i % 5]!}${r}k${i}` };
    case 'number':
      return { N: canonicalNumber(String(10000 * (r + 1) + i * 7 + (i % 4 === 0 ? 0.5 : 0))) };
    case 'unicode': {
      if (i % 2 === 1) return { S: `${KOREAN[i % KOREAN.length]!}${r}x${i}` };
      const word = ACCENTED[i % ACCENTED.length]!;
      const cased = upper ? word : word.toLowerCase();
      return { S: `${rule.nfc && i % 4 === 2 ? cased.normalize('NFD') : cased}${r}x${i}` };
    }
  }
}

/** An orphan's value for rule `r`: held by no account. */
function orphanValue(rule: GenRule, r: number, k: number): Item[string] {
  switch (rule.kind) {
    case 'email':
      return { S: `orphan${r}z${k}@void.io` };
    case 'number':
      return { N: String(990000 + r * 10 + k) };
    case 'handle':
    case 'unicode':
      return { S: `orphan${r}z${k}` };
  }
}

/** The key (and the entity attribute) of account `id`; a multi-tenant table keys prefixed accounts under their tenant. */
function accountBase(layout: GenLayout, id: string, tenant?: string): Item {
  const range = layout.keys.range?.name;
  const a: GenAccounts = layout.accounts;
  const hash =
    a.kind === 'entity' ? `${a.keyWord}#${id}` : a.kind === 'prefix' ? `${a.prefix}${tenant === undefined ? '' : `${tenant}#`}${id}` : id;
  const out: Item = { [layout.keys.hash.name]: { S: hash } };
  if (range !== undefined) out[range] = { S: a.kind === 'prefix' ? (a.range ?? 'PROFILE') : a.kind === 'entity' ? '#META' : 'A' };
  if (a.kind === 'entity') out[a.attribute] = { S: a.value };
  return out;
}

const textOf = (v: Item[string] | undefined): string => v?.S ?? v?.N ?? '';

/** How the audit joins a value of `rule`: its steps, numbers in canonical text. */
export function genNormalized(rule: GenRule, raw: string): string {
  return rule.kind === 'number' ? canonicalNumber(raw) : normalizeValue(raw, genSteps(rule));
}

/** Two orders of account `id`: under its partition on a composite table, else keyed by its id with a pointer back. */
function childrenOf(layout: GenLayout, account: Item, id: string, i: number): Item[] {
  if (!layout.children) return [];
  const range = layout.keys.range?.name;
  return [0, 1].map((k) => {
    const payload: Item = {
      total: { N: String(10 + i + k) },
      status: { S: k ? 'paid' : 'open' },
      placedAt: { S: `2025-02-1${k}T0${i % 10}:00` },
    };
    if (range === undefined) return { [layout.keys.hash.name]: { S: `ORDERS~${id}~${k}` }, accountId: { S: id }, ...payload };
    // The second child is a record of the account's first protected value in its own partition (an adjacency list), no lock.
    const first = layout.rules[0];
    const value = first === undefined ? undefined : textOf(account[first.attribute]);
    const sort = k === 1 && value !== undefined ? `CONTACT#${value}` : `ORDER#${k}`;
    return { [layout.keys.hash.name]: account[layout.keys.hash.name]!, [range]: { S: sort }, ...payload };
  });
}

/** The scope of a scoped rule's value on `account`, as a planted problem names it. */
const scopeOf = (rule: GenRule, account: Item): { scope?: string } =>
  rule.scope === undefined ? {} : { scope: textOf(account[rule.scope]) };

/** Builds the table of `layout` with its planted drift. */
export function buildTable(layout: GenLayout): GenTable {
  const items: Item[] = [];
  const accounts: Item[] = [];
  const locks: WrittenLock[] = [];
  const malformed: Item[] = [];
  const problems: PlantedProblem[] = [];
  const scoped = layout.rules.some((r) => r.scope !== undefined);
  const writeLocks = (account: Item, skip: ReadonlySet<string>): void => {
    for (const rule of layout.rules) {
      if (skip.has(rule.attribute)) continue;
      const [lock] = referenceLocks({ ...layout, rules: [rule] }, account);
      if (!lock) continue;
      const scope = rule.scope === undefined ? undefined : textOf(account[rule.scope]);
      items.push(lock);
      locks.push({
        item: lock,
        attribute: rule.attribute,
        written: writtenValue(rule, textOf(account[rule.attribute])),
        ...(scope === undefined ? {} : { scope }),
      });
    }
  };
  // Missing locks come from accounts 1, 4, 7…; duplicates copy accounts 2, 5, 8…: never the mixed-case ones (0, 3, 6…), whose locks show the case handling.
  const missing = new Map<number, Set<string>>();
  layout.rules.forEach((rule, r) => {
    for (let k = 0; k < layout.drift.missing; k++) {
      const i = 1 + 3 * (k + r * 3);
      if (i >= layout.size) continue;
      let set = missing.get(i);
      if (!set) missing.set(i, (set = new Set()));
      set.add(rule.attribute);
    }
  });
  for (let i = 0; i < layout.size; i++) {
    const account: Item = {
      ...accountBase(layout, `p${i}q`, scoped ? TENANTS[i % TENANTS.length] : undefined),
      plan: { S: i % 2 ? 'pro' : 'free' },
      joined: { S: `2025-0${1 + (i % 9)}-1${i % 10}` },
    };
    if (scoped) for (const rule of layout.rules) if (rule.scope !== undefined) account[rule.scope] = { S: TENANTS[i % TENANTS.length]! };
    layout.rules.forEach((rule, r) => (account[rule.attribute] = valueOf(rule, r, i)));
    if (layout.children) account.id = { S: `p${i}q` };
    items.push(account, ...childrenOf(layout, account, `p${i}q`, i));
    accounts.push(account);
    const skip = missing.get(i) ?? new Set<string>();
    writeLocks(account, skip);
    for (const attribute of skip) {
      const rule = layout.rules.find((x) => x.attribute === attribute)!;
      problems.push({ kind: 'missing-lock', attribute, value: genNormalized(rule, textOf(account[attribute])), ...scopeOf(rule, account) });
    }
  }
  const base = [...accounts];
  layout.rules.forEach((rule, r) => {
    const tenant = rule.scope === undefined ? undefined : TENANTS[0]!;
    for (let k = 0; k < layout.drift.orphans; k++) {
      const raw = textOf(orphanValue(rule, r, k));
      // An orphan: its holder deleted, the lock left behind (still naming it, when locks name their holder).
      const lock = referenceLock(layout, rule, writtenValue(rule, raw), tenant, {
        key: textOf(accountBase(layout, `gone${r}z${k}`)[layout.keys.hash.name]),
        raw,
      });
      items.push(lock);
      locks.push({
        item: lock,
        attribute: rule.attribute,
        written: writtenValue(rule, raw),
        ...(tenant === undefined ? {} : { scope: tenant }),
      });
      problems.push({
        kind: 'orphan-lock',
        attribute: rule.attribute,
        value: genNormalized(rule, raw),
        ...(tenant === undefined ? {} : { scope: tenant }),
      });
    }
    for (let k = 0; k < layout.drift.duplicates; k++) {
      const j = 2 + 3 * (k + r * 3);
      const source = base[j];
      if (!source || missing.get(j)?.has(rule.attribute)) continue;
      const twin: Item = {
        ...accountBase(layout, `d${r}z${k}`, rule.scope === undefined ? undefined : textOf(source[rule.scope])),
        [rule.attribute]: source[rule.attribute]!,
      };
      if (rule.scope !== undefined) twin[rule.scope] = source[rule.scope]!;
      items.push(twin);
      accounts.push(twin);
      problems.push({
        kind: 'duplicate-value',
        attribute: rule.attribute,
        value: genNormalized(rule, textOf(source[rule.attribute])),
        ...scopeOf(rule, source),
      });
    }
    for (let k = 0; k < layout.drift.malformed; k++) {
      // A bug wrote a missing value into the key; on a second one, in another tenant (or the same key twice is one item).
      const lock = referenceLock(layout, rule, 'undefined', TENANTS[k % TENANTS.length]);
      const key = JSON.stringify(lock);
      if (malformed.some((m) => JSON.stringify(m) === key)) continue;
      items.push(lock);
      malformed.push(lock);
      problems.push({ kind: 'malformed-lock', value: textOf(lock[layout.keys.hash.name]) });
    }
  });
  const healthy = [...missing.keys()].reduce((list, i) => list.filter((a) => a !== base[i]), base);
  return { items, accounts, healthy, locks, malformed, problems };
}
