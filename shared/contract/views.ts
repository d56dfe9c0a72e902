/**
 * Result types of bridge methods: renderer-facing view models. Declared once here; the contract
 * refers to them, main adapts service output to them, the renderer reads them. No credentials, ever.
 */
import type { AppError } from '../result';
import type { Convention, KeySchema, PlainKey } from '../model';
import type { ConventionWarning } from '../audit/fit';
import type { AuditCounts, AuditReport } from '../audit/types';
import type { AuditHistoryEntry } from '../audit/history';
import type { WireDelta } from './audit-wire';
import type { ScanProgress } from '../scan-types';
import type {
  ConnectionKind,
  ConnectionState,
  CredentialSource,
  EndpointSource,
  JsonValue,
  LookupMethod,
  LookupVerdict,
  ProfileKind,
} from '../domain';

/** One connection in the sidebar. */
export interface ConnectionView {
  readonly id: string;
  readonly label: string;
  readonly kind: ConnectionKind;
  /** Only for kind `profile`. */
  readonly profileKind?: ProfileKind;
  readonly region: string;
  /** The endpoint the client will really use; null means the AWS default for the region. */
  readonly endpoint: string | null;
  readonly endpointSource: EndpointSource;
  readonly writable: boolean;
  readonly state: ConnectionState;
  /** The last error (with its fix hint), when state is `error`. */
  readonly error?: AppError;
  /** Names (never values) of environment variables that change what this connection does, e.g. `AWS_ENDPOINT_URL_DYNAMODB`. */
  readonly envOverrides: readonly string[];
  /** Endpoint connections: what requests are signed with (the sandbox signs with its own private key). */
  readonly credentials?: CredentialSource | { readonly source: 'sandbox' };
  /** Endpoint connections: `loopback` (this machine), `remote` (another host: read-only until its host is typed), `aws`. */
  readonly trust?: 'loopback' | 'remote' | 'aws';
  /** What must be typed back to allow writes (a profile name, a remote endpoint's host); absent when a click is enough. */
  readonly writeConfirm?: string;
}

/** The connections list with the selection and anything the user should know about the config files. */
export interface ConnectionsView {
  readonly connections: readonly ConnectionView[];
  readonly selectedId: string | null;
  /** e.g. "~/.aws/config line 12: cannot parse — the AWS SDK would silently ignore this file". */
  readonly warnings: readonly string[];
  /** Names of credential environment variables present (AWS_ACCESS_KEY_ID, AWS_PROFILE…), never their values. */
  readonly envCredentials: readonly string[];
  /** The endpoint the "add endpoint" form offers: `http://localhost:8000`. */
  readonly suggestedEndpoint: string;
  /** Where AWS profiles are read from (`~/.aws/config`, `~/.aws/credentials` or the AWS_* file variables): said when none is found. */
  readonly profileFiles: readonly string[];
}

/** The bundled sandbox (DynamoDB Local started by the app). */
export interface SandboxView {
  readonly state: 'stopped' | 'starting' | 'running' | 'error';
  readonly endpoint?: string;
  readonly error?: AppError;
}

/** One page of table names. */
export interface TablesPage {
  readonly tables: readonly string[];
  /** Pass back as `cursor` to get the next page; absent on the last page. */
  readonly nextCursor?: string;
  /** Why a local endpoint may list no tables (per-access-key databases without -sharedDb…). */
  readonly hint?: string;
}

/** A global or local secondary index. */
export interface IndexView {
  readonly name: string;
  readonly kind: 'global' | 'local';
  readonly keys: KeySchema;
}

/** Whether a table holds lock items, from detection on a bounded sample (the overview's first column). */
export interface TableSurveyView {
  readonly table: string;
  /** `locks`: detection found a convention; `no-locks`: items, none a lock; `empty`: the sample was empty. */
  readonly locks: 'locks' | 'no-locks' | 'empty';
  /** The detected convention's preset and how sure detection is (0..1; below 1 a person should confirm it). */
  readonly convention?: { readonly preset: string; readonly confidence: number };
  readonly evidence?: readonly string[];
  /** Why no convention fits (no-locks). */
  readonly why?: string;
}

/** The audit history of a connection's tables (or one table), oldest first. */
export interface HistoryView {
  readonly entries: readonly AuditHistoryEntry[];
}

/** DescribeTable, reduced to what the UI shows. */
export interface TableDetails {
  readonly name: string;
  readonly keys: KeySchema;
  readonly indexes: readonly IndexView[];
  readonly itemCount: number;
  readonly sizeBytes: number;
  readonly status: string;
}

/** A proposed convention with the evidence for it. */
export interface DetectionView {
  readonly convention: Convention;
  /** Human lines, e.g. "1,998 of 2,000 sampled lock keys match `UNIQ#<RULE>#…`". */
  readonly evidence: readonly string[];
  readonly sampled: number;
  /** What the sample holds, for checking an edited convention before it runs (counts and key texts, no values). */
  readonly sample?: SampleDigest;
}

/** A digest of the sampled items: accounts (under the detected convention) by attribute, and the hash keys of the rest. */
export interface SampleDigest {
  readonly accounts: number;
  /** Attribute name → sampled accounts having it as a string or number. */
  readonly attributes: Readonly<Record<string, number>>;
  /** Hash key texts of sampled items that are not accounts (lock candidates), at most a few hundred. */
  readonly otherHashes: readonly string[];
  /** On tables with a sort key: the sort key text of each of otherHashes, in order (null where it is not a string). */
  readonly otherRanges?: readonly (string | null)[];
}

