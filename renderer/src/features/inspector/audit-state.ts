/** What the inspector knows of one audit run (`useAudit`'s answer) and what starts one. */
import type { ConventionWarning } from '../../../../shared/audit/fit';
import type { ExportConfirmView, ExportSourceView, LookupView } from '../../../../shared/contract';
import type { Convention, KeySchema, Problem } from '../../../../shared/model';
import type { AppError } from '../../../../shared/result';
import type { ScanProgress } from '../../../../shared/scan-types';
import type { InspectorFilter } from './row-filter';
import type { RowsView, ViewSpec } from './row-store';

/** Where the run is. */
export type AuditPhase = 'idle' | 'starting' | 'running' | 'done' | 'error';

/** What an export of the rows shown is made from. */
export interface ShownProblems {
  readonly rowsShown: number;
  readonly problems: readonly Problem[];
}

/** Where an audit from an export reads (the "Audit from an export…" form). */
export interface ExportRequest {
  /** An absolute local folder or s3://bucket/prefix. */
  readonly path: string;
  readonly memoryMb?: number;
  /** For s3:// on an endpoint connection: the S3-compatible endpoint. */
  readonly s3Endpoint?: string;
}

/** Everything the inspector shows about the run. */
export interface AuditState {
  readonly phase: AuditPhase;
  readonly runId: string | undefined;
  readonly convention: Convention | undefined;
  /** The rows as the grid shows them: counts, the view's length and the window asked for (see `row-store.ts`). */
  readonly rows: RowsView;
  readonly progress: ScanProgress | undefined;
  /** Set when the run ended: false means incomplete (cancelled, a segment failed, the endpoint went away). */
  readonly complete: boolean | undefined;
  readonly reason: string | undefined;
  /** Rules the table contradicts, once the run ended (see audit/fit.ts): the inspector's banner, and the lock form asks for a reviewed convention. */
  readonly warnings: readonly ConventionWarning[];
  readonly cancelling: boolean;
  readonly error: AppError | undefined;
  /**
   * Fresh lookups applied since the run ended (one per write), newest last: the rows and counts
   * include them, and every view of the value (the Lookup card, exports) takes them as the truth.
   */
  readonly rechecks: readonly LookupView[];
  /** The data this run read is gone (the sandbox stopped): its rows describe nothing any more. */
  readonly stale: boolean;
  /** Set when the run reads a DynamoDB export, not the live table. */
  readonly source: ExportSourceView | undefined;
  /** After "Confirm against the live table": how many findings still hold and how many were stale. */
  readonly confirmation: ExportConfirmView | undefined;
  readonly confirming: boolean;
  /** Starts a live audit, or with `fromExport` an audit of that export of the table. */
  readonly start: (convention?: Convention, fromExport?: ExportRequest) => void;
  /** Re-checks an export run's findings against the live table (the run's rows and counts follow). */
  readonly confirm: () => void;
  readonly cancel: () => void;
  /** Re-checks one value after a transaction: rows holding it are updated in place from a fresh lookup. */
  readonly patch: (lookup: LookupView) => void;
  /** Sets the order and filter of the rows. */
  readonly setView: (spec: ViewSpec) => void;
  /** Asks for rows `start…end - 1` of the view. */
  readonly setWindow: (start: number, end: number) => void;
  /** The problems of the rows `filter` keeps (rows re-checked after writes included), for an export. */
  readonly shownProblems: (filter: InspectorFilter, keys: KeySchema) => Promise<ShownProblems>;
}

/** What else decides the run: `epoch` changes when the data behind the connection was replaced (a new run starts); `stale` marks the shown run as describing data that is gone. */
export interface AuditSource {
  readonly epoch: number;
  readonly stale: boolean;
}
