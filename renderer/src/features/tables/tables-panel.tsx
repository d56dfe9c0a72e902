/** The Tables sidebar section: a paged list of the connection's tables. */
import type { TablesState } from './use-tables';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';

/** Lists table names; the selected one is marked. */
export function TablesPanel({ state, selected, onSelect }: { state: TablesState; selected: string | undefined; onSelect: (table: string) => void }) {
  const { page } = state;
  return (
    <section aria-labelledby="tables-title" data-testid="tables">
      <div className="row">
        <h2 id="tables-title" className="section-title spacer">
          Tables
        </h2>
        <button type="button" className="btn btn-small" onClick={state.reload} aria-label="Reload tables">
          Reload
        </button>
      </div>
      {state.loading ? <Busy label="Listing tables…" /> : null}
      <ErrorBox error={state.error} title="Could not list tables" />
      {page && page.tables.length === 0 ? <p className="muted">No tables. {page.hint}</p> : null}
      <ul className="list">
        {page?.tables.map((table) => (
          <li key={table}>
            <button type="button" className="list-item" aria-current={table === selected} data-testid={`table-${table}`} onClick={() => onSelect(table)}>
              {table}
            </button>
          </li>
        ))}
      </ul>
      {state.next || state.previous ? (
        <div className="row">
          <button type="button" className="btn btn-small" disabled={!state.previous} onClick={state.previous}>
            Previous
          </button>
          <span className="muted">Page {state.pageNumber}</span>
          <button type="button" className="btn btn-small" disabled={!state.next} onClick={state.next}>
            Next
          </button>
        </div>
      ) : null}
    </section>
  );
}
