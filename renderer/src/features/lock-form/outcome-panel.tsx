/** The outcome of an executed transaction: success (and the re-check), the reason per action, or why it was refused before sending. */
import type { LookupView, TxOutcomeView } from '../../../../shared/contract';
import { VerdictChip } from '../lookup/verdict';
import { VisibleText } from '../../components/visible-text-view';

/** Success, the cancellation reasons (each mapped to its action), or the refusal. */
export function OutcomePanel({
  outcome,
  recheck,
  auditsAgain = false,
}: {
  outcome: TxOutcomeView;
  recheck: LookupView | undefined;
  auditsAgain?: boolean;
}) {
  if (outcome.status === 'succeeded') {
    return (
      <div className="alert alert-ok" role="status" data-testid="tx-outcome" data-status={outcome.status}>
        <div className="alert-title">Executed</div>
        <p data-testid="tx-verified" data-verified={String(outcome.verified)}>
          {outcome.verified
            ? 'The transaction was applied and verified (every written item re-read as written).'
            : 'The transaction was applied, but the re-read does not confirm it:'}
        </p>
        {outcome.differences?.length ? (
          <ul data-testid="tx-differences">
            {outcome.differences.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        ) : null}
        {recheck && recheck.complete === false ? (
          <p className="alert alert-warn" data-testid="tx-recheck-incomplete">
            The re-check did not finish ({recheck.reason ?? 'incomplete'}): its verdict could be wrong, so the inspector rows were not
            updated. Look the value up again, or audit the table again.
          </p>
        ) : recheck ? (
          <div className="stack" data-testid="tx-recheck">
            {recheck.rules.map((rule) => (
              <p key={rule.rule}>
                Re-checked {rule.rule} <VisibleText className="mono" text={rule.normalized} />: <VerdictChip verdict={rule.verdict} />
              </p>
            ))}
          </div>
        ) : auditsAgain ? (
          <p className="muted">The account&apos;s values and locks moved: the inspector audits the table again.</p>
        ) : (
          <p className="muted">Re-checking the value…</p>
        )}
      </div>
    );
  }
  if (outcome.status === 'refused') {
    return (
      <div className="alert alert-danger" role="alert" data-testid="tx-outcome" data-status={outcome.status}>
        <div className="alert-title">Not executed — Locksmith refused before sending; nothing was written</div>
        <p data-testid="tx-refused">{outcome.message}</p>
      </div>
    );
  }
  return (
    <div className="alert alert-danger" role="alert" data-testid="tx-outcome" data-status={outcome.status}>
      <div className="alert-title">Not executed — DynamoDB refused the transaction; nothing was written</div>
      <ol>
        {outcome.reasons.map((reason) => (
          <li key={reason.index} data-testid="tx-reason">
            <strong>
              Action {reason.index + 1}
              {reason.action ? (
                <>
                  {` (${reason.action.type} `}
                  <VisibleText text={reason.action.explanation} />
                  {')'}
                </>
              ) : null}
              : {reason.code}
            </strong>
            <div>
              <VisibleText text={reason.message} />
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
