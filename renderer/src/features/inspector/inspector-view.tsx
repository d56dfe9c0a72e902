/** The Inspector tab: counts per kind, progress with Cancel, filters and search, the grid, exports. */
import { useMemo, useState } from 'react';
import { PROBLEM_KINDS } from '../../../../shared/model';
import type { AppError } from '../../../../shared/result';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import { useAuditRun } from './audit-context';
import { AuditProgress, IncompleteBanner } from './audit-progress';
import { InspectorTable } from './inspector-table';
import { ProblemCounts } from './problem-counts';
import { downloadText, reportToCsv, reportToJson } from './report-export';
import type { RowFilter } from './row-filter';
import { PROBLEM_LABEL } from './status-chips';
import { LiveWatchPanel } from '../live-watch/live-watch-panel';

/** The id of the search box, focused by the `/` shortcut. */
export const INSPECTOR_SEARCH_ID = 'inspector-search';

/** The inspector for the selected table. */
export function InspectorView({ table }: { table: string }) {
  const audit = useAuditRun();
  const [filter, setFilter] = useState<RowFilter>('all');
  const [search, setSearch] = useState('');
  const [exportError, setExportError] = useState<AppError>();
  const convention = audit.convention;
  const rules = useMemo(() => convention?.rules.map((r) => r.name) ?? [], [convention]);

  const exportAs = async (format: 'json' | 'csv') => {
    const result = await audit.report();
    if (!result.ok) {
      setExportError(result.error);
      return;
    }
    setExportError(undefined);
    const base = `${table}-audit${result.value.complete ? '' : '-INCOMPLETE'}`;
    if (format === 'json') downloadText(reportToJson(result.value), `${base}.json`, 'application/json');
    else downloadText(reportToCsv(result.value), `${base}.csv`, 'text/csv');
  };

  const running = audit.phase === 'running' || audit.phase === 'starting';
  return (
    <div className="inspector" data-testid="inspector" data-audit-phase={audit.phase} data-audit-complete={audit.complete === undefined ? '' : String(audit.complete)}>
      <div className="row">
        <h2 className="spacer">
          Inspector <span className="muted">— {table}</span>
          {convention ? <span className="muted"> · convention {convention.preset}</span> : null}
        </h2>
        <button type="button" className="btn btn-small" onClick={() => audit.start(convention)} disabled={running}>
          Re-run audit
        </button>
        <button type="button" className="btn btn-small" onClick={() => void exportAs('json')} disabled={!audit.runId}>
          Export JSON
        </button>
        <button type="button" className="btn btn-small" onClick={() => void exportAs('csv')} disabled={!audit.runId}>
          Export CSV
        </button>
      </div>
      <ErrorBox error={exportError} title="Export failed" />
      <ErrorBox error={audit.error} title="The audit could not run" />
      {audit.phase === 'starting' ? <Busy label="Starting the audit (reading the convention)…" /> : null}
      {audit.phase === 'running' ? <AuditProgress progress={audit.progress} cancelling={audit.cancelling} onCancel={audit.cancel} /> : null}
      {audit.phase === 'done' && audit.complete === false ? <IncompleteBanner reason={audit.reason} /> : null}
      {audit.phase === 'done' && audit.missedRows ? (
        <div className="alert alert-warn" role="alert" data-testid="audit-missed-rows">
          Some rows did not reach this window while the audit ran (the counts are right, the list is short).{' '}
          <button type="button" className="btn btn-small" onClick={() => audit.start(convention)}>
            Re-run audit
          </button>
        </div>
      ) : null}
      {audit.phase === 'done' && audit.complete ? (
        <p className="muted" role="status" data-testid="audit-complete">
          Audit complete.
        </p>
      ) : null}
      <LiveWatchPanel table={table} convention={convention} />
      <ProblemCounts counts={audit.rows.counts} filter={filter} onFilter={setFilter} />
      <div className="row toolbar">
        <label htmlFor="inspector-filter">Show</label>
        <select id="inspector-filter" value={filter} onChange={(e) => setFilter(e.target.value as RowFilter)} data-testid="inspector-filter">
          <option value="all">All rows</option>
          <option value="problems">Problems only</option>
          {PROBLEM_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {PROBLEM_LABEL[kind]}
            </option>
          ))}
        </select>
        <label htmlFor={INSPECTOR_SEARCH_ID}>Search</label>
        <input
          id={INSPECTOR_SEARCH_ID}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="value or key substring  ( / )"
          data-testid="inspector-search"
        />
      </div>
      {convention ? (
        <InspectorTable rows={audit.rows} keys={convention.keys} rules={rules} filter={{ filter, search }} />
      ) : audit.phase === 'idle' ? (
        <p className="empty">Choose a table to audit.</p>
      ) : null}
    </div>
  );
}
