/** Progress of a running repair (with Stop), then the outcome of every transaction and every fix. */
import type { RepairPlanView, RepairStatusView } from '../../../../shared/contract';
import { ProgressBar } from '../../components/progress-bar';
import { VisibleText } from '../../components/visible-text-view';

const STATE_WORDS: Readonly<Record<RepairStatusView['transactions'][number]['state'], string>> = {
  pending: 'waiting',
  sending: 'sending…',
  succeeded: 'applied',
  cancelled: 'cancelled by DynamoDB (nothing in it written)',
  refused: 'refused before sending',
  error: 'error (nothing in it written)',
  'outcome-unknown': 'outcome unknown — it may have been applied',
  'not-sent': 'not sent',
};

/** The progress bar while running, then the outcome lists. */
export function RepairOutcome({
  plan,
  status,
  running,
  onStop,
}: {
  plan: RepairPlanView;
  status: RepairStatusView | undefined;
  running: boolean;
  onStop: () => void;
}) {
  const total = plan.transactions.length;
  return (
    <div className="stack" data-testid="repair-outcome" data-phase={status?.phase ?? 'starting'}>
      {running ? (
        <ProgressBar
          label={`Transaction ${Math.min((status?.finished ?? 0) + 1, total)} of ${total}`}
          fraction={(status?.finished ?? 0) / Math.max(1, total)}
          actions={
            <button
              type="button"
              className="btn btn-small"
              onClick={onStop}
              disabled={status?.phase === 'stopping'}
              data-testid="repair-stop"
            >
              {status?.phase === 'stopping' ? 'Stopping after this transaction…' : 'Stop'}
            </button>
          }
        />
      ) : null}
      {status && !running ? (
        <p role="status" data-testid="repair-summary">
          {status.phase === 'stopped' ? 'Stopped on request. ' : status.phase === 'failed' ? 'Stopped after an error. ' : 'Done. '}
          {status.message}
        </p>
      ) : null}
      {status ? (
        <ol className="stack" start={1}>
          {status.transactions.map((t) => (
            <li key={t.index} data-testid="repair-tx-outcome" data-state={t.state}>
              <strong>Transaction {t.index + 1}</strong>:{' '}
              {t.state === 'succeeded' ? (t.verified ? 'applied and verified' : 'applied, NOT verified') : STATE_WORDS[t.state]}
              {t.message && t.state !== 'succeeded' ? (
                <>
                  {' — '}
                  <VisibleText text={t.message} />
                </>
              ) : null}
              {t.reasons && t.reasons.length > 0 ? (
                <ul data-testid="repair-reasons">
                  {t.reasons.map((r) => (
                    <li key={r.index}>
                      Action {r.index} (fix {r.fix + 1}): {r.code} — <VisibleText text={r.message} />
                    </li>
                  ))}
                </ul>
              ) : null}
              {t.differences ? (
                <ul>
                  {t.differences.map((d) => (
                    <li key={d}>
                      <VisibleText text={d} />
                    </li>
                  ))}
                </ul>
              ) : null}
              <ul>
                {(plan.transactions[t.index]?.fixes ?? []).map((f) => (
                  <li key={f} data-testid="repair-fix-outcome" data-state={status.fixes[f]?.state}>
                    <VisibleText text={plan.fixes[f]?.summary ?? ''} />: <VisibleText text={status.fixes[f]?.message ?? ''} />
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
