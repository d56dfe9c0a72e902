/** Types of a lookup answer: one verdict per rule, with the locks and holders behind it. */
import type { LookupVerdict } from '../../../shared/domain';
import type { PlainKey } from '../../../shared/model';
import type { ScanProgress } from '../../../shared/scan-types';

/** What a value is under one rule (declared once, in the contract). */
export type { LookupVerdict };

/** One candidate lock key that was read (GetItem, consistent). */
export interface LockProbe {
  readonly key: PlainKey;
  readonly exists: boolean;
  /** The owner attribute's value on the lock, when the convention has one and the lock exists. */
  readonly owner?: string;
  /** True for a legacy template (still recognised when reading, never written). */
  readonly legacy: boolean;
}

/** How the holders of a value were found. */
export type HolderSearch =
  | { readonly kind: 'gsi'; readonly index: string }
  /** The holders a complete audit read (see audit-index.ts), each re-read by key; `auditedAt` is when that audit finished (ISO). */
  | { readonly kind: 'audit'; readonly auditedAt: string }
  | { readonly kind: 'scan'; readonly segments: number; readonly complete: boolean };

/** The verdict for one rule. */
export interface RuleLookup {
  readonly rule: string;
  readonly attribute: string;
  /** The value after the rule's normalization (what locks and joins use). */
  readonly normalized: string;
  /** For a scoped rule: the scope this verdict is about (a lookup without a scope answers once per scope found). */
  readonly scope?: Readonly<Record<string, string>>;
  readonly verdict: LookupVerdict;
  /** Every candidate lock key that was read, found or not. */
  readonly locks: readonly LockProbe[];
  /** Accounts holding the value (normalized comparison). */
  readonly holders: readonly PlainKey[];
  readonly search: HolderSearch;
  /** Caveats: GSI exact-match only, owner mismatch, skipped templates, incomplete scan. */
  readonly notes: readonly string[];
}

/** The whole answer. */
export interface LookupAnswer {
  readonly table: string;
  readonly value: string;
  /** `gsi` when every rule used an index, `audit` when every rule used an audit's holders, `scan` when every rule needed the scan, else `mixed`. */
  readonly method: 'gsi' | 'audit' | 'scan' | 'mixed';
  /** When the audit whose holders some rule used finished (ISO): "used the audit of <time>". */
  readonly usedAudit?: string;
  /** False when the holder scan was cancelled or failed; verdicts are then provisional. */
  readonly complete: boolean;
  readonly reason?: string;
  readonly rules: readonly RuleLookup[];
  /** Progress of the holder scan, when one ran. */
  readonly scan?: ScanProgress;
}
