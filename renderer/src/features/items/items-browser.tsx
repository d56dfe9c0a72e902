/**
 * Read-only item browsing: query a partition (and a sort key prefix), or scan pages (optionally by
 * partition key prefix), with a filter; each item as DynamoDB JSON or plain JSON. Writes stay in the
 * guarded lock forms.
 */
import { useState, type FormEvent } from 'react';
import type { ItemsPage, MethodArgs } from '../../../../shared/contract';
import type { KeySchema } from '../../../../shared/model';
import { formatKey } from '../../../../shared/plain-key';
import { useAction } from '../../bridge/use-method';
import { Busy } from '../../components/busy';
import { ErrorBox } from '../../components/error-box';
import { JsonView } from '../../components/json-view';
import { VisibleText } from '../../components/visible-text-view';

type FilterOp = 'equals' | 'begins_with' | 'contains' | 'exists';

/** The browser for one table; `keys` names the fields. */
export function ItemsBrowser({ connectionId, table, keys }: { connectionId: string; table: string; keys: KeySchema }) {
  const browse = useAction('items.browse');
  const [partition, setPartition] = useState('');
  const [prefix, setPrefix] = useState('');
  const [attribute, setAttribute] = useState('');
  const [op, setOp] = useState<FilterOp>('contains');
  const [value, setValue] = useState('');
  const [format, setFormat] = useState<'dynamo' | 'plain'>('dynamo');
  // Pages read so far for the current request (Next appends; a new search starts over).
  const [pages, setPages] = useState<readonly ItemsPage[]>([]);
  const [request, setRequest] = useState<MethodArgs<'items.browse'>>();

  const args = (): MethodArgs<'items.browse'> => ({
    connectionId,
    table,
    ...(partition ? { partition } : {}),
    ...(prefix ? { prefix } : {}),
    ...(attribute ? { filter: { attribute, op, ...(op === 'exists' ? {} : { value }) } } : {}),
    limit: 25,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = args();
    setRequest(next);
    setPages([]);
    void browse.run(next).then((r) => r.ok && setPages([r.value]));
  };
  const cursor = pages[pages.length - 1]?.nextCursor;
  const more = () => {
    if (!request || !cursor) return;
    void browse.run({ ...request, cursor }).then((r) => r.ok && setPages((p) => [...p, r.value]));
  };
  const items = pages.flatMap((p) => p.items);
  const scanned = pages.reduce((sum, p) => sum + p.scanned, 0);

  return (
    <section className="panel" aria-labelledby="items-title" data-testid="items-browser">
      <h2 id="items-title">Items (read-only)</h2>
      <form onSubmit={submit} aria-label="Browse items">
        <div className="grid-2">
          <div className="field">
            <label htmlFor="browse-partition">{keys.hash.name} equals (a Query; empty: a Scan)</label>
            <input
              id="browse-partition"
              className="mono"
              value={partition}
              onChange={(e) => setPartition(e.target.value)}
              data-testid="browse-partition"
            />
          </div>
          <div className="field">
            <label htmlFor="browse-prefix">
              {partition && keys.range ? `${keys.range.name} begins with` : `${keys.hash.name} begins with`}
            </label>
            <input
              id="browse-prefix"
              className="mono"
              value={prefix}
              onChange={(e) => setPrefix(e.target.value)}
              data-testid="browse-prefix"
            />
          </div>
          <div className="field">
            <label htmlFor="browse-filter-attribute">Filter: attribute</label>
            <input
              id="browse-filter-attribute"
              className="mono"
              value={attribute}
              onChange={(e) => setAttribute(e.target.value)}
              data-testid="browse-filter-attribute"
            />
          </div>
          <div className="field">
            <label htmlFor="browse-filter-op">Filter: condition</label>
            <div className="row">
              <select id="browse-filter-op" value={op} onChange={(e) => setOp(e.target.value as FilterOp)}>
                <option value="contains">contains</option>
                <option value="equals">equals</option>
                <option value="begins_with">begins with</option>
                <option value="exists">exists</option>
              </select>
              {op === 'exists' ? null : (
                <input
                  aria-label="Filter: value"
                  aria-describedby="browse-filter-text-only"
                  className="mono spacer"
                  value={value}
                  onChange={(e) => setValue(e.target.value)}
                  data-testid="browse-filter-value"
                />
              )}
            </div>
            {op === 'exists' ? null : (
              // The value is sent as a string (S): a number attribute never equals it, and "no items" would look like an answer.
              <small id="browse-filter-text-only" className="muted" data-testid="browse-filter-text-only">
                Compares text (S) values only: a number (N) attribute never matches.
              </small>
            )}
          </div>
        </div>
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={browse.pending} data-testid="browse-run">
            {partition ? 'Query' : 'Scan'}
          </button>
          <div className="segmented" role="group" aria-label="Item format">
            <button type="button" aria-pressed={format === 'dynamo'} onClick={() => setFormat('dynamo')}>
              DynamoDB JSON
            </button>
            <button type="button" aria-pressed={format === 'plain'} onClick={() => setFormat('plain')}>
              Plain JSON
            </button>
          </div>
        </div>
      </form>
      {browse.pending ? <Busy label="Reading items…" /> : null}
      <ErrorBox error={browse.error} title="Could not read items" />
      {pages.length > 0 ? (
        <>
          <p className="muted" role="status" data-testid="browse-summary">
            {items.length} item(s) shown, {scanned} read by DynamoDB ({pages[0]?.mode === 'query' ? 'query' : 'scan'})
            {cursor ? '; more pages remain' : '; no more pages'}.
          </p>
          <ul className="list stack" data-testid="browse-items">
            {items.map((item) => (
              <li key={JSON.stringify(item.key)} data-testid="browse-item">
                <details>
                  <summary>
                    <VisibleText className="mono" text={formatKey(item.key, keys)} />
                  </summary>
                  <JsonView
                    value={format === 'dynamo' ? item.dynamo : item.plain}
                    label={format === 'dynamo' ? 'DynamoDB JSON' : 'Plain JSON'}
                  />
                </details>
              </li>
            ))}
          </ul>
          {cursor ? (
            <button type="button" className="btn btn-small" onClick={more} disabled={browse.pending} data-testid="browse-more">
              Next page
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
