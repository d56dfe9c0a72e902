/**
 * The sandbox's demo data, written down: the named accounts and values it contains and the exact
 * problems an audit must find, per table. The single source for the demo-data builders, the
 * integration and e2e suites, and the docs — change a fact here and the data follows.
 *
 * Conventions assumed (the presets' defaults, shared/conventions/presets.ts):
 * - `accounts`: preset `uniq`, rules EMAIL ↔ `email` and HANDLE ↔ `username`, both trim+lowercase.
 * - `users`: preset `marker`, rule NAME ↔ `name`, NFC.
 * - `onetable_app`: preset `onetable`, model `User`, rule `User.email`, no normalization.
 */
import type { PlainKey, PresetName, Problem, ProblemKind, ProblemSummary } from '../../../shared/model';

/** The demo tables the sandbox creates. */
export type DemoTableName = 'accounts' | 'users' | 'onetable_app';

/** All demo tables, in creation order. */
export const DEMO_TABLE_NAMES: readonly DemoTableName[] = ['accounts', 'users', 'onetable_app'];

/** An account key in the `accounts` table. */
const acct = (id: string): PlainKey => ({ PK: `ACCT#${id}`, SK: 'PROFILE' });
/** A lock key in the `accounts` table. */
const uniqLock = (tag: string, value: string): PlainKey => ({ PK: `UNIQ#${tag}#${value}`, SK: 'LOCK' });

/** A named account of the `accounts` table. */
export interface NamedAccount {
  readonly id: string;
  readonly email: string;
  readonly username: string;
}

/** Accounts of `accounts` that docs and tests refer to by name. */
export const ACCOUNTS_NAMED = {
  /** Healthy: both locks present. "Why did ada@lovelace.io get 'already in use'?" — because ada holds it. */
  ada: { id: 'a1f9c3', email: 'ada@lovelace.io', username: 'ada' },
  /** Healthy, mixed-case email: the lock is the lowercased value. */
  mixedCase: { id: 'ca5e01', email: 'Mixed.Case@Example.COM', username: 'mixed_case' },
  /** Healthy, values containing `#`. */
  hashes: { id: 'c0ffee', email: 'C#Dev@Example.com', username: 'c#dev' },
  /** Healthy, non-ASCII values (NFC). */
  unicode: { id: 'b1a2c3', email: 'Björn.Åström@Example.se', username: 'björn' },
  /** Healthy, CJK handle. */
  cjk: { id: '0b5e55', email: 'li.lei@example.cn', username: '李雷' },
  /** Healthy, an HTML-ish handle: the UI must render it as text (XSS tests). */
  html: { id: 'bad1d0', email: 'xss@example.com', username: '<img src=x onerror=alert(1)>' },
  /** Changed email from `linus.old@example.org`; the new lock was written, the old one left behind (orphan). */
  linus: { id: '11e05a', email: 'linus@example.org', username: 'linus' },
  /** Missing its HANDLE lock (another signup can take `hedy`). */
  hedy: { id: '4ed1a0', email: 'hedy@lamarr.example', username: 'hedy' },
  /** Missing its EMAIL lock. */
  margaret: { id: '3a3a01', email: 'margaret@hamilton.example', username: 'mhamilton' },
  /** Written outside the transaction: no locks at all (two missing-lock problems). */
  katherine: { id: '6b0a55', email: 'katherine@johnson.example', username: 'katherine' },
  /** Holds `alan.turing@example.com` and its lock. */
  alan: { id: 'a7a7a1', email: 'alan.turing@example.com', username: 'alan' },
  /** Duplicate of alan's email (different case), written outside a transaction: one lock for two accounts. */
  alanDuplicate: { id: 'a7a7a2', email: 'Alan.Turing@Example.com', username: 'aturing' },
} as const satisfies Record<string, NamedAccount>;

/** The stuck handle: its account (ACCT#9ace00, Grace) was deleted with its email lock, but the handle lock stayed. */
export const STUCK_HANDLE = 'grace_h';

/** The id of the deleted account that held the stuck handle (no item has it any more). */
export const STUCK_HANDLE_ACCOUNT_ID = '9ace00';

/** The HTML-ish orphan handle lock value (XSS tests on the problems list). */
export const HTML_ORPHAN_HANDLE = '<script>alert(1)</script>';

