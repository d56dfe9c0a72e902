/**
 * The domain model of Locksmith: key schemas, lock rules, conventions, problems.
 * Pure types and constants, shared by main and renderer (see ../shared/DESIGN.md "Concepts").
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** A raw DynamoDB item as returned by the SDK (typed attribute values). */
export type Item = Record<string, AttributeValue>;

/** DynamoDB scalar key attribute types. */
export type KeyType = 'S' | 'N' | 'B';

/** One key attribute of a table: its name and scalar type. */
export interface KeyAttribute {
  readonly name: string;
  readonly type: KeyType;
}

/** The primary key of a table, from DescribeTable: a hash key and an optional range key. */
export interface KeySchema {
  readonly hash: KeyAttribute;
  readonly range?: KeyAttribute;
}

/** A plain key value: S → string, N → number (or string when it cannot be a JS number exactly), B → base64 string. */
export type PlainValue = string | number;

/** An item key as plain values, e.g. `{ PK: "ACCT#a1f9c3", SK: "PROFILE" }`. */
export type PlainKey = Readonly<Record<string, PlainValue>>;

/** One normalization step; a rule applies its steps in order. An empty list means "none". */
export type NormalizationStep = 'trim' | 'lowercase' | 'nfc';

/** All normalization steps, in the order they are offered. */
export const NORMALIZATION_STEPS: readonly NormalizationStep[] = ['trim', 'lowercase', 'nfc'];

/**
 * How a lock key is written: templates with exactly one `{value}` placeholder in `hash`
 * (e.g. `UNIQ#EMAIL#{value}`) and a literal `range` (e.g. `LOCK`) when the table has a range key.
 */
export interface LockKeyTemplate {
  readonly hash: string;
  readonly range?: string;
}

/**
 * Scoped (composite) uniqueness: each placeholder of the hash templates other than `{value}` and the
 * account attribute that fills it, e.g. `{ "scope": "orgId" }` for OneTable's
 * `_unique#{scope}#User#nickname#{value}`. The value is unique per tuple (scope values…, value): two
 * accounts holding one nickname in two orgs are both fine, and each needs its own lock.
 */
export type RuleScope = Readonly<Record<string, string>>;

/**
 * The attributes a library writes on a lock item besides its key: attribute name → text template.
 * Templates may use `{value}` (the value as written in the key), `{raw}` (the value as the holder
 * stores it), `{rule}` (the rule's name) and the rule's scope placeholders, e.g. OneTable
 * `{ "_type": "_Unique" }`, ElectroDB `{ "value": "{raw}", "__edb_e__": "constraint", … }`.
 */
export type LockItemTemplate = Readonly<Record<string, string>>;

/** One protected attribute: `email` ↔ `UNIQ#EMAIL#{value}` / `LOCK`, lowercase. */
export interface LockRule {
  /** The rule name used in the CLI (`--rule`), JSON reports and the UI, e.g. `EMAIL`. */
  readonly name: string;
  /** The account attribute that holds the protected value, e.g. `email`. */
  readonly attribute: string;
  /** The canonical lock key (used for writes) followed by legacy forms still recognised when reading. */
  readonly lockKeys: readonly LockKeyTemplate[];
  /** Applied to both the account's value and the lock's value before joining. */
  readonly normalize: readonly NormalizationStep[];
  /** Scope placeholders → account attributes, for uniqueness within a scope (see RuleScope). */
  readonly scope?: RuleScope;
  /** Extra attributes written on every lock item of this rule (see LockItemTemplate). */
  readonly lockItem?: LockItemTemplate;
  /** The DynamoDB type of the protected attribute on accounts: `S` (default) or `N` (numbers compare as numbers). */
  readonly valueType?: 'S' | 'N';
}

/** How an account item is recognised. */
export type AccountMatcher =
  /** Hash key begins with `prefix` (and range key equals `range`, when given). */
  | { readonly kind: 'key-prefix'; readonly prefix: string; readonly range?: string }
  /** Attribute `attribute` equals `value` (OneTable's `_type`). */
  | { readonly kind: 'attribute-equals'; readonly attribute: string; readonly value: string }
  /** Any item that is not a lock (hash-only marker layouts). */
  | { readonly kind: 'not-lock' };

/** Built-in preset names (DESIGN.md "Presets"). */
export type PresetName = 'uniq' | 'marker' | 'onetable' | 'aws-blog' | 'electrodb';

/** All preset names. */
export const PRESET_NAMES: readonly PresetName[] = ['uniq', 'marker', 'onetable', 'aws-blog', 'electrodb'];

/** Everything needed to read one table. */
export interface Convention {
  /** The preset this convention came from, or `custom`. */
  readonly preset: PresetName | 'custom';
  readonly keys: KeySchema;
  readonly account: AccountMatcher;
  readonly rules: readonly LockRule[];
  /**
   * Hash-key prefixes that mark an item as a lock even when no rule matches it
   * (e.g. `UNIQ#`, `_unique#`, `_Unique:`): such items are reported as `malformed-lock`.
   */
  readonly lockPrefixes: readonly string[];
  /** Attribute on lock items naming the holder's hash key value, when the convention stores one. */
  readonly ownerAttribute?: string;
  /**
   * The table holding the lock items, when the application keeps them apart from its accounts
   * (`users` + `users_unique`, written in one TransactWriteItems). Absent: locks live with the accounts.
   */
  readonly lockTable?: string;
}

/** All problem kinds, in report order, exactly as DESIGN.md defines them: the one list (the contract's enum is built from it). */
export const PROBLEM_KINDS = ['orphan-lock', 'missing-lock', 'duplicate-value', 'owner-mismatch', 'malformed-lock'] as const;

/** The five problem kinds. */
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

/** One problem found by the audit; the JSON report's `problems[]` entry. */
export interface Problem {
  readonly kind: ProblemKind;
  /** The rule's name; absent for a malformed lock whose prefix matches no rule. */
  readonly rule?: string;
  /** The normalized value (or the raw key text for a malformed lock). */
  readonly value: string;
  /** For a scoped rule: the scope the value is unique within, by account attribute (`{ "orgId": "acme" }`). */
  readonly scope?: Readonly<Record<string, string>>;
  /** The lock item's key (orphan, owner-mismatch, malformed). */
  readonly lock?: PlainKey;
  /** The accounts involved (missing-lock: the holder; duplicate-value: every holder; owner-mismatch: the real holder). */
  readonly accounts?: readonly PlainKey[];
  /** Why, in words (always for malformed-lock and owner-mismatch). */
  readonly reason?: string;
}

/** Counts per problem kind. */
export type ProblemSummary = Readonly<Record<ProblemKind, number>>;
