/** Progress of a running audit (items, pages, segments, capacity, elapsed) with Cancel, and the incomplete banner. */
import type { ScanProgress } from '../../../../shared/scan-types';
import { ProgressBar } from '../../components/progress-bar';
import { formatCount } from '../tables/format-size';

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Shown while the audit runs. */
export function AuditProgress({
  progress,
  cancelling,
  onCancel,
}: {
  progress: ScanProgress | undefined;
  cancelling: boolean;
  onCancel: () => void;
}) {
  const fraction = progress && progress.segments > 0 ? progress.segmentsDone / progress.segments : undefined;
  return (
    <ProgressBar
      // Items, pages and the elapsed time change with every page read: they show the audit is alive.
      spinner={false}
      label={
        cancelling
          ? 'Cancelling the audit…'
          : progress?.step !== undefined
            ? `Auditing the export — ${progress.step}`
            : 'Auditing — rows appear as pages arrive'
      }
      fraction={fraction}
      actions={
        <button type="button" className="btn btn-small" onClick={onCancel} disabled={cancelling} data-testid="cancel-audit">
          Cancel
        </button>
      }
    >
      <span>
        items <strong data-testid="progress-items">{formatCount(progress?.items ?? 0)}</strong>
      </span>
      <span>
        pages <strong>{formatCount(progress?.pages ?? 0)}</strong>
      </span>
      <span>
        segments <strong>{progress ? `${progress.segmentsDone}/${progress.segments}` : '–'}</strong>
      </span>
      <span>
        capacity <strong>{progress && progress.capacityUnits > 0 ? `${progress.capacityUnits.toFixed(1)} RCU` : 'not reported'}</strong>
      </span>
      <span>
        elapsed <strong>{seconds(progress?.elapsedMs ?? 0)}</strong>
      </span>
      {progress && progress.retries > 0 ? (
        <span>
          retries <strong>{progress.retries}</strong>
        </span>
      ) : null}
    </ProgressBar>
  );
}

/** The unmistakable mark on a result that is not the whole table. */
export function IncompleteBanner({ reason }: { reason: string | undefined }) {
  return (
    <div className="alert alert-danger incomplete-banner" role="alert" data-testid="audit-incomplete">
      <div className="alert-title">INCOMPLETE — this is not the whole table</div>
      <p>
        {reason ?? 'The audit did not finish.'} Problems and counts below cover only the items read before it stopped; absence of a problem
        proves nothing.
      </p>
    </div>
  );
}
