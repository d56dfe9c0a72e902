/** The plan: every transaction's exact request (collapsible, copy-as), what is left for you, and the one typed confirmation. */
import { useState, type FormEvent } from 'react';
import { scopeList } from '../../../../shared/conventions/scope';
import type { ConnectionView, RepairLeftView, RepairPlanView } from '../../../../shared/contract';
import { CopyButton } from '../../components/copy-button';
import { JsonView } from '../../components/json-view';
import { VisibleText } from '../../components/visible-text-view';

/** A problem left for a person: its value (and scope) with hidden characters marked, as in the inspector. */
function ProblemText({ left }: { left: RepairLeftView }) {
  const p = left.problem;
  const scope = p.scope ? ` in ${scopeList(p.scope)}` : '';
  return (
    <>
      {p.kind} {p.rule ? `${p.rule.toLowerCase()} ` : ''}`<VisibleText text={p.value} />`{scope ? <VisibleText text={scope} /> : null}
    </>
  );
}

function LeftList({ title, items, testId }: { title: string; items: readonly RepairLeftView[]; testId: string }) {
  if (items.length === 0) return null;
  return (
    <details open={items.length <= 20} data-testid={testId}>
      <summary>
        {title} ({items.length})
      </summary>
      <ul>
        {items.map((left, i) => (
          <li key={i}>
            <strong>
              <ProblemText left={left} />
            </strong>
            {': '}
            <VisibleText text={left.why} />
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Why Execute is disabled, or undefined when it may run. */
export function repairBlocker(plan: RepairPlanView, connection: ConnectionView | undefined, typed: string): string | undefined {
  if (plan.actionCount === 0) return 'Nothing to execute.';
  if (!plan.executable) return plan.readOnlyReason ?? 'This connection is read-only.';
  if (connection && !connection.writable) return `${connection.label} is read-only: allow writes on the connection first.`;
  if (typed.trim() !== plan.confirmText) return `Type ${plan.confirmText} (the number of actions) to confirm.`;
  return undefined;
}

/** Shows the plan and asks for the action count to be typed back. */
export function RepairPlanPanel({
  plan,
  connection,
  onExecute,
  onBack,
}: {
  plan: RepairPlanView;
  connection: ConnectionView | undefined;
  onExecute: (confirmation: string) => void;
  onBack: () => void;
}) {
  const [typed, setTyped] = useState('');
  const blocker = repairBlocker(plan, connection, typed);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!blocker) onExecute(typed.trim());
  };
  return (
    <div className="stack" data-testid="repair-plan" data-action-count={plan.actionCount}>
      <p role="status">
        {plan.fixes.length} fix(es) in {plan.transactions.length} transaction(s), {plan.actionCount} action(s) in all. Each fix was read
        fresh and is guarded exactly as a single claim or release; at most 100 actions per transaction, never two on one item.
      </p>
      {plan.unknownIds > 0 ? (
        <div className="alert alert-warn" role="alert" data-testid="repair-unknown">
          {plan.unknownIds} selected problem(s) are not in the audit's report (the rows changed since): audit again to plan them.
        </div>
      ) : null}
      {plan.transactions.map((t) => (
        <details key={t.index} className="repair-transaction" data-testid="repair-transaction">
          <summary>
            Transaction {t.index + 1}: {t.fixes.length} fix(es), {t.actions.length} action(s) ·{' '}
            <span className="mono">{t.clientRequestToken}</span>
          </summary>
          <ul>
            {t.fixes.map((f) => (
              <li key={f}>
                <VisibleText text={plan.fixes[f]?.summary ?? ''} />
              </li>
            ))}
          </ul>
          <ol className="actions-list" start={0}>
            {t.actions.map((a) => (
              <li key={a.index} data-action-type={a.type}>
                <VisibleText text={a.explanation} />
              </li>
            ))}
          </ol>
          <JsonView value={t.input} label={`TransactWriteItems input of transaction ${t.index + 1}`} testId="repair-json" />
          <div className="row">
            <CopyButton text={JSON.stringify(t.input, null, 2)} label="Copy JSON" />
            <CopyButton text={t.copyAs.awsCli} label="Copy as AWS CLI" />
            <CopyButton text={t.copyAs.sdkV3} label="Copy as SDK v3" />
          </div>
        </details>
      ))}
      <LeftList title="Left for you (a person decides; never guessed)" items={plan.manual} testId="repair-manual" />
      <LeftList title="Already fixed (fresh reads found nothing to do)" items={plan.resolved} testId="repair-resolved" />
      <form onSubmit={submit} className="stack confirm-box">
        {!plan.executable && plan.actionCount > 0 ? (
          <div className="alert alert-info" role="status" data-testid="repair-read-only">
            {plan.readOnlyReason}
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="repair-confirm">
            Type <code>{plan.confirmText}</code> (the number of actions) to execute the plan
          </label>
          <input
            id="repair-confirm"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            disabled={!plan.executable}
            data-testid="repair-confirm"
          />
        </div>
        <div className="row">
          <button type="submit" className="btn btn-danger" disabled={blocker !== undefined} title={blocker} data-testid="repair-execute">
            Execute {plan.transactions.length} transaction(s)
          </button>
          <button type="button" className="btn" onClick={onBack}>
            Change the selection
          </button>
        </div>
      </form>
    </div>
  );
}
