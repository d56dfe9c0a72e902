/** A connection's home: every listed table with its locks, convention, last audit and trend; Audit all; a click opens the inspector. */
import type { AuditHistoryEntry } from '../../../../shared/audit/history';
import { PROBLEM_KINDS } from '../../../../shared/model';
import { totalProblems } from '../../../../shared/audit/history';
import { Badge } from '../../components/badge';
import { ErrorBox } from '../../components/error-box';
import { ProgressBar } from '../../components/progress-bar';
import { useWorkspace } from '../../workspace/workspace-context';
import type { OverviewRow } from './overview-rows';
import { TrendChart } from './trend-chart';
import type { TablesState } from './use-tables';
import { useOverview } from './use-overview';

function LocksCell({ row }: { row: OverviewRow }) {
  const { survey } = row;
  if (survey.state === 'loading') return <span className="muted">sampling…</span>;
  if (survey.state === 'failed')
    return (
      <Badge tone="danger" title={survey.error.message}>
        could not sample
      </Badge>
    );
  const { view } = survey;
  if (view.locks === 'empty') return <span className="muted">no (empty table)</span>;
  if (view.locks === 'no-locks')
    return (
      <span className="muted" title={view.why}>
        no
      </span>
    );
  return <Badge tone="info">yes</Badge>;
}

function ConventionCell({ row }: { row: OverviewRow }) {
  if (row.survey.state !== 'done' || !row.survey.view.convention) return <span className="muted">—</span>;
  const { preset, confidence } = row.survey.view.convention;
  return (
    <span>
      <span className="mono">{preset}</span>{' '}
      {confidence < 1 ? (
        <Badge tone="warn" title={row.survey.view.evidence?.join('\n')}>
          needs a convention ({confidence})
        </Badge>
      ) : (
        <span className="muted">(detected)</span>
      )}
    </span>
  );
}

function LastAudit({ last }: { last: AuditHistoryEntry | undefined }) {
  if (!last) return <span className="muted">never</span>;
  const total = totalProblems(last.summary);
  const kinds = PROBLEM_KINDS.filter((k) => last.summary[k] > 0).map((k) => `${k} ${last.summary[k]}`);
  return (
    <span>
      <time dateTime={last.time}>{new Date(last.time).toLocaleString()}</time>
      {last.source === 'export' ? <span className="muted"> (export)</span> : null}
      <br />
      {!last.complete ? (
        <Badge tone="warn" title={last.reason}>
          incomplete
        </Badge>
      ) : total === 0 ? (
        <Badge tone="ok">no problems</Badge>
      ) : (
        <Badge tone="danger">{`${total} problem${total === 1 ? '' : 's'}`}</Badge>
      )}{' '}
      {kinds.length > 0 ? <span className="muted">{kinds.join(', ')}</span> : null}
    </span>
  );
}

/** The overview of the connection's listed tables (the current page of the sidebar's list). */
export function OverviewView({ connectionId, tables }: { connectionId: string; tables: TablesState }) {
  const { selectTable } = useWorkspace();
  const names = tables.page?.tables;
  const overview = useOverview(connectionId, names);
  const { auditAll } = overview;
  const auditable = overview.rows.filter((r) => r.auditable).length;
  const failures = Object.entries(auditAll.failures);
  return (
    <div className="panel stack" data-testid="overview">
      <div className="panel-title">
        <h2 className="spacer">Tables at a glance</h2>
        {auditAll.running ? (
          <button
            type="button"
            className="btn btn-small"
            onClick={overview.cancelAll}
            disabled={auditAll.cancelled}
            data-testid="overview-cancel"
          >
            Cancel
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-small btn-primary"
            onClick={overview.startAll}
            disabled={auditable === 0}
            data-testid="overview-audit-all"
          >
            Audit all ({auditable})
          </button>
        )}
      </div>
      <p className="muted">
        Each table is sampled to see whether it holds lock items; Audit all audits those whose convention detection is sure of. Past audits
        come from this machine’s audit history.
      </p>
      {auditAll.running || auditAll.total > 0 ? (
        <ProgressBar
          label={
            auditAll.running
              ? auditAll.cancelled
                ? 'Cancelling…'
                : 'Auditing all tables…'
              : auditAll.cancelled
                ? 'Audit all cancelled'
                : 'Audit all finished'
          }
          fraction={auditAll.total ? auditAll.finished / auditAll.total : 1}
          spinner={false}
        >
          <span data-testid="overview-progress">
            {auditAll.finished} of {auditAll.total} tables
            {Object.entries(auditAll.items)
              .map(([t, n]) => ` · ${t}: ${n.toLocaleString()} items`)
              .join('')}
          </span>
        </ProgressBar>
      ) : null}
      {failures.length > 0 ? (
        <ul className="muted" aria-label="Audits that did not complete">
          {failures.map(([t, why]) => (
            <li key={t}>
              {t}: {why}
            </li>
          ))}
        </ul>
      ) : null}
      <ErrorBox error={overview.historyError} title="Could not read the audit history" />
      {names && names.length === 0 ? <p className="muted">No tables. {tables.page?.hint}</p> : null}
      {overview.rows.length > 0 ? (
        <table className="simple-table overview-table" aria-label="Tables with their lock health">
          <thead>
            <tr>
              <th scope="col">Table</th>
              <th scope="col">Holds locks</th>
              <th scope="col">Convention</th>
              <th scope="col">Last audit</th>
              <th scope="col">Problems over time</th>
            </tr>
          </thead>
          <tbody>
            {overview.rows.map((row) => (
              <tr key={row.table} data-testid={`overview-row-${row.table}`}>
                <th scope="row">
                  <button type="button" className="btn-link mono" onClick={() => selectTable(row.table)}>
                    {row.table}
                  </button>
                </th>
                <td>
                  <LocksCell row={row} />
                </td>
                <td>
                  <ConventionCell row={row} />
                </td>
                <td>
                  <LastAudit last={row.last} />
                </td>
                <td>
                  <TrendChart times={row.trend.times} problems={row.trend.problems} label={row.trendText} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
