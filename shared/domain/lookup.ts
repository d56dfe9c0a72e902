/** The words of a lookup: what a value is under one rule, and how its holders were found. */

/** What a value is under one rule (the lookup service and the UI share this one declaration). */
export type LookupVerdict =
  /** No lock, no account: the value can be claimed. */
  | 'free'
  /** One account holds it and a lock protects it. */
  | 'held'
  /** A lock exists but no account holds the value: the stuck handle. */
  | 'orphan'
  /** An account holds it but no lock protects it (missing-lock). */
  | 'unprotected'
  /** Two or more accounts hold it (duplicate-value). */
  | 'duplicate';

/** How a lookup found the holders: a GSI for every rule, a finished audit's holders re-read by key for every rule, the filtered scan for every rule, or some of each. */
export type LookupMethod = 'index' | 'audit' | 'scan' | 'mixed';
