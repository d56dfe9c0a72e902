/** Types of a lookup answer: one verdict per rule, with the locks and holders behind it. */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { LookupVerdict } from '../../../shared/domain';
import type { Convention, PlainKey } from '../../../shared/model';
import type { ScanProgress } from '../../../shared/scan-types';
import type { ErrorContext } from '../dynamo/errors';
import type { GsiInfo } from '../dynamo/tables';
import type { AuditIndex } from '../audit/audit-index';

/** What a value is under one rule (declared once, in shared/domain). */
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

/** What to look up, where. */
export interface LookupOptions {
  readonly client: DynamoDBClient;
  readonly table: { readonly name: string; readonly gsis: readonly GsiInfo[] };
  readonly convention: Convention;
  readonly value: string;
  /** A rule name; default: every rule of the convention. */
  readonly rule?: string;
  /**
   * For scoped rules: the scope to look in, by account attribute (`{ orgId: "acme" }`). Without it,
   * a scoped rule's locks and holders are found in every scope by one scan.
   */
  readonly scope?: Readonly<Record<string, string>>;
  /** Segments of the holder scan (when no GSI fits). */
  readonly segments?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ScanProgress) => void;
  readonly errorContext?: ErrorContext;
  /**
   * A GSI finds only the stored spellings queried and is eventually consistent; an audit cannot see
   * later writes: when either finds no holder, confirm with a consistent scan (re-checks after a write
   * and live-watch re-checks need this certainty; interactive lookups may skip it).
   */
  readonly confirmAbsenceWithScan?: boolean;
  /**
   * A complete audit of this table (see audit-index.ts): rules without a GSI take their holders from it,
   * re-read by key, instead of scanning. Ignored unless it is of this table under this very convention.
   */
  readonly auditIndex?: AuditIndex;
}
