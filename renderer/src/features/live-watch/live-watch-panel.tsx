/** The inspector's "Live" toggle: problems appear as writes cause them, marked new, with the write one click away. */
import type { Convention, PlainKey } from '../../../../shared/model';
import { Badge } from '../../components/badge';
import { ErrorBox } from '../../components/error-box';
import { VisibleText } from '../../components/visible-text-view';
import { useWorkspace } from '../../workspace/workspace-context';
import { ProblemChip } from '../inspector/status-chips';
import { useLiveWatch, type LiveWatchState } from './use-live-watch';

function keyText(key: PlainKey | undefined): string {
  return key === undefined
    ? ''
    : Object.entries(key)
        .map(([name, value]) => `${name}=${String(value)}`)
        .join(', ');
}

/** live / paused / lagging / starting / stopped, in words. */
function statusText(live: LiveWatchState): string {
  if (!live.on) return 'paused';
  if (live.starting) return 'starting…';
  if (live.status === 'stopped') return `stopped${live.reason ? `: ${live.reason}` : ''}`;
  if (live.status === 'gap') return 'gap: changes were missed';
  return live.status ?? 'starting…';
}

/** The toggle, the status and the problems that appeared while live. */
export function LiveWatchPanel({ table, convention }: { table: string; convention: Convention | undefined }) {
  const { connection } = useWorkspace();
  const live = useLiveWatch(connection?.id, table, convention);
  const status = statusText(live);
  return (
    <div
      className="live-watch stack"
      data-testid="live-watch"
      data-live-status={live.on ? (live.starting ? 'starting' : (live.status ?? 'starting')) : 'paused'}
    >
      <div className="row">
        <label className="row">
          <input
            type="checkbox"
            role="switch"
            checked={live.on}
            onChange={(e) => live.toggle(e.target.checked)}
            data-testid="live-toggle"
          />
          Live
        </label>
        <Badge tone={live.on && live.status === 'live' ? 'ok' : live.status === 'lagging' || live.status === 'gap' ? 'warn' : 'neutral'}>
          <span data-testid="live-status">{status}</span>
        </Badge>
        {live.on ? (
          <span className="muted">
            {live.problems.length} new problem{live.problems.length === 1 ? '' : 's'} · {live.resolved} resolved while live
          </span>
        ) : null}
      </div>
      <ErrorBox error={live.error} title="The live watch could not start" />
      {live.on && live.status === 'gap' ? (
        // A gap is not "no drift": the problems listed are only those seen since; what changed in the gap is unknown.
        <div className="alert alert-warn" role="alert" data-testid="live-gap">
          <div className="alert-title">GAP — changes were missed: an empty list here does not mean no drift</div>
          {live.reason ?? 'The watch could not read part of its stream.'} Problems written in the gap are not listed here: run an audit.
        </div>
      ) : null}
      {live.on && live.problems.length > 0 ? (
        <ul className="live-problems stack" data-testid="live-problems">
          {live.problems.map((p) => (
            <li key={p.id} data-testid="live-problem" data-kind={p.problem.kind} data-value={p.problem.value}>
              <div className="row">
                <Badge tone="info">new</Badge>
                <ProblemChip kind={p.problem.kind} />
                <span>
                  {p.problem.rule ? `${p.problem.rule} ` : ''}
                  <code>
                    <VisibleText text={p.problem.value} />
                  </code>
                </span>
                {p.problem.lock ? (
                  <span className="muted">
                    lock <VisibleText text={keyText(p.problem.lock)} />
                  </span>
                ) : null}
                {p.problem.accounts ? (
                  <span className="muted">
                    accounts <VisibleText text={p.problem.accounts.map(keyText).join(' | ')} />
                  </span>
                ) : null}
              </div>
              <details data-testid="live-cause">
                <summary>
                  caused by {p.cause.eventName} <VisibleText text={keyText(p.cause.keys)} />
                </summary>
                <dl className="muted">
                  <dt>Write</dt>
                  <dd>{p.cause.eventName}</dd>
                  <dt>Item key</dt>
                  <dd>
                    <code>{JSON.stringify(p.cause.keys)}</code>
                  </dd>
                  <dt>Stream time</dt>
                  <dd>{p.cause.at}</dd>
                  <dt>Sequence number</dt>
                  <dd>{p.cause.sequenceNumber}</dd>
                </dl>
              </details>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
