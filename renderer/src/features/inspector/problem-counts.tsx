/** The counts header: scanned, accounts, locks, and one button per problem kind that filters to it. */
import type { AuditCounts } from '../../../../shared/audit/types';
import { PROBLEM_KINDS } from '../../../../shared/model';
import { formatCount } from '../tables/format-size';
import type { RowFilter } from './row-filter';
import { PROBLEM_LABEL } from './status-chips';

/** Totals and per-kind counts; clicking a kind sets the filter. */
export function ProblemCounts({ counts, filter, onFilter }: { counts: AuditCounts | undefined; filter: RowFilter; onFilter: (filter: RowFilter) => void }) {
  return (
    <div className="counts" data-testid="problem-counts">
      <span className="count-total">
        scanned <strong data-testid="count-scanned">{formatCount(counts?.scanned ?? 0)}</strong>
      </span>
      <span className="count-total">
        accounts <strong data-testid="count-accounts">{formatCount(counts?.accounts ?? 0)}</strong>
      </span>
      <span className="count-total">
        locks <strong data-testid="count-locks">{formatCount(counts?.locks ?? 0)}</strong>
      </span>
      {PROBLEM_KINDS.map((kind) => {
        const n = counts?.summary[kind] ?? 0;
        return (
          <button
            key={kind}
            type="button"
            className={`count-kind${n > 0 ? ' count-kind-bad' : ''}`}
            aria-pressed={filter === kind}
            onClick={() => onFilter(filter === kind ? 'all' : kind)}
            data-testid={`count-${kind}`}
            data-count={n}
          >
            {PROBLEM_LABEL[kind]} <strong>{n}</strong>
          </button>
        );
      })}
    </div>
  );
}
