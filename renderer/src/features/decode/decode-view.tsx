/** The Decode tab: paste a TransactionCanceledException message or CancellationReasons → which action failed and why. */
import type { FormEvent } from 'react';
import { useWorkspace } from '../../workspace/workspace-context';
import { useAction } from '../../bridge/use-method';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import { JsonView } from '../../components/json-view';
import { VisibleText } from '../../components/visible-text-view';
import { useAuditRun } from '../inspector/audit-context';
import { useDecodeDraft } from './decode-draft';
import { reasonValue } from './reason-value';
import { MAX_TEXT_LENGTH } from '../../../../shared/contract';

/** The bound main enforces on each pasted text, as people read it. */
const LIMIT_TEXT = `${(MAX_TEXT_LENGTH / 1024).toString()} K characters`;

const EXAMPLE = 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]';

// The request the example message answers: a signup whose handle lock was already taken.
const EXAMPLE_REQUEST = JSON.stringify(
  {
    TransactItems: [
      {
        Put: {
          TableName: 'accounts',
          Item: { PK: { S: 'ACCT#a1f9c3' }, SK: { S: 'PROFILE' }, username: { S: 'ada' } },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: 'accounts',
          Item: { PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' } },
          ConditionExpression: 'attribute_not_exists(PK)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ],
  },
  null,
  2,
);

/** Explains a cancellation; the request JSON (optional) lets each reason name its item. */
export function DecodeView() {
  const decode = useAction('tx.decode');
  const [{ text, request }, setDraft] = useDecodeDraft();
  const { openLookup } = useWorkspace();
  const { convention } = useAuditRun();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void decode.run({ text, ...(request.trim() ? { request } : {}) });
  };
  return (
    <div className="stack" data-testid="decode">
      <form onSubmit={submit} className="panel" aria-label="Decode a cancellation">
        <div className="field">
          <label htmlFor="decode-text">Cancellation message or CancellationReasons JSON</label>
          <textarea
            id="decode-text"
            rows={5}
            value={text}
            maxLength={MAX_TEXT_LENGTH}
            onChange={(e) => setDraft({ text: e.target.value })}
            placeholder={EXAMPLE}
            data-testid="decode-text"
          />
          <span className="field-hint" data-testid="decode-limit">
            Up to {LIMIT_TEXT} ({text.length.toLocaleString()} characters now).
          </span>
        </div>
        <div className="field">
          <label htmlFor="decode-request">The TransactWriteItems request (optional JSON)</label>
          <textarea
            id="decode-request"
            rows={5}
            value={request}
            maxLength={MAX_TEXT_LENGTH}
            onChange={(e) => setDraft({ request: e.target.value })}
            data-testid="decode-request"
          />
          <span className="field-hint">With the request, each reason names the item and condition that failed. Up to {LIMIT_TEXT}.</span>
        </div>
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={text.trim() === '' || decode.pending}>
            Decode
          </button>
          <button type="button" className="btn" onClick={() => setDraft({ text: EXAMPLE, request: EXAMPLE_REQUEST })}>
            Use an example
          </button>
        </div>
      </form>
      {decode.pending ? <Busy label="Decoding…" /> : null}
      <ErrorBox error={decode.error} title="Could not decode this" />
      {decode.data ? (
        <div className="panel" data-testid="decode-result">
          <h3>{decode.data.summary}</h3>
          <table className="simple-table">
            <thead>
              <tr>
                <th scope="col">Action</th>
                <th scope="col">Code</th>
                <th scope="col">What it means</th>
              </tr>
            </thead>
            <tbody>
              {decode.data.reasons.map((reason) => {
                const about =
                  reason.code !== 'None' && convention ? reasonValue(convention, reason.index, reason.item, request) : undefined;
                return (
                  <tr key={reason.index} className={reason.code === 'None' ? '' : 'reason-failed'} data-testid="decode-reason">
                    <td>
                      {reason.index + 1}
                      {reason.action ? (
                        <div className="muted">
                          {reason.action.type} <VisibleText text={reason.action.explanation} />
                        </div>
                      ) : null}
                    </td>
                    <td className="mono">{reason.code}</td>
                    <td>
                      <VisibleText text={reason.message} />
                      {reason.item !== undefined ? (
                        <details className="reason-item">
                          <summary>The item when the condition failed (ALL_OLD)</summary>
                          <JsonView value={reason.item} label="Item (ALL_OLD)" testId="decode-item" />
                        </details>
                      ) : null}
                      {about ? (
                        <div>
                          <button
                            type="button"
                            className="btn btn-small"
                            onClick={() => openLookup(about.value)}
                            data-testid="decode-lookup"
                          >
                            Look up {about.rule} <VisibleText className="mono" text={about.value} />
                          </button>
                        </div>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
