/**
 * What an export holds: the problems of the rows the inspector shows (after any write re-checked
 * them), the counts it shows, and where they came from — connection, convention, filter, time,
 * completeness — so a file read later says what it is. Pure.
 */
import type { ConventionWarning } from '../../../../shared/audit/fit';
import type { AuditCounts, AuditReport } from '../../../../shared/audit/types';
import type { ConnectionView, ExportConfirmView, ExportSourceView } from '../../../../shared/contract';
import type { Convention } from '../../../../shared/model';
import type { InspectorFilter } from './row-filter';
import type { ShownProblems } from './audit-state';
import { PROBLEM_LABEL } from './status-chips';

/** Where an export came from; never credentials (the connection view carries none). */
export interface ExportProvenance {
  readonly exportedAt: string;
  readonly connection: { readonly id: string; readonly label: string; readonly region: string; readonly endpoint: string | null } | null;
  /** "all problems", "problems only" or a kind's name, plus the search text when there is one. */
  readonly filter: string;
  readonly search: string;
  readonly rowsShown: number;
  /** Values re-checked after writes since the audit ran (their rows and counts are the re-checked ones). */
  readonly writesSinceAudit: number;
}

/** The DynamoDB export an audit read instead of the live table, and whether its findings were confirmed since. */
export interface ExportedSource extends ExportSourceView {
  /** Absent: not confirmed against the live table (findings as of the export's time). */
  readonly confirmed?: ExportConfirmView;
}

/** The exported report: the `--json` shape of the audit, as shown, plus its provenance. */
export interface ExportedReport extends AuditReport {
  /** Set when the audit read a DynamoDB export (problem groups only), as `audit --export` reports it. */
  readonly source?: ExportedSource;
  readonly exported: ExportProvenance;
}

/** Everything an export is made from. */
export interface ExportInput {
  readonly table: string;
  readonly connection: ConnectionView | undefined;
  readonly convention: Convention;
  /** The problems of the rows the filter keeps, from the row store. */
  readonly shown: ShownProblems;
  readonly counts: AuditCounts;
  readonly complete: boolean;
  readonly reason: string | undefined;
  readonly warnings: readonly ConventionWarning[];
  readonly filter: InspectorFilter;
  readonly writes: number;
  readonly now: Date;
  /** The export the run read, if it read one, and its confirmation. */
  readonly source?: ExportedSource | undefined;
}

/** The filter in words, as the export states it. */
export function filterText(filter: InspectorFilter['filter']): string {
  if (filter === 'all') return 'all problems';
  if (filter === 'problems') return 'problems only';
  return PROBLEM_LABEL[filter];
}

/** Builds the export of what the inspector shows. */
export function exportDocument(input: ExportInput): ExportedReport {
  const { shown } = input;
  const { scanned, accounts, locks, summary } = input.counts;
  const c = input.connection;
  return {
    table: input.table,
    complete: input.complete,
    ...(input.reason !== undefined ? { reason: input.reason } : {}),
    convention: input.convention,
    scanned,
    accounts,
    locks,
    summary,
    problems: shown.problems.filter(
      (p) => input.filter.filter === 'all' || input.filter.filter === 'problems' || p.kind === input.filter.filter,
    ),
    warnings: input.warnings,
    ...(input.source ? { source: input.source } : {}),
    exported: {
      exportedAt: input.now.toISOString(),
      connection: c ? { id: c.id, label: c.label, region: c.region, endpoint: c.endpoint } : null,
      filter: filterText(input.filter.filter),
      search: input.filter.search.trim(),
      rowsShown: shown.rowsShown,
      writesSinceAudit: input.writes,
    },
  };
}

/** One line of words for the CSV's provenance row. */
export function provenanceText(report: ExportedReport): string {
  const e = report.exported;
  const where = e.connection
    ? `${e.connection.label} (${e.connection.region}${e.connection.endpoint ? `, ${e.connection.endpoint}` : ''})`
    : 'no connection';
  return [
    `exported ${e.exportedAt}`,
    `table ${report.table} on ${where}`,
    `convention ${report.convention.preset}`,
    `filter: ${e.filter}${e.search ? `, search "${e.search}"` : ''}`,
    `${e.rowsShown} rows shown`,
    ...(report.source ? [exportSourceText(report.source)] : []),
    report.complete ? 'complete' : 'INCOMPLETE',
    ...(e.writesSinceAudit > 0 ? [`${e.writesSinceAudit} value(s) re-checked after writes`] : []),
  ].join('; ');
}

/** An export run in words: which export, when, and whether its findings were confirmed against the live table. */
function exportSourceText(source: ExportedSource): string {
  const confirmed = source.confirmed
    ? `confirmed against the live table: ${source.confirmed.confirmed} still true, ${source.confirmed.stale} stale`
    : 'NOT confirmed against the live table';
  return `from export ${source.exportArn} at ${source.exportTime} (problem groups only; ${confirmed})`;
}
