/** The preview: the exact TransactItems JSON, the ClientRequestToken, each condition in words, copy-as forms, and the guarded Execute. */
import { useState, type FormEvent } from 'react';
import type { ConnectionView, TxPreviewView } from '../../../../shared/contract';
import { CopyButton } from '../../components/copy-button';
import { JsonView } from '../../components/json-view';
import { VisibleText } from '../../components/visible-text-view';

/** Why Execute is disabled, or undefined when it may run. */
export function executeBlocker(preview: TxPreviewView, connection: ConnectionView | undefined, typed: string): string | undefined {
  if (!preview.executable) return preview.readOnlyReason ?? 'This connection is read-only.';
  if (connection && !connection.writable) return `${connection.label} is read-only: allow writes on the connection first.`;
  if (typed !== preview.confirmText) return `Type ${preview.confirmText} to confirm.`;
  return undefined;
}

/** Shows the preview and asks for the value to be typed back. */
export function PreviewPanel({
  preview,
  connection,
  executing,
  onExecute,
  onEdit,
}: {
  preview: TxPreviewView;
  connection: ConnectionView | undefined;
  executing: boolean;
  onExecute: (confirmation: string) => void;
  onEdit: () => void;
}) {
  const [typed, setTyped] = useState('');
  const blocker = executeBlocker(preview, connection, typed);
  const readOnly = !preview.executable || (connection !== undefined && !connection.writable);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!blocker) onExecute(typed);
  };
  return (
    <div className="stack" data-testid="tx-preview">
      <h3>What will be sent</h3>
      <ol className="actions-list" data-testid="tx-actions">
        {preview.actions.map((action) => (
          <li key={action.index} data-action-type={action.type}>
            <VisibleText text={action.explanation} />
          </li>
        ))}
      </ol>
      {preview.guarded && preview.guarded.length > 0 ? (
        <div className="alert alert-info" data-testid="tx-guarded">
          <div className="alert-title">Guarded by DynamoDB conditions (checked at commit)</div>
          <ul>
            {preview.guarded.map((line) => (
              <li key={line}>
                <VisibleText text={line} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {preview.notGuarded.length > 0 ? (
        <div className="alert alert-warn" data-testid="tx-not-guarded">
          <div className="alert-title">Not guarded by DynamoDB (checked by Locksmith right before sending)</div>
          <ul>
            {preview.notGuarded.map((line) => (
              <li key={line}>
                <VisibleText text={line} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <dl className="facts">
        <dt>ClientRequestToken</dt>
        <dd className="mono" data-testid="tx-token">
          {preview.clientRequestToken}
        </dd>
        <dt>Preview expires</dt>
        <dd>{new Date(preview.expiresAt).toLocaleTimeString()}</dd>
      </dl>
      <JsonView value={preview.input} label="TransactWriteItems input" testId="tx-json" />
      <details>
        <summary>Copy as AWS CLI / SDK v3</summary>
        <div className="row">
          <CopyButton text={preview.copyAs.awsCli} label="Copy as AWS CLI" />
          <CopyButton text={preview.copyAs.sdkV3} label="Copy as SDK v3" />
        </div>
        <pre className="json" aria-label="AWS CLI command" tabIndex={0}>
          {preview.copyAs.awsCli}
        </pre>
        <pre className="json" aria-label="SDK v3 code" tabIndex={0}>
          {preview.copyAs.sdkV3}
        </pre>
      </details>
      <form onSubmit={submit} className="stack confirm-box">
        {readOnly ? (
          <div className="alert alert-info" role="status" data-testid="tx-read-only">
            {blocker}
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="tx-confirm">
            Type <code>{preview.confirmText}</code> to confirm
          </label>
          <input
            id="tx-confirm"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            disabled={readOnly}
            data-testid="tx-confirm"
          />
        </div>
        <div className="row">
          <button
            type="submit"
            className="btn btn-danger"
            disabled={blocker !== undefined || executing}
            data-testid="tx-execute"
            title={blocker}
          >
            {executing ? 'Executing…' : 'Execute'}
          </button>
          <button type="button" className="btn" onClick={onEdit}>
            Change the request
          </button>
          {blocker && !readOnly ? <span className="muted">{blocker}</span> : null}
        </div>
      </form>
    </div>
  );
}
