/**
 * The benchmark table: the seed-1 layout (preset `uniq`: `ACCT#<id>`/`PROFILE` accounts with an
 * email and a username, `UNIQ#EMAIL#…`/`UNIQ#HANDLE#…` locks) at any size, about a third accounts
 * and two thirds locks, with about 1% of the items taking part in a problem. Deterministic and
 * streamed in chunks, so a million items never sit in memory at once.
 */
import type { Item, ProblemKind } from '../shared/model';

/** What an audit of the generated table must report. */
export interface DatasetPlan {
  readonly items: number;
  readonly accounts: number;
  readonly locks: number;
  readonly summary: Readonly<Record<ProblemKind, number>>;
}

const FIRST = ['amara', 'bruno', 'chen', 'dana', 'emil', 'farah', 'gus', 'hana', 'ivan', 'jade', 'kofi', 'lena'];
const LAST = ['okafor', 'silva', 'wang', 'novak', 'schmidt', 'haddad', 'berg', 'sato', 'petrov', 'morel', 'mensah'];
const DOMAINS = ['example.com', 'example.org', 'mail.example'];
const PLANS = ['free', 'pro', 'team'];
/** Every PROBLEM_EVERY-th slot is a problem (cycling through the kinds below): ~1% of items. */
const PROBLEM_EVERY = 33;

/** What one slot of the table holds. */
type SlotKind = 'healthy' | 'missing-lock' | 'orphan-lock' | 'duplicate-value' | 'malformed-lock';
const PROBLEM_CYCLE: readonly SlotKind[] = ['missing-lock', 'orphan-lock', 'duplicate-value', 'malformed-lock'];

/** Items each slot kind writes. */
const SLOT_ITEMS: Readonly<Record<SlotKind, number>> = {
  healthy: 3,
  'missing-lock': 2,
  'orphan-lock': 2,
  'duplicate-value': 2,
  'malformed-lock': 4,
};

function slotKind(slot: number): SlotKind {
  if (slot === 0 || slot % PROBLEM_EVERY !== 0) return 'healthy';
  return PROBLEM_CYCLE[(slot / PROBLEM_EVERY - 1) % PROBLEM_CYCLE.length] ?? 'healthy';
}

const S = (value: string): { S: string } => ({ S: value });

/** A scattered, unique account id for a slot (a Knuth multiplicative hash keeps ids out of key order). */
export function accountId(slot: number): string {
  return `${(Math.imul(slot, 2_654_435_761) >>> 0).toString(16).padStart(8, '0')}${slot.toString(36)}`;
}

function person(slot: number): { email: string; username: string; plan: string } {
  const first = FIRST[slot % FIRST.length] ?? 'ada';
  const last = LAST[(slot >>> 3) % LAST.length] ?? 'lovelace';
  // Every 7th email is stored in mixed case: its lock holds the lowercased value.
  const local = slot % 7 === 0 ? `${first.toUpperCase()}.${last}.${slot}` : `${first}.${last}.${slot}`;
  return {
    email: `${local}@${DOMAINS[slot % DOMAINS.length] ?? 'example.com'}`,
    username: `${first}_${last}${slot}`,
    plan: PLANS[slot % PLANS.length] ?? 'free',
  };
}

const account = (slot: number, email: string, username: string, plan: string): Item => ({
  PK: S(`ACCT#${accountId(slot)}`),
  SK: S('PROFILE'),
  email: S(email),
  username: S(username),
  plan: S(plan),
  createdAt: S(new Date(Date.UTC(2021, 0, 1) + slot * 60_000).toISOString()),
});
const lock = (tag: string, value: string): Item => ({ PK: S(`UNIQ#${tag}#${value.trim().toLowerCase()}`), SK: S('LOCK') });

/** The items of one slot. */
export function slotItems(slot: number): Item[] {
  const p = person(slot);
  switch (slotKind(slot)) {
    case 'healthy':
      return [account(slot, p.email, p.username, p.plan), lock('EMAIL', p.email), lock('HANDLE', p.username)];
    case 'missing-lock':
      // Written outside the transaction: the handle lock never was.
      return [account(slot, p.email, p.username, p.plan), lock('EMAIL', p.email)];
    case 'orphan-lock':
      // The account was deleted, its two locks were not: both values are stuck.
      return [lock('EMAIL', p.email), lock('HANDLE', p.username)];
    case 'duplicate-value': {
      // Holds the previous slot's email (in upper case), whose lock already exists: uniqueness broken.
      const taken = person(slot - 1).email.toUpperCase();
      return [account(slot, taken, p.username, p.plan), lock('HANDLE', p.username)];
    }
    case 'malformed-lock':
      return [
        account(slot, p.email, p.username, p.plan),
        lock('EMAIL', p.email),
        lock('HANDLE', p.username),
        { PK: S('UNIQ#EMAIL#'), SK: S(`LOCK#${slot}`) },
      ];
  }
}

/** How many slots make at least `items` items, and what an audit of them must find. */
export function planDataset(items: number): DatasetPlan & { readonly slots: number } {
  const summary: Record<ProblemKind, number> = {
    'orphan-lock': 0,
    'missing-lock': 0,
    'duplicate-value': 0,
    'owner-mismatch': 0,
    'malformed-lock': 0,
  };
  let count = 0;
  let accounts = 0;
  let slots = 0;
  for (; count < items; slots++) {
    const kind = slotKind(slots);
    count += SLOT_ITEMS[kind];
    if (kind !== 'orphan-lock') accounts++;
    if (kind === 'orphan-lock') summary['orphan-lock'] += 2;
    else if (kind === 'malformed-lock') summary['malformed-lock']++;
    else if (kind === 'missing-lock' || kind === 'duplicate-value') summary[kind]++;
  }
  return { items: count, accounts, locks: count - accounts, summary, slots };
}

/** The table's items in chunks of about `chunk` items, in slot order (deterministic). */
export function* datasetChunks(items: number, chunk = 25_000): Generator<Item[]> {
  const { slots } = planDataset(items);
  let buffer: Item[] = [];
  for (let slot = 0; slot < slots; slot++) {
    for (const item of slotItems(slot)) buffer.push(item);
    if (buffer.length >= chunk) {
      yield buffer;
      buffer = [];
    }
  }
  if (buffer.length > 0) yield buffer;
}

/** A value for lookups: the email of a healthy slot spread over the table (`n`-th of `count`). */
export function lookupEmail(items: number, n: number, count: number): string {
  const { slots } = planDataset(items);
  let slot = Math.floor(((n + 0.5) * slots) / count);
  while (slotKind(slot) !== 'healthy') slot++;
  return person(slot).email;
}
