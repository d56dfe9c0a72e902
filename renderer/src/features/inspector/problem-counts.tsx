/** The counts header: scanned, accounts, locks, and one button per problem kind that filters to it. */
import type { AuditCounts } from '../../../../shared/audit/types';
import { PROBLEM_KINDS } from '../../../../shared/model';
import { formatCount } from '../tables/format-size';
import type { RowFilter } from './row-filter';
import { PROBLEM_LABEL } from './status-chips';

/** Props of {@link ProblemCounts}. */
export interface ProblemCountsProps {
  readonly counts: AuditCounts | undefined;
  /**
   * While the scan runs the counts are provisional: an orphan lock turns out held, a "missing" lock
   * turns up later. They are shown muted and marked "so far", not in the alarm colour of a result.
   */
  readonly provisional: boolean;
  readonly filter: RowFilter;
  readonly onFilter: (filter: RowFilter) => void;
}

/** Totals and per-kind counts; clicking a kind sets the filter. */
export function ProblemCounts({ counts, provisional, filter, onFilter }: ProblemCountsProps) {
  return (
    <div
      className={`counts${provisional ? ' counts-provisional' : ''}`}
      data-testid="problem-counts"
      data-provisional={String(provisional)}
    >
      {provisional ? (
        <span className="count-provisional" data-testid="counts-so-far">
          so far (provisional until the scan ends):
        </span>
      ) : null}
      <span className="count-total">
        scanned <strong data-testid="count-scanned">{formatCount(counts?.scanned ?? 0)}</strong>
      </span>
      <span className="count-total">
        accounts <strong data-testid="count-accounts">{formatCount(counts?.accounts ?? 0)}</strong>
      </span>
      <span className="count-total">
        locks <strong data-testid="count-locks">{formatCount(counts?.locks ?? 0)}</strong>
      </span>
      {provisional && counts?.checking ? (
        <span
          className="count-total count-checking"
          title="accounts whose locks have not all been read yet: not counted healthy nor missing a lock until the scan settles them"
        >
          checking <strong data-testid="count-checking">{formatCount(counts.checking)}</strong>
        </span>
      ) : null}
      {PROBLEM_KINDS.map((kind) => {
        const n = counts?.summary[kind] ?? 0;
        return (
          <button
            key={kind}
            type="button"
            className={`count-kind${n > 0 && !provisional ? ' count-kind-bad' : ''}`}
            aria-pressed={filter === kind}
            onClick={() => onFilter(filter === kind ? 'all' : kind)}
            data-testid={`count-${kind}`}
            data-count={n}
          >
            {PROBLEM_LABEL[kind]} <strong>{n}</strong>
            {provisional ? <span className="visually-hidden"> so far</span> : null}
          </button>
        );
      })}
    </div>
  );
}
