/** What crosses between the export audit's parent and its child process (plain JSON). */
import type { AuditReport, GroupRow } from '../../../shared/audit/types';
import type { Convention } from '../../../shared/model';

/** Where an export audit's items came from: `source` in the report. */
export interface ExportSource {
  readonly kind: 'export';
  /** The full export's ARN. */
  readonly exportArn: string;
  /** Its point in time, or the last incremental's end when incrementals were applied. */
  readonly exportTime: string;
  /** Lines read from data files (full export items plus incremental records). */
  readonly itemsRead: number;
  /** Incrementals applied on top, in order. */
  readonly incrementals?: readonly { readonly exportArn: string; readonly exportTime: string }[];
}

/** The report of an audit from an export: the live audit's report plus `source` (and `stale` once confirmed). */
export type ExportAuditReport = AuditReport & { readonly source: ExportSource };

/** The child's task. */
export interface ExportAuditRequest {
  /** Local export folders: a full export, then incrementals in time order. */
  readonly exports: readonly string[];
  readonly convention: Convention;
  readonly table: string;
  /** Folder for the database file and its spill files (the app's cache); emptied afterwards. */
  readonly cacheDir: string;
  readonly memoryMb: number;
  readonly threads?: number;
  /** Also send the problem groups (the app's inspector shows them; the CLI does not need them). */
  readonly rows?: boolean;
}

/** Messages from the child. */
export type ExportAuditMessage =
  | { readonly kind: 'step'; readonly step: string }
  | { readonly kind: 'done'; readonly report: ExportAuditReport; readonly pulled: number; readonly rows?: readonly GroupRow[] }
  | { readonly kind: 'error'; readonly message: string; readonly file?: string; readonly export?: boolean };
