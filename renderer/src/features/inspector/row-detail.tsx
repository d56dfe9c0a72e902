/** An expanded inspector row: the account's lock items (full keys, attributes) or the stray lock, with the fitting actions. */
import { useState } from 'react';
import type { GroupRow } from '../../../../shared/audit/types';
import type { KeySchema, PlainKey } from '../../../../shared/model';
import { formatKey } from '../../../../shared/plain-key';
import { useWorkspace } from '../../workspace/workspace-context';
import { useAuditRun } from './audit-context';
import { ItemViewer } from './item-viewer';
import { LockStatusChip } from './status-chips';
import { VisibleText } from '../../components/visible-text-view';

/** A scope as people read it: `orgId acme`. */
const scopeText = (scope: Readonly<Record<string, string>>): string =>
  Object.entries(scope)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/** Details of one row; `lockTable` names where the locks live when the convention keeps them apart. */
export function RowDetail({ row, keys, lockTable }: { row: GroupRow; keys: KeySchema; lockTable?: string | undefined }) {
  const { openLockForm, openLookup } = useWorkspace();
  // The orphan verdict is the run's (an export may be hours old): the release form says so.
  const fromExport = useAuditRun().source !== undefined;
  // Which item is open, and whether it is a lock (read from the lock table when the convention has one).
  const [viewing, setViewing] = useState<{ key: PlainKey; lock: boolean }>();
  const viewer = viewing ? (
    <ItemViewer
      itemKey={viewing.key}
      keys={keys}
      {...(viewing.lock && lockTable ? { table: lockTable } : {})}
      onClose={() => setViewing(undefined)}
    />
  ) : null;

  if (row.kind !== 'account') {
    return (
      <div className="detail" data-testid="row-detail">
        <dl className="facts">
          <dt>Lock key</dt>
          <dd className="mono">
            <VisibleText text={formatKey(row.key, keys)} />
          </dd>
          <dt>Rule</dt>
          <dd>{row.rule ?? <span className="muted">no rule matches this prefix</span>}</dd>
          <dt>Value</dt>
          <dd className="mono">{row.value === '' ? <span className="muted">(empty)</span> : <VisibleText text={row.value} />}</dd>
          {row.scope ? (
            <>
              <dt>Unique within</dt>
              <dd className="mono" data-testid="row-scope">
                <VisibleText text={scopeText(row.scope)} />
              </dd>
            </>
          ) : null}
          {lockTable ? (
            <>
              <dt>Lives in</dt>
              <dd className="mono">{lockTable}</dd>
            </>
          ) : null}
          {row.owner ? (
            <>
              <dt>Owner named on the lock</dt>
              <dd className="mono">
                <VisibleText text={row.owner} />
              </dd>
            </>
          ) : null}
          {row.reason ? (
            <>
              <dt>Why</dt>
              <dd>{row.reason}</dd>
            </>
          ) : null}
        </dl>
        <div className="row">
          <button type="button" className="btn btn-small" onClick={() => setViewing({ key: row.key, lock: true })}>
            View lock item
          </button>
          {row.kind === 'orphan-lock' && row.rule ? (
            <button
              type="button"
              className="btn btn-small btn-primary"
              onClick={() =>
                openLockForm({
                  kind: 'release',
                  rule: row.rule,
                  value: row.value,
                  lock: row.key,
                  ...(row.scope ? { scope: row.scope } : {}),
                  orphanPer: fromExport ? 'export' : 'audit',
                })
              }
            >
              Release this lock…
            </button>
          ) : null}
          <button type="button" className="btn btn-small" onClick={() => openLookup(row.value)}>
            Look up value
          </button>
        </div>
        {viewer}
      </div>
    );
  }

  return (
    <div className="detail" data-testid="row-detail">
      <div className="row">
        <span className="muted">Account</span>
        <VisibleText className="mono" text={formatKey(row.key, keys)} />
        <button type="button" className="btn btn-small" onClick={() => setViewing({ key: row.key, lock: false })}>
          View account item
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => openLockForm({ kind: 'delete-account', account: row.key })}
          data-testid="action-delete-account"
        >
          Delete account…
        </button>
      </div>
      <table className="simple-table">
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">Value (stored)</th>
            <th scope="col">Normalized</th>
            <th scope="col">Lock item</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {row.locks.map((lock) => (
            <tr key={lock.rule}>
              <td>{lock.rule}</td>
              <td className="mono">
                <VisibleText text={lock.value} />
              </td>
              <td className="mono">
                <VisibleText text={lock.normalized} />
                {lock.scope ? (
                  <div className="muted">
                    within <VisibleText text={scopeText(lock.scope)} />
                  </div>
                ) : null}
              </td>
              <td className="mono">
                {lock.lock ? <VisibleText text={formatKey(lock.lock, keys)} /> : <span className="muted">none</span>}
                {lock.lock && lockTable ? <div className="muted">in {lockTable}</div> : null}
                {lock.owner ? (
                  <div className="muted">
                    owner: <VisibleText text={lock.owner} />
                  </div>
                ) : null}
                {lock.otherHolders && lock.otherHolders.length > 0 ? (
                  <div className="muted">
                    also held by: <VisibleText text={lock.otherHolders.map((k) => formatKey(k, keys)).join(', ')} />
                  </div>
                ) : null}
              </td>
              <td>
                <LockStatusChip status={lock.status} />
              </td>
              <td>
                <div className="row">
                  {lock.lock ? (
                    <button type="button" className="btn btn-small" onClick={() => lock.lock && setViewing({ key: lock.lock, lock: true })}>
                      View lock
                    </button>
                  ) : null}
                  {lock.status === 'missing' ? (
                    <button
                      type="button"
                      className="btn btn-small btn-primary"
                      onClick={() =>
                        openLockForm({ kind: 'claim', rule: lock.rule, value: lock.normalized, account: row.key, candidates: [row.key] })
                      }
                    >
                      Claim lock…
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => openLockForm({ kind: 'change-value', rule: lock.rule, value: '', from: lock.value, account: row.key })}
                    data-testid="action-change-value"
                  >
                    Change…
                  </button>
                  <button type="button" className="btn btn-small" onClick={() => openLookup(lock.value)}>
                    Look up
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {viewer}
    </div>
  );
}
