/** Builds the `accounts` demo table (seed-1 layout, preset `uniq`) from the facts in expected-problems.ts. */
import type { Item } from '../../../shared/model';
import {
  ACCOUNTS_MALFORMED,
  ACCOUNTS_NAMED,
  ACCOUNTS_ORPHANS,
  ACCOUNTS_TOTAL,
  STUCK_HANDLE_ACCOUNT_ID,
  type NamedAccount,
} from './expected-problems';
import { createPrng, type Prng } from './prng';

const FIRST = [
  'amara',
  'bruno',
  'chen',
  'dana',
  'emil',
  'farah',
  'gus',
  'hana',
  'ivan',
  'jade',
  'kofi',
  'lena',
  'mateo',
  'nia',
  'omar',
  'priya',
  'quinn',
  'rosa',
  'sven',
  'tara',
  'uma',
  'victor',
  'wen',
  'yara',
  'zane',
];
const LAST = [
  'okafor',
  'silva',
  'wang',
  'novak',
  'schmidt',
  'haddad',
  'berg',
  'sato',
  'petrov',
  'morel',
  'mensah',
  'kowalski',
  'rossi',
  'adeyemi',
  'farouk',
  'iyer',
  'oneil',
  'garcia',
  'lund',
  'kaur',
];
const DOMAINS = ['example.com', 'example.org', 'mail.example', 'corp.example.net'];
const PLANS = ['free', 'pro', 'team'];

const S = (value: string): { S: string } => ({ S: value });

/** The day an account was created: deterministic, spread over 2021–2025. */
function createdAt(prng: Prng): string {
  const start = Date.UTC(2021, 0, 1);
  const span = Date.UTC(2025, 11, 31) - start;
  return new Date(start + Math.floor(prng.next() * span)).toISOString();
}

function accountItem(a: NamedAccount, prng: Prng): Item {
  return {
    PK: S(`ACCT#${a.id}`),
    SK: S('PROFILE'),
    email: S(a.email),
    username: S(a.username),
    plan: S(prng.pick(PLANS)),
    createdAt: S(createdAt(prng)),
  };
}

const lock = (tag: string, value: string): Item => ({ PK: S(`UNIQ#${tag}#${value}`), SK: S('LOCK') });
const emailLock = (email: string): Item => lock('EMAIL', email.trim().toLowerCase());
const handleLock = (username: string): Item => lock('HANDLE', username.trim().toLowerCase());

/** All items of the `accounts` table, deterministic (same seed → same items, same order). */
export function buildAccountsItems(seed = 1): Item[] {
  const prng = createPrng(seed);
  const items: Item[] = [];
  const { ada, mixedCase, hashes, unicode, cjk, html, linus, hedy, margaret, katherine, alan, alanDuplicate } = ACCOUNTS_NAMED;

  // Healthy named accounts: account + both locks, as a signup transaction writes them.
  for (const a of [ada, mixedCase, hashes, unicode, cjk, html, linus, alan]) {
    items.push(accountItem(a, prng), emailLock(a.email), handleLock(a.username));
  }
  // Problems, each named in expected-problems.ts.
  items.push(accountItem(hedy, prng), emailLock(hedy.email));
  items.push(accountItem(margaret, prng), handleLock(margaret.username));
  items.push(accountItem(katherine, prng));
  items.push(accountItem(alanDuplicate, prng), handleLock(alanDuplicate.username));
  for (const orphan of ACCOUNTS_ORPHANS) items.push(lock(orphan.rule, orphan.value));
  for (const pk of ACCOUNTS_MALFORMED) items.push({ PK: S(pk), SK: S('LOCK') });

  // Generated healthy accounts up to the total.
  const named = Object.values(ACCOUNTS_NAMED);
  // The deleted account's id stays reserved so a generated account never "revives" it.
  const ids = new Set<string>([...named.map((a) => a.id), STUCK_HANDLE_ACCOUNT_ID]);
  for (let i = 0; i < ACCOUNTS_TOTAL - named.length; i++) {
    let id = prng.hex(6);
    while (ids.has(id)) id = prng.hex(6);
    ids.add(id);
    const first = prng.pick(FIRST);
    const last = prng.pick(LAST);
    // Every 7th email is stored in mixed case: locks hold the lowercased value.
    const local = i % 7 === 0 ? `${first[0]?.toUpperCase()}${first.slice(1)}.${last.toUpperCase()}.${i}` : `${first}.${last}.${i}`;
    const account: NamedAccount = { id, email: `${local}@${prng.pick(DOMAINS)}`, username: `${first}_${last}${i}` };
    items.push(accountItem(account, prng), emailLock(account.email), handleLock(account.username));
  }
  return items;
}
