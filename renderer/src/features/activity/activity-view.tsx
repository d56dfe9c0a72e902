/** The Activity tab: the local activity log of executed transactions, newest first, each with its request and outcome. */
import type { ActivityStatus } from '../../../../shared/domain';
import { useQuery } from '../../bridge/use-method';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import { JsonView } from '../../components/json-view';
import { VisibleText } from '../../components/visible-text-view';
import { activityActions } from './activity-actions';

/** Only an applied transaction is good news; anything else is worth a look. */
const STATUS_BADGE: Record<ActivityStatus, string> = {
  succeeded: 'badge-ok',
  cancelled: 'badge-danger',
  refused: 'badge-danger',
  error: 'badge-danger',
  'outcome-unknown': 'badge-warn',
  unknown: 'badge-danger',
};

/** Lists the log; reloads each time the tab is opened (it is mounted per visit). */
export function ActivityView() {
  const { data, error, loading, reload } = useQuery('activity.list', { limit: 200 });
  return (
    <div className="stack" data-testid="activity">
      <div className="row">
        <h2 className="spacer">Activity</h2>
        <button type="button" className="btn btn-small" onClick={reload}>
          Reload
        </button>
      </div>
      {loading ? <Busy label="Reading the activity log…" /> : null}
      <ErrorBox error={error} title="Could not read the activity log" />
      {data && data.entries.length === 0 ? <p className="empty">No transactions executed yet.</p> : null}
      <ol className="list activity-list">
        {data?.entries.map((entry) => (
          <li key={`${entry.time}-${entry.previewId}`} className="panel" data-testid="activity-entry">
            <details>
              <summary className="activity-summary">
                <span className="row">
                  {entry.kind ? (
                    <span className="badge" data-testid="activity-kind">
                      {entry.kind}
                    </span>
                  ) : null}
                  <strong data-testid="activity-what">{entry.summary ? <VisibleText text={entry.summary} /> : 'transaction'}</strong>
                  <span className={`badge ${STATUS_BADGE[entry.status]}`} data-testid="activity-status">
                    {entry.status}
                  </span>
                </span>
                <span className="row muted">
                  <span>{new Date(entry.time).toLocaleString()}</span>
                  <span className="mono">{entry.table}</span>
                  <span>{entry.connection}</span>
                  <span>{entry.region}</span>
                </span>
                <ul className="activity-keys" data-testid="activity-keys">
                  {activityActions(entry.request).map((action, i) => (
                    <li key={i}>
                      <span className="muted">{action.operation}</span> <VisibleText className="mono" text={action.key} />
                    </li>
                  ))}
                </ul>
              </summary>
              <dl className="facts">
                <dt>Endpoint</dt>
                <dd className="mono">{entry.endpoint ?? 'AWS default'}</dd>
                <dt>ClientRequestToken</dt>
                <dd className="mono">{entry.clientRequestToken}</dd>
              </dl>
              <JsonView value={entry.request} label="Request" />
              <JsonView value={entry.outcome} label="Outcome" />
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}
