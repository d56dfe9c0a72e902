/** Builds the `onetable_app` demo table (OneTable convention: `pk`/`sk`, `_type`, `_unique#` locks). */
import type { Item } from '../../../shared/model';
import { ONETABLE_NAMED, ONETABLE_TOTAL, ONETABLE_TTL_ORPHAN_EMAIL } from './expected-problems';
import { createPrng } from './prng';

const S = (value: string): { S: string } => ({ S: value });
const N = (value: number): { N: string } => ({ N: String(value) });
const WORDS = ['maple', 'river', 'stone', 'cedar', 'ember', 'harbor', 'meadow', 'summit', 'willow', 'aurora'];
/** Accounts expire in 2030 (TTL attribute `expires`, epoch seconds); TTL is not enabled on the sandbox table. */
const EXPIRES_BASE = Date.UTC(2030, 0, 1) / 1000;

interface OneTableUser {
  readonly id: string;
  readonly email: string;
  readonly legacy: boolean;
}

const userItem = (u: OneTableUser, expires: number): Item => ({
  pk: S(`User#${u.id}`),
  sk: S('User#'),
  _type: S('User'),
  id: S(u.id),
  email: S(u.email),
  expires: N(expires),
});

const currentLock = (email: string): Item => ({ pk: S(`_unique#User#email#${email}`), sk: S('_unique#'), _type: S('_Unique') });
const legacyLock = (email: string): Item => ({ pk: S(`_Unique:User:email:${email}`), sk: S('_unique:'), _type: S('_Unique') });

/** All items of the `onetable_app` table, deterministic. */
export function buildOnetableItems(seed = 3): Item[] {
  const prng = createPrng(seed);
  const items: Item[] = [];
  const users: OneTableUser[] = [
    { ...ONETABLE_NAMED.current, legacy: false },
    { ...ONETABLE_NAMED.legacy, legacy: true },
  ];
  const ids = new Set(users.map((u) => u.id));
  for (let i = 0; users.length < ONETABLE_TOTAL; i++) {
    let id = `01j${prng.hex(7)}`;
    while (ids.has(id)) id = `01j${prng.hex(7)}`;
    ids.add(id);
    // Older accounts (every 15th) still carry the legacy `_Unique:` lock form.
    users.push({ id, email: `${prng.pick(WORDS)}.${prng.pick(WORDS)}.${i}@example.io`, legacy: i % 15 === 0 });
  }
  for (const u of users) {
    items.push(userItem(u, EXPIRES_BASE + prng.int(86_400 * 365)), u.legacy ? legacyLock(u.email) : currentLock(u.email));
  }
  // TTL deleted this trial account; OneTable's unique item has no TTL, so its lock stayed.
  items.push(currentLock(ONETABLE_TTL_ORPHAN_EMAIL));
  // Another model with its own unique locks: not the `User` convention's business.
  for (const org of ['acme', 'globex', 'initech']) {
    items.push(
      { pk: S(`Org#${org}`), sk: S('Org#'), _type: S('Org'), name: S(org) },
      { pk: S(`_unique#Org#name#${org}`), sk: S('_unique#'), _type: S('_Unique') },
    );
  }
  return items;
}