/** Orphan lock keys of `accounts` (rule, normalized value). */
export const ACCOUNTS_ORPHANS: readonly { readonly rule: 'EMAIL' | 'HANDLE'; readonly value: string }[] = [
  { rule: 'HANDLE', value: STUCK_HANDLE },
  { rule: 'EMAIL', value: 'linus.old@example.org' },
  { rule: 'HANDLE', value: HTML_ORPHAN_HANDLE },
  { rule: 'EMAIL', value: 'ex-employee#42@example.com' },
  // A deleted account whose locks both stayed.
  { rule: 'EMAIL', value: 'ghost@example.net' },
  { rule: 'HANDLE', value: 'ghost' },
];

/** Malformed lock hash keys of `accounts` (all with SK `LOCK`). */
export const ACCOUNTS_MALFORMED: readonly string[] = ['UNIQ#HANDLE#undefined', 'UNIQ#EMAIL#null', 'UNIQ#EMAIL#', 'UNIQ#PHONE#+14155550123'];

/** Total accounts in `accounts` (named + generated healthy ones). */
export const ACCOUNTS_TOTAL = 2_000;

/** A named user of the `users` table (seed-2 layout: hash key `userId`). */
export interface NamedUser {
  readonly userId: string;
  readonly name: string;
  readonly phone: string;
}

/** Users of `users` that docs and tests refer to by name. */
export const USERS_NAMED = {
  /** Healthy, the DESIGN.md example marker `NAME#백과`. */
  baekgwa: { userId: '6f1c2a9e-0b7d-4e53-9a41-1d2b3c4d5e01', name: '백과', phone: '+82-10-1234-5678' },
  /** Healthy, Japanese. */
  yamada: { userId: '6f1c2a9e-0b7d-4e53-9a41-1d2b3c4d5e02', name: '山田太郎', phone: '+81-90-1234-5678' },
  /** Healthy, accented. */
  zoe: { userId: '6f1c2a9e-0b7d-4e53-9a41-1d2b3c4d5e03', name: 'Zoë Ångström', phone: '+46-70-123-4567' },
  /** Healthy, but the account stores the name decomposed (NFD) while the marker is NFC: NFC normalization joins them. */
  joseNfd: { userId: '6f1c2a9e-0b7d-4e53-9a41-1d2b3c4d5e04', name: 'José Núñez'.normalize('NFD'), phone: '+34-600-123-456' },
  /** Missing its NAME marker. */
  choi: { userId: '6f1c2a9e-0b7d-4e53-9a41-1d2b3c4d5e05', name: '최유나', phone: '+82-10-5555-0101' },
} as const satisfies Record<string, NamedUser>;

/** The one orphan marker of `users` (its user was deleted). */
export const USERS_ORPHAN_NAME = '박지훈';

/** Total accounts in `users`. */
export const USERS_TOTAL = 300;

/** Named accounts of `onetable_app` (OneTable: pk `User#<id>`, sk `User#`, `_type` User). */
export const ONETABLE_NAMED = {
  /** Healthy, current `_unique#User#email#…` lock. */
  current: { id: '01hzy3k8v2', email: 'ada@lovelace.io' },
  /** Healthy, legacy `_Unique:User:email:…` lock (sk `_unique:`). */
  legacy: { id: '01hzy3k8v3', email: 'charles@babbage.example' },
} as const;

/** The email whose account TTL deleted, leaving its `_unique#User#email#…` lock behind. */
export const ONETABLE_TTL_ORPHAN_EMAIL = 'expired.trial@example.com';

/** Total `User` accounts in `onetable_app`; every 15th generated one uses the legacy lock form. */
export const ONETABLE_TOTAL = 300;

/** What an audit of one demo table must report. */
export interface ExpectedTable {
  readonly table: DemoTableName;
  readonly preset: PresetName;
  /** Account items. */
  readonly accounts: number;
  /** Items the convention recognises as locks, malformed ones included. */
  readonly locks: number;
  /** All items in the table (other models' items included). */
  readonly items: number;
  readonly summary: ProblemSummary;
  /** Every problem, without `reason` (compare with {@link problemSignature}). */
  readonly problems: readonly Problem[];
}

function summarize(problems: readonly Problem[]): ProblemSummary {
  const counts: Record<ProblemKind, number> = {
    'orphan-lock': 0,
    'missing-lock': 0,
    'duplicate-value': 0,
    'owner-mismatch': 0,
    'malformed-lock': 0,
  };
  for (const p of problems) counts[p.kind]++;
  return counts;
}

