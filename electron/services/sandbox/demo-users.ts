/** Builds the `users` demo table (seed-2 layout: hash key `userId` only, `NAME#<name>` markers). */
import type { Item } from '../../../shared/model';
import { USERS_NAMED, USERS_ORPHAN_NAME, USERS_TOTAL, type NamedUser } from './expected-problems';
import { createPrng } from './prng';

// Korean family names and two-syllable given names; every combination is a distinct name.
const FAMILY = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오', '서', '신', '권'];
const GIVEN = [
  '민준',
  '서연',
  '도윤',
  '하은',
  '시우',
  '지아',
  '예준',
  '수아',
  '주원',
  '지호',
  '서윤',
  '하준',
  '지우',
  '은서',
  '건우',
  '유진',
  '현우',
  '다은',
  '선우',
  '채원',
  '백과',
];
// A few names from other scripts, so the list is not only Hangul.
const OTHER = [
  'Ngozi Adichie',
  'Þóra Björk',
  'Łukasz Żak',
  'Ελένη Παππά',
  'Олег Иванов',
  '王芳',
  '佐藤花子',
  'Nguyễn Văn An',
  'Søren Kierkegård',
  'François Dupré',
];

const S = (value: string): { S: string } => ({ S: value });

/** All items of the `users` table, deterministic. */
export function buildUsersItems(seed = 2): Item[] {
  const prng = createPrng(seed);
  const named: NamedUser[] = Object.values(USERS_NAMED);
  const taken = new Set<string>([...named.map((u) => u.name.normalize('NFC')), USERS_ORPHAN_NAME]);
  const items: Item[] = [];
  const account = (u: NamedUser): Item => ({ userId: S(u.userId), name: S(u.name), phone: S(u.phone) });
  // Markers are written NFC, as the signup code normalizes before building the key.
  const marker = (name: string): Item => ({ userId: S(`NAME#${name.normalize('NFC')}`) });

  for (const u of named) {
    items.push(account(u));
    if (u !== USERS_NAMED.choi) items.push(marker(u.name));
  }
  items.push(marker(USERS_ORPHAN_NAME));

  const pool = [...OTHER, ...FAMILY.flatMap((f) => GIVEN.map((g) => `${f}${g}`))].filter((n) => !taken.has(n));
  for (let i = 0; i < USERS_TOTAL - named.length; i++) {
    // Draw without replacement so names stay unique.
    const [name] = pool.splice(prng.int(pool.length), 1);
    if (name === undefined) throw new Error('users demo: name pool exhausted');
    const phone = `+82-10-${String(1000 + prng.int(9000))}-${String(1000 + prng.int(9000))}`;
    items.push(account({ userId: prng.uuid(), name, phone }), marker(name));
  }
  return items;
}
