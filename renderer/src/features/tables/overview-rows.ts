/** The overview's rows: per table, its locks (from the survey), its last audit and the trend of its problems (from the history). */
import type { AuditHistoryEntry } from '../../../../shared/audit/history';
import { totalProblems } from '../../../../shared/audit/history';
import type { TableSurveyView } from '../../../../shared/contract';
import type { AppError } from '../../../../shared/result';

/** Audits shown in a trend (the newest ones). */
export const TREND_AUDITS = 20;

/** A table's survey as the overview holds it: loading, answered, or failed. */
export type SurveyState =
  | { readonly state: 'loading' }
  | { readonly state: 'done'; readonly view: TableSurveyView }
  | { readonly state: 'failed'; readonly error: AppError };

/** One row of the overview. */
export interface OverviewRow {
  readonly table: string;
  readonly survey: SurveyState;
  /** The newest audit of the table (complete or not). */
  readonly last?: AuditHistoryEntry;
  /** Problem totals of its newest complete audits, oldest first, with their times (ms). */
  readonly trend: { readonly times: readonly number[]; readonly problems: readonly number[] };
  /** The trend in words (the chart's accessible name). */
  readonly trendText: string;
  /** Audit all audits it: it holds locks and detection is sure (below confidence 1 a person confirms the convention first). */
  readonly auditable: boolean;
}

/** "3 audits: 5, 2, 0 problems (newest last)", or that there are none. */
export function trendText(problems: readonly number[]): string {
  if (problems.length === 0) return 'no complete audits yet';
  const first = problems[0]!;
  const last = problems[problems.length - 1]!;
  const direction = problems.length < 2 ? '' : last > first ? ', rising' : last < first ? ', falling' : ', steady';
  return `${problems.length} complete audit${problems.length === 1 ? '' : 's'}: ${problems.join(', ')} problems (oldest first)${direction}`;
}

/** Builds the rows of `tables` from their surveys and the connection's history (oldest first). */
export function overviewRows(
  tables: readonly string[],
  surveys: ReadonlyMap<string, SurveyState>,
  history: readonly AuditHistoryEntry[],
): OverviewRow[] {
  const byTable = new Map<string, AuditHistoryEntry[]>();
  for (const entry of history) {
    const list = byTable.get(entry.table);
    if (list) list.push(entry);
    else byTable.set(entry.table, [entry]);
  }
  return tables.map((table) => {
    const entries = byTable.get(table) ?? [];
    const complete = entries.filter((e) => e.complete).slice(-TREND_AUDITS);
    const problems = complete.map((e) => totalProblems(e.summary));
    const survey = surveys.get(table) ?? { state: 'loading' };
    const auditable = survey.state === 'done' && survey.view.locks === 'locks' && (survey.view.convention?.confidence ?? 0) >= 1;
    return {
      table,
      survey,
      ...(entries.length > 0 ? { last: entries[entries.length - 1]! } : {}),
      trend: { times: complete.map((e) => Date.parse(e.time)), problems },
      trendText: trendText(problems),
      auditable,
    };
  });
}