/** The convention saved for a table, if any. */
export interface SavedConventionView {
  readonly convention: Convention | null;
}

/** A started audit. */
export interface AuditStarted {
  readonly runId: string;
  readonly convention: Convention;
  /** Set when the items come from a DynamoDB export, not a scan of the live table: the inspector says so. */
  readonly source?: ExportSourceView;
}

/** The export an audit reads (`audit.startExport`): what the inspector's header names instead of "live". */
export interface ExportSourceView {
  readonly kind: 'export';
  readonly exportArn: string;
  /** The export's point in time (ISO). */
  readonly exportTime: string;
  /** Items the export's manifest lists. */
  readonly itemCount: number;
}

/** The answer of `audit.confirmExport`: how many findings still hold against the live table and how many were stale. */
export interface ExportConfirmView {
  readonly confirmed: number;
  readonly stale: number;
}

/** One event of a running audit (the `audit.events` stream). */
export type AuditEvent =
  /**
   * Rows in the wire form (audit-wire.ts: `decodeDelta` gives the engine's AuditDelta back).
   * `snapshot`: the delta holds every row of the run so far (a late or re-joining subscriber): replace the list with it.
   */
  | { readonly type: 'delta'; readonly runId: string; readonly delta: WireDelta; readonly snapshot?: true }
  | { readonly type: 'progress'; readonly runId: string; readonly progress: ScanProgress }
  /** `warnings`: the rules the table contradicts (see audit/fit.ts), present only when there is one. */
  | {
      readonly type: 'done';
      readonly runId: string;
      readonly complete: boolean;
      readonly reason?: string;
      readonly counts: AuditCounts;
      readonly warnings?: readonly ConventionWarning[];
    };

/** The report of a run (final, or partial while it runs). */
export type AuditReportView = AuditReport;

/** One page of read-only item browsing (a Query by partition key, or a page of a Scan). */
export interface ItemsPage {
  readonly mode: 'query' | 'scan';
  readonly items: readonly { readonly key: PlainKey; readonly dynamo: JsonValue; readonly plain: JsonValue }[];
  /** Items DynamoDB read for this page (a filter can read many and return few). */
  readonly scanned: number;
  /** Opaque: pass it back for the next page. */
  readonly nextCursor?: string;
}

/** One item, as DynamoDB JSON and as plain JSON (the item viewer). */
export interface ItemView {
  readonly found: boolean;
  readonly dynamo: JsonValue;
  readonly plain: JsonValue;
}

/** One rule's answer of a lookup. */
export interface LookupRuleView {
  readonly rule: string;
  readonly normalized: string;
  /** For a scoped rule: the scope this verdict is about (account attribute → value). */
  readonly scope?: Readonly<Record<string, string>>;
  readonly verdict: LookupVerdict;
  /** The lock item's key, when a lock exists. */
  readonly lock?: PlainKey;
  readonly owner?: string;
  /** Accounts holding the value. */
  readonly holders: readonly PlainKey[];
  /** Caveats (exact-match index, incomplete scan, legacy lock form…). */
  readonly notes?: readonly string[];
  /**
   * Set (the audit's end, ISO) when the holders came from an audit's index: those it names were re-read
   * by key, but an account another client wrote since is not seen. The verdict holds as of that audit and
   * is not confirmed by a scan (`lookup.run` with `confirm` scans).
   */
  readonly asOfAudit?: string;
  /**
   * Set (the index's name) when the holders came from a GSI query: an index is eventually consistent and
   * matches the stored spelling only, so its "no holder" is not certain (`lookup.run` with `confirm` scans).
   */
  readonly byIndex?: string;
  /** When finding the holders took a scan or an audit: the GSI that makes it one Query (what `locksmith suggest-index` prints). */
  readonly suggestedIndex?: SuggestedIndexView;
}

/** A GSI to add for instant lookups of one rule: the exact AWS CLI command, nothing created. */
export interface SuggestedIndexView {
  readonly indexName: string;
  readonly attribute: string;
  /** `aws dynamodb update-table --cli-input-json '…'` (UpdateTable with GlobalSecondaryIndexUpdates). */
  readonly awsCli: string;
  readonly notes: readonly string[];
}

/** The answer of a lookup and how it was found. */
export interface LookupView {
  readonly value: string;
  /** `index` when every rule queried a GSI on its attribute, `scan` when every rule needed the scan, else `mixed`. */
  readonly method: LookupMethod;
  /** The first GSI queried, when one was. */
  readonly indexName?: string;
  /** When the audit whose holders some rule used finished (ISO): the answer "used the audit of <time>". */
  readonly usedAudit?: string;
  readonly rules: readonly LookupRuleView[];
  /** False when the holder scan did not finish: verdicts are provisional (`reason` says why). */
  readonly complete?: boolean;
  readonly reason?: string;
}

/** An MFA code request (the `mfa.prompts` stream); `closed` tells the dialog to go away. */
export type MfaPromptEvent =
  | { readonly type: 'prompt'; readonly promptId: string; readonly profile: string; readonly serial: string }
  | { readonly type: 'closed'; readonly promptId: string; readonly reason: 'answered' | 'cancelled' | 'timeout' };

/** UI preferences (persisted by main, no secrets). */
export interface UiSettings {
  readonly theme: 'system' | 'light' | 'dark';
}

/** What the renderer needs at startup. */
export interface AppInfo {
  readonly version: string;
  readonly mode: 'electron' | 'browser';
  /** The connection and table to open first (first run: the sandbox and `accounts`). */
  readonly startup: { readonly connectionId: string; readonly table?: string } | null;
}
