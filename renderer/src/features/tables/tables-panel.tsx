/** The Tables sidebar section: a paged list of the connection's tables, and a table opened by its name. */
import { useState, type FormEvent } from 'react';
import type { TablesState } from './use-tables';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';

/** Lists table names; the selected one is marked; `onOverview` goes back to the connection's overview. */
export function TablesPanel({
  state,
  selected,
  onSelect,
  onOverview,
}: {
  state: TablesState;
  selected: string | undefined;
  onSelect: (table: string) => void;
  onOverview: () => void;
}) {
  const { page } = state;
  return (
    <section aria-labelledby="tables-title" data-testid="tables">
      <div className="row">
        <h2 id="tables-title" className="section-title spacer">
          Tables
        </h2>
        <button
          type="button"
          className="btn btn-small"
          onClick={onOverview}
          aria-current={selected === undefined}
          data-testid="tables-overview"
        >
          Overview
        </button>
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
            <button
              type="button"
              className="list-item"
              aria-current={table === selected}
              data-testid={`table-${table}`}
              onClick={() => onSelect(table)}
            >
              {table}
            </button>
          </li>
        ))}
      </ul>
      <OpenByName onSelect={onSelect} />
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

// DynamoDB's table name rule: 3 to 255 of letters, digits, _ . -
const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

/** A table past the listed pages, or one the user may read but not list, opened by typing its name. */
function OpenByName({ onSelect }: { onSelect: (table: string) => void }) {
  const [name, setName] = useState('');
  const trimmed = name.trim();
  const invalid = trimmed !== '' && !TABLE_NAME.test(trimmed);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '' || invalid) return;
    onSelect(trimmed);
  };
  return (
    <form onSubmit={submit} className="field" aria-label="Open a table by name">
      <label htmlFor="table-by-name">Open by name</label>
      <div className="row">
        <input
          id="table-by-name"
          className="mono spacer"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="table name"
          autoComplete="off"
          aria-invalid={invalid}
          aria-describedby={invalid ? 'table-by-name-error' : undefined}
          data-testid="table-by-name"
        />
        <button type="submit" className="btn btn-small" disabled={trimmed === '' || invalid}>
          Open
        </button>
      </div>
      {invalid ? (
        <span id="table-by-name-error" className="field-error">
          A table name is 3 to 255 letters, digits, _ . or -.
        </span>
      ) : null}
    </form>
  );
}
