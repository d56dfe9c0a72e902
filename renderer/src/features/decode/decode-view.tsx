/** The Decode tab: paste a TransactionCanceledException message or CancellationReasons → which action failed and why. */
import { useState, type FormEvent } from 'react';
import { useAction } from '../../bridge/use-method';
import { ErrorBox } from '../../components/error-box';
import { Busy } from '../../components/busy';
import { MAX_TEXT_LENGTH } from '../../../../shared/contract';

/** The bound main enforces on each pasted text, as people read it. */
const LIMIT_TEXT = `${(MAX_TEXT_LENGTH / 1024).toString()} K characters`;

const EXAMPLE = 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]';

/** Explains a cancellation; the request JSON (optional) lets each reason name its item. */
export function DecodeView() {
  const decode = useAction('tx.decode');
  const [text, setText] = useState('');
  const [request, setRequest] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void decode.run({ text, ...(request.trim() ? { request } : {}) });
  };
  return (
    <div className="stack" data-testid="decode">
      <form onSubmit={submit} className="panel" aria-label="Decode a cancellation">
        <div className="field">
          <label htmlFor="decode-text">Cancellation message or CancellationReasons JSON</label>
          <textarea id="decode-text" rows={5} value={text} maxLength={MAX_TEXT_LENGTH} onChange={(e) => setText(e.target.value)} placeholder={EXAMPLE} data-testid="decode-text" />
          <span className="field-hint" data-testid="decode-limit">Up to {LIMIT_TEXT} ({text.length.toLocaleString()} characters now).</span>
        </div>
        <div className="field">
          <label htmlFor="decode-request">The TransactWriteItems request (optional JSON)</label>
          <textarea id="decode-request" rows={5} value={request} maxLength={MAX_TEXT_LENGTH} onChange={(e) => setRequest(e.target.value)} />
          <span className="field-hint">With the request, each reason names the item and condition that failed. Up to {LIMIT_TEXT}.</span>
        </div>
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={text.trim() === '' || decode.pending}>
            Decode
          </button>
          <button type="button" className="btn" onClick={() => setText(EXAMPLE)}>
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
              {decode.data.reasons.map((reason) => (
                <tr key={reason.index} className={reason.code === 'None' ? '' : 'reason-failed'}>
                  <td>
                    {reason.index + 1}
                    {reason.action ? <div className="muted">{reason.action.type} {reason.action.explanation}</div> : null}
                  </td>
                  <td className="mono">{reason.code}</td>
                  <td>{reason.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
