/** One rule's answer in the Lookup tab: its verdict, lock and holders, and the action that fits it. */
import { useId, useState } from 'react';
import { scopeList } from '../../../../shared/conventions/scope';
import type { LookupRuleView } from '../../../../shared/contract';
import type { KeySchema, PlainKey } from '../../../../shared/model';
import { formatKey } from '../../../../shared/plain-key';
import { VisibleText } from '../../components/visible-text-view';
import { useWorkspace } from '../../workspace/workspace-context';
import { ItemViewer } from '../inspector/item-viewer';
import { IndexSuggestion } from './index-suggestion';
import { releaseGate } from './release-gate';
import { VerdictChip } from './verdict';

/** A key shown as a link that opens the item (read fresh) in the item viewer. */
function ItemLink({ itemKey, keys, text, testId }: { itemKey: PlainKey; keys: KeySchema | undefined; text: string; testId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn-link mono" onClick={() => setOpen(true)} data-testid={testId} title="Open this item">
        <VisibleText text={text} />
      </button>
      {open && keys ? <ItemViewer itemKey={itemKey} keys={keys} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** One rule's verdict: the lock, its owner and holders (each opens the item), notes, and the fitting action. */
export function RuleVerdict({
  rule,
  complete,
  keys,
  onConfirm,
}: {
  rule: LookupRuleView;
  complete: boolean | undefined;
  keys: KeySchema | undefined;
  onConfirm: () => void;
}) {
  const { openLockForm } = useWorkspace();
  const release = releaseGate(rule, complete);
  const releaseWhyId = useId();
  const show = (key: Parameters<typeof formatKey>[0]) => (keys ? formatKey(key, keys) : JSON.stringify(key));
  return (
    <div className="panel" data-testid={`lookup-rule-${rule.rule}`}>
      <div className="panel-title">
        <h3>{rule.rule}</h3>
        <VisibleText className="mono" text={rule.normalized} />
        {rule.scope ? (
          <span className="muted" data-testid="lookup-scope">
            in <VisibleText text={scopeList(rule.scope)} />
          </span>
        ) : null}
        <VerdictChip verdict={rule.verdict} asOfAudit={rule.asOfAudit} />
      </div>
      {rule.asOfAudit !== undefined ? (
        <p className="alert alert-warn" data-testid="lookup-as-of-audit">
          Holders come from the audit of {rule.asOfAudit}, each re-read by key; an account another client wrote since is not seen.{' '}
          <button type="button" className="btn btn-small" onClick={onConfirm} data-testid="lookup-confirm-scan">
            Confirm with a scan
          </button>
        </p>
      ) : null}
      {rule.byIndex !== undefined && rule.holders.length === 0 ? (
        <p className="alert alert-info" data-testid="lookup-index-no-holder">
          Index <VisibleText className="mono" text={rule.byIndex} /> found no holder; an index is eventually consistent and finds the stored
          spelling only.{' '}
          <button type="button" className="btn btn-small" onClick={onConfirm} data-testid="lookup-confirm-index">
            Confirm with a scan
          </button>
        </p>
      ) : null}
      <dl className="facts">
        <dt>Lock</dt>
        <dd className="mono">
          {rule.lock ? <ItemLink itemKey={rule.lock} keys={keys} text={show(rule.lock)} testId="lookup-lock-link" /> : 'none'}
        </dd>
        {rule.owner ? (
          <>
            <dt>Owner on the lock</dt>
            <dd className="mono">
              <VisibleText text={rule.owner} />
            </dd>
          </>
        ) : null}
        <dt>Holder(s)</dt>
        <dd className="mono">
          {rule.holders.length === 0
            ? 'nobody'
            : rule.holders.map((holder, i) => (
                <span key={JSON.stringify(holder)}>
                  {i > 0 ? ', ' : null}
                  <ItemLink itemKey={holder} keys={keys} text={show(holder)} testId="lookup-holder-link" />
                </span>
              ))}
        </dd>
      </dl>
      {rule.notes && rule.notes.length > 0 ? (
        <ul className="field-hint">
          {rule.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      {rule.suggestedIndex ? <IndexSuggestion rule={rule.rule} suggestion={rule.suggestedIndex} /> : null}
      <div className="row">
        {release.offer !== 'none' ? (
          // Unconfirmed: shown disabled with its reason, so the way to a release (a scan) stays visible.
          <button
            type="button"
            className="btn btn-primary"
            disabled={release.offer === 'unconfirmed'}
            aria-describedby={release.offer === 'unconfirmed' ? releaseWhyId : undefined}
            onClick={() =>
              openLockForm({
                kind: 'release',
                rule: rule.rule,
                value: rule.normalized,
                ...(rule.lock ? { lock: rule.lock } : {}),
                ...(rule.scope ? { scope: rule.scope } : {}),
              })
            }
            data-testid="action-release"
          >
            Release the orphan lock…
          </button>
        ) : null}
        {release.offer === 'unconfirmed' ? (
          <p className="muted" id={releaseWhyId} data-testid="action-release-why">
            {release.reason}
          </p>
        ) : null}
        {rule.verdict === 'unprotected' ? (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() =>
              openLockForm({ kind: 'claim', rule: rule.rule, value: rule.normalized, account: rule.holders[0], candidates: rule.holders })
            }
            data-testid="action-claim"
          >
            Claim the missing lock…
          </button>
        ) : null}
        {rule.verdict === 'duplicate' ? (
          <p className="muted">Several accounts hold this value: decide which keeps it before changing locks.</p>
        ) : null}
      </div>
    </div>
  );
}