const { hedy, margaret, katherine, alan, alanDuplicate } = ACCOUNTS_NAMED;
const accountsProblems: Problem[] = [
  ...ACCOUNTS_ORPHANS.map((o): Problem => ({ kind: 'orphan-lock', rule: o.rule, value: o.value, lock: uniqLock(o.rule, o.value) })),
  { kind: 'missing-lock', rule: 'HANDLE', value: hedy.username, accounts: [acct(hedy.id)] },
  { kind: 'missing-lock', rule: 'EMAIL', value: margaret.email, accounts: [acct(margaret.id)] },
  { kind: 'missing-lock', rule: 'EMAIL', value: katherine.email, accounts: [acct(katherine.id)] },
  { kind: 'missing-lock', rule: 'HANDLE', value: katherine.username, accounts: [acct(katherine.id)] },
  { kind: 'duplicate-value', rule: 'EMAIL', value: alan.email, accounts: [acct(alan.id), acct(alanDuplicate.id)] },
  ...ACCOUNTS_MALFORMED.map((pk): Problem =>
    pk.startsWith('UNIQ#PHONE#')
      ? { kind: 'malformed-lock', value: pk, lock: { PK: pk, SK: 'LOCK' } }
      : { kind: 'malformed-lock', rule: pk.split('#')[1] ?? '', value: pk, lock: { PK: pk, SK: 'LOCK' } },
  ),
];

// Locks: 2 per account, minus the 4 missing, minus the duplicate's shared email lock, plus orphans and malformed.
const accountsLocks = ACCOUNTS_TOTAL * 2 - 4 - 1 + ACCOUNTS_ORPHANS.length + ACCOUNTS_MALFORMED.length;

const usersProblems: Problem[] = [
  { kind: 'orphan-lock', rule: 'NAME', value: USERS_ORPHAN_NAME, lock: { userId: `NAME#${USERS_ORPHAN_NAME}` } },
  { kind: 'missing-lock', rule: 'NAME', value: USERS_NAMED.choi.name, accounts: [{ userId: USERS_NAMED.choi.userId }] },
];
const usersLocks = USERS_TOTAL - 1 + 1;

const onetableProblems: Problem[] = [
  {
    kind: 'orphan-lock',
    rule: 'User.email',
    value: ONETABLE_TTL_ORPHAN_EMAIL,
    lock: { pk: `_unique#User#email#${ONETABLE_TTL_ORPHAN_EMAIL}`, sk: '_unique#' },
  },
];
/** Items of another OneTable model (`Org`, with its own `_unique#Org#name#…` locks) that the `User` convention ignores. */
export const ONETABLE_OTHER_MODEL_ITEMS = 6;
const onetableLocks = ONETABLE_TOTAL + 1;

/** The expected audit of every demo table. */
export const EXPECTED_PROBLEMS: Readonly<Record<DemoTableName, ExpectedTable>> = {
  accounts: {
    table: 'accounts',
    preset: 'uniq',
    accounts: ACCOUNTS_TOTAL,
    locks: accountsLocks,
    items: ACCOUNTS_TOTAL + accountsLocks,
    summary: summarize(accountsProblems),
    problems: accountsProblems,
  },
  users: {
    table: 'users',
    preset: 'marker',
    accounts: USERS_TOTAL,
    locks: usersLocks,
    items: USERS_TOTAL + usersLocks,
    summary: summarize(usersProblems),
    problems: usersProblems,
  },
  onetable_app: {
    table: 'onetable_app',
    preset: 'onetable',
    accounts: ONETABLE_TOTAL,
    locks: onetableLocks,
    items: ONETABLE_TOTAL + onetableLocks + ONETABLE_OTHER_MODEL_ITEMS,
    summary: summarize(onetableProblems),
    problems: onetableProblems,
  },
};

const keyText = (key: PlainKey | undefined): string =>
  key === undefined
    ? ''
    : JSON.stringify(
        Object.keys(key)
          .sort()
          .map((k) => [k, key[k]]),
      );

/**
 * A canonical string for comparing problems regardless of order and wording: kind, rule, lock key,
 * sorted account keys, and the value (except for malformed locks, whose value text is engine-defined).
 */
export function problemSignature(problem: Problem): string {
  const accounts = (problem.accounts ?? []).map(keyText).sort();
  const value = problem.kind === 'malformed-lock' ? '' : problem.value;
  return JSON.stringify([problem.kind, problem.rule ?? '', value, keyText(problem.lock), accounts]);
}
