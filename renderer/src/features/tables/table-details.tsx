/** The Table tab: key schema, indexes, item count and size (DescribeTable; counts are approximate by design), and read-only item browsing. */
import type { KeySchema } from '../../../../shared/model';
import { useQuery } from '../../bridge/use-method';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import { formatBytes, formatCount } from './format-size';
import { ItemsBrowser } from '../items/items-browser';

function keyText(keys: KeySchema): string {
  const hash = `${keys.hash.name} (${keys.hash.type}, hash)`;
  return keys.range ? `${hash} + ${keys.range.name} (${keys.range.type}, range)` : hash;
}

/** Details of one table of one connection. */
export function TableDetailsView({ connectionId, table }: { connectionId: string; table: string }) {
  const { data, error, loading, reload } = useQuery('tables.describe', { connectionId, table });
  return (
    <div className="panel" data-testid="table-details">
      <div className="panel-title">
        <h2 className="spacer">{table}</h2>
        <button type="button" className="btn btn-small" onClick={reload}>
          Refresh
        </button>
      </div>
      {loading ? <Busy label="Describing the table…" /> : null}
      <ErrorBox error={error} title="Could not describe the table" />
      {data ? (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd>{data.status}</dd>
            <dt>Key schema</dt>
            <dd className="mono">{keyText(data.keys)}</dd>
            <dt>Item count</dt>
            <dd>
              {formatCount(data.itemCount)} <span className="muted">(DynamoDB updates this about every six hours)</span>
            </dd>
            <dt>Size</dt>
            <dd>{formatBytes(data.sizeBytes)}</dd>
          </dl>
          <h3 className="section-title">Indexes</h3>
          {data.indexes.length === 0 ? (
            <p className="muted">No secondary indexes: lookups fall back to a filtered scan.</p>
          ) : (
            <table className="simple-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Keys</th>
                </tr>
              </thead>
              <tbody>
                {data.indexes.map((index) => (
                  <tr key={index.name}>
                    <td>{index.name}</td>
                    <td>{index.kind === 'global' ? 'GSI' : 'LSI'}</td>
                    <td className="mono">{keyText(index.keys)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
      {data ? <ItemsBrowser connectionId={connectionId} table={table} keys={data.keys} /> : null}
    </div>
  );
}
