/**
 * "Audit from an export…": the small form that starts an audit of a DynamoDB export of the table
 * (a local folder or an s3:// URL), and the banner that labels such a run — the export and its
 * time instead of "live", problem groups only, and the step that confirms it against the live table.
 */
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ExportConfirmView, ExportSourceView } from '../../../../shared/contract';
import type { ExportRequest } from './audit-state';

/** The form: path (required), DuckDB memory and, for s3://, an S3-compatible endpoint. */
export function ExportAuditForm({ onStart, onClose }: { onStart: (request: ExportRequest) => void; onClose: () => void }) {
  const id = useId();
  const [path, setPath] = useState('');
  const [memory, setMemory] = useState('');
  const [s3Endpoint, setS3Endpoint] = useState('');
  const s3 = path.trim().startsWith('s3://');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const memoryMb = Number.parseInt(memory, 10);
    onStart({
      path: path.trim(),
      ...(Number.isFinite(memoryMb) ? { memoryMb } : {}),
      ...(s3 && s3Endpoint.trim() ? { s3Endpoint: s3Endpoint.trim() } : {}),
    });
  };
  const escape = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onClose();
  };
  return (
    <form
      className="card export-audit-form"
      aria-label="Audit from an export"
      onSubmit={submit}
      onKeyDown={escape}
      data-testid="export-audit-form"
    >
      <p className="muted">
        A DynamoDB export to S3 (full, DynamoDB JSON), read by DuckDB on this machine: no read capacity of the table is used. Findings are
        from the export&apos;s point in time — confirm them against the live table before acting.
      </p>
      <div className="row">
        <label htmlFor={`${id}-path`}>Export folder or s3:// URL</label>
        <input
          id={`${id}-path`}
          type="text"
          required
          autoFocus
          value={path}
          onChange={(e) => setPath(e.target.value)}
          placeholder="/path/to/export or s3://bucket/prefix"
          spellCheck={false}
          data-testid="export-path"
        />
      </div>
      <div className="row">
        <label htmlFor={`${id}-memory`}>Memory limit (MB)</label>
        <input
          id={`${id}-memory`}
          type="number"
          min={64}
          max={65536}
          value={memory}
          onChange={(e) => setMemory(e.target.value)}
          placeholder="512"
        />
      </div>
      {s3 ? (
        <div className="row">
          <label htmlFor={`${id}-s3`}>S3 endpoint (local connections only)</label>
          <input
            id={`${id}-s3`}
            type="url"
            value={s3Endpoint}
            onChange={(e) => setS3Endpoint(e.target.value)}
            placeholder="http://localhost:9000"
            spellCheck={false}
          />
        </div>
      ) : null}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={path.trim() === ''} data-testid="export-audit-start">
          Audit the export
        </button>
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    </form>
  );
}

/** The label of a run read from an export, with its confirm step. */
export function ExportSourceBanner(props: {
  source: ExportSourceView;
  done: boolean;
  complete: boolean;
  confirmation: ExportConfirmView | undefined;
  confirming: boolean;
  onConfirm: () => void;
}) {
  const { source, done, complete, confirmation, confirming, onConfirm } = props;
  return (
    <div className="alert alert-info" role="status" data-testid="export-source">
      <div className="alert-title">
        From export <code>{source.exportArn}</code> at <time dateTime={source.exportTime}>{source.exportTime}</time> — not live
      </div>
      <p>Problem groups only — from an export ({source.itemCount} items): healthy accounts are not shown.</p>
      {confirmation ? (
        <p data-testid="export-confirmed">
          Confirmed against the live table: {confirmation.confirmed} finding(s) still true, {confirmation.stale} stale (no longer true, left
          the list).
        </p>
      ) : done && complete ? (
        <div className="row">
          <p className="spacer">
            Not confirmed: an export is not transactionally consistent. Re-read every finding by key (consistent reads, never a scan) before
            repairing.
          </p>
          <button type="button" className="btn btn-small" onClick={onConfirm} disabled={confirming} data-testid="export-confirm">
            {confirming ? 'Confirming…' : 'Confirm against the live table'}
          </button>
        </div>
      ) : null}
    </div>
  );
}
