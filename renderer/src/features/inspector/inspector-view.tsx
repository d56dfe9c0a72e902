/** The Inspector tab: counts per kind, progress with Cancel, filters and search, the grid, exports. */
import { ConventionWarnings } from './convention-warnings';
import { useMemo, useRef, useState } from 'react';
import { PROBLEM_KINDS } from '../../../../shared/model';
import type { AppError } from '../../../../shared/result';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import { useWorkspace } from '../../workspace/workspace-context';
import { useAuditRun } from './audit-context';
import { exportDocument, provenanceText } from './export-document';
import { AuditProgress, IncompleteBanner } from './audit-progress';
import { ExportAuditForm, ExportSourceBanner } from './export-audit-form';
import { InspectorTable } from './inspector-table';
import { ProblemCounts } from './problem-counts';
import { downloadText, reportToCsv, reportToJson } from './report-export';
import type { RowFilter } from './row-filter';
import type { ShownProblems } from './audit-state';
import { PROBLEM_LABEL } from './status-chips';
import { LiveWatchPanel } from '../live-watch/live-watch-panel';
import { RepairButton } from '../repair/repair-dialog';

/** The id of the search box, focused by the `/` shortcut. */
export const INSPECTOR_SEARCH_ID = 'inspector-search';

/** The inspector for the selected table. */
export function InspectorView({ table }: { table: string }) {
  const audit = useAuditRun();
  const { connection } = useWorkspace();
  const [filter, setFilter] = useState<RowFilter>('all');
  const [search, setSearch] = useState('');
  const [exportForm, setExportForm] = useState(false);
  // An export the row store could not answer (it failed): said, never a button that waits for ever.
  const [exportError, setExportError] = useState<AppError>();
  const exportOpenRef = useRef<HTMLButtonElement>(null);
  const convention = audit.convention;
  const rules = useMemo(() => convention?.rules.map((r) => r.name) ?? [], [convention]);
  // Columns a person hid (by id: `rule:<name>` or `problems`); narrow windows need the room.
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const shownRules = useMemo(() => rules.filter((r) => !hidden.has(`rule:${r}`)), [rules, hidden]);
  const toggleColumn = (id: string) =>
    setHidden((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  // The export is what the inspector shows (rows re-checked after writes included), never a stale copy.
  const exportAs = async (format: 'json' | 'csv') => {
    const counts = audit.rows.counts;
    if (!convention || !counts || audit.phase !== 'done') return;
    setExportError(undefined);
    let shown: ShownProblems;
    try {
      shown = await audit.shownProblems({ filter, search }, convention.keys);
    } catch (error) {
      setExportError({ kind: 'internal', message: error instanceof Error ? error.message : String(error) });
      return;
    }
    const document = exportDocument({
      table,
      connection,
      convention,
      shown,
      counts,
      complete: audit.complete === true,
      reason: audit.reason,
      warnings: audit.warnings,
      filter: { filter, search },
      writes: audit.rechecks.length,
      now: new Date(),
      source: audit.source ? { ...audit.source, ...(audit.confirmation ? { confirmed: audit.confirmation } : {}) } : undefined,
    });
    const base = `${table}-audit${audit.source ? '-from-export' : ''}${document.complete ? '' : '-INCOMPLETE'}`;
    if (format === 'json') downloadText(reportToJson(document), `${base}.json`, 'application/json');
    else downloadText(reportToCsv(document, provenanceText(document)), `${base}.csv`, 'text/csv');
  };

  // One object per filter change, not per render: the grid is memoized, and every progress tick of a running audit re-renders this view.
  const inspectorFilter = useMemo(() => ({ filter, search }), [filter, search]);
  const running = audit.phase === 'running' || audit.phase === 'starting';
  return (
    <div
      className="inspector"
      data-testid="inspector"
      data-audit-phase={audit.phase}
      data-audit-complete={audit.complete === undefined ? '' : String(audit.complete)}
      data-run-id={audit.runId ?? ''}
      data-stale={String(audit.stale)}
    >
      <div className="row">
        <h2 className="spacer">
          Inspector <span className="muted">— {table}</span>
          {convention ? (
            <span className="muted">
              {' '}
              · convention {convention.preset}
              {convention.lockTable ? ` · locks in ${convention.lockTable}` : ''}
            </span>
          ) : null}
        </h2>
        <button type="button" className="btn btn-small" onClick={() => audit.start(convention)} disabled={running}>
          {audit.source ? 'Audit the live table' : 'Re-run audit'}
        </button>
        <button
          ref={exportOpenRef}
          type="button"
          className="btn btn-small"
          onClick={() => setExportForm((open) => !open)}
          aria-expanded={exportForm}
          disabled={running}
          data-testid="export-audit-open"
        >
          Audit from an export…
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => void exportAs('json')}
          disabled={audit.phase !== 'done'}
          data-testid="export-json"
        >
          Export JSON
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => void exportAs('csv')}
          disabled={audit.phase !== 'done'}
          data-testid="export-csv"
        >
          Export CSV
        </button>
        <RepairButton table={table} filter={inspectorFilter} />
      </div>
      {exportForm ? (
        <ExportAuditForm
          onClose={() => {
            setExportForm(false);
            exportOpenRef.current?.focus();
          }}
          onStart={(request) => {
            setExportForm(false);
            audit.start(convention, request);
          }}
        />
      ) : null}
      {audit.source ? (
        <ExportSourceBanner
          source={audit.source}
          done={audit.phase === 'done'}
          complete={audit.complete === true}
          confirmation={audit.confirmation}
          confirming={audit.confirming}
          onConfirm={audit.confirm}
        />
      ) : null}
      <ErrorBox error={audit.error} title="The audit could not run" />
      <ErrorBox error={exportError} title="The export was not made" />
      {audit.phase === 'starting' ? (
        <Busy label="Starting the audit (reading the convention; for an export, its manifests and a sample)…" />
      ) : null}
      {audit.phase === 'running' ? <AuditProgress progress={audit.progress} cancelling={audit.cancelling} onCancel={audit.cancel} /> : null}
      {audit.phase === 'done' && audit.complete === false ? <IncompleteBanner reason={audit.reason} /> : null}
      {audit.phase === 'done' ? <ConventionWarnings warnings={audit.warnings} /> : null}
      {audit.stale ? (
        <div className="alert alert-warn" role="alert" data-testid="audit-stale">
          <div className="alert-title">Stale: the sandbox is not running</div>
          <p>This audit describes tables that were in the sandbox's memory and are gone. Start the sandbox to audit its fresh demo data.</p>
        </div>
      ) : null}
      {audit.phase === 'done' && audit.complete && !audit.stale ? (
        <p className="muted" role="status" data-testid="audit-complete">
          {audit.source ? 'Audit of the export complete (every data file verified).' : 'Audit complete.'}
        </p>
      ) : null}
      <LiveWatchPanel table={table} convention={convention} />
      <ProblemCounts counts={audit.rows.counts} provisional={running} filter={filter} onFilter={setFilter} />
      <div className="row toolbar">
        <label htmlFor="inspector-filter">Show</label>
        <select
          id="inspector-filter"
          value={filter}
          onChange={(e) => setFilter(e.target.value as RowFilter)}
          data-testid="inspector-filter"
        >
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
        <details className="columns-menu" data-testid="columns-menu">
          <summary className="btn btn-small">Columns</summary>
          <div className="columns-menu-list">
            {[...rules.map((r) => ({ id: `rule:${r}`, label: r })), { id: 'problems', label: 'Problems' }].map((column) => (
              <label key={column.id} className="row">
                <input
                  type="checkbox"
                  checked={!hidden.has(column.id)}
                  onChange={() => toggleColumn(column.id)}
                  data-testid={`column-${column.id}`}
                />{' '}
                {column.label}
              </label>
            ))}
          </div>
        </details>
      </div>
      {convention ? (
        <InspectorTable
          rows={audit.rows}
          onView={audit.setView}
          onWindow={audit.setWindow}
          keys={convention.keys}
          rules={shownRules}
          showProblems={!hidden.has('problems')}
          filter={inspectorFilter}
          lockTable={convention.lockTable}
        />
      ) : audit.phase === 'idle' ? (
        <p className="empty">Choose a table to audit.</p>
      ) : null}
    </div>
  );
}
