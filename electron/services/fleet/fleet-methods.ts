/** The app's fleet methods: `tables.survey` (does a table hold locks) and `history.list` (what past audits found). */
import type { HistoryView, TableSurveyView } from '../../../shared/contract/views';
import { ok, type Result } from '../../../shared/result';
import type { ConnectionContext, TableContext } from '../context/request-context';
import { historyTarget, readHistory } from '../history/audit-history';
import { surveyTable, type SurveyPacing } from './survey';

/**
 * Samples the context's table and says whether it holds lock items, with detection's preset, confidence
 * and evidence; paced by the app (see SurveyPacing).
 */
export async function surveyView(ctx: TableContext, pacing: SurveyPacing = {}): Promise<Result<TableSurveyView>> {
  const surveyed = await surveyTable(ctx.client, ctx.table, { errorContext: ctx.errorContext }, pacing);
  if (!surveyed.ok) return surveyed;
  const locks = surveyed.value;
  const table = ctx.table.name;
  switch (locks.kind) {
    case 'locks':
      return ok({
        table,
        locks: 'locks',
        convention: { preset: locks.detection.convention.preset, confidence: locks.detection.confidence },
        evidence: locks.detection.evidence,
      });
    case 'no-locks':
      return ok({ table, locks: 'no-locks', why: locks.why });
    case 'empty':
      return ok({ table, locks: 'empty' });
  }
}

/** The history entries of the context's connection target (and `table`, when given), oldest first. */
export async function historyView(
  ctx: ConnectionContext,
  dataDir: string,
  args: { readonly table?: string | undefined },
): Promise<Result<HistoryView>> {
  const entries = await readHistory(dataDir, {
    target: historyTarget(ctx.target),
    ...(args.table !== undefined ? { table: args.table } : {}),
  });
  return ok({ entries });
}
