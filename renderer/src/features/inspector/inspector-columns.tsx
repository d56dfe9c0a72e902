/** The inspector's TanStack Table v9 setup: features at module scope, columns built per convention (rule set). */
import {
  columnFilteringFeature,
  createColumnHelper,
  createFilteredRowModel,
  createSortedRowModel,
  globalFilteringFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
  type FilterFn,
} from '@tanstack/react-table';
import type { GroupRow } from '../../../../shared/audit/types';
import type { KeySchema } from '../../../../shared/model';
import { formatKey } from '../../../../shared/plain-key';
import { Badge } from '../../components/badge';
import { rowMatches, rowProblems, type InspectorFilter } from './row-filter';
import { LockStatusChip, ProblemChip } from './status-chips';

/** Registered table features: sorting and (global) filtering with their row models. */
export const inspectorFeatures = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic },
  columnFilteringFeature,
  globalFilteringFeature,
  filteredRowModel: createFilteredRowModel(),
});

type Features = typeof inspectorFeatures;
const helper = createColumnHelper<Features, GroupRow>();

/** The global filter: kind filter and search applied to the whole row (called once per row, on the `item` column). */
export const inspectorGlobalFilter: FilterFn<Features, GroupRow> = (row, _columnId, value: InspectorFilter) => rowMatches(row.original, value);

/** Only the item column takes part in global filtering, so the row test runs once per row. */
export const canGlobalFilter = (column: { id: string }): boolean => column.id === 'item';

function ruleCell(row: GroupRow, rule: string) {
  if (row.kind !== 'account') return row.rule === rule ? <span className="mono cell-value">{row.value}</span> : null;
  const lock = row.locks.find((l) => l.rule === rule);
  if (!lock) return <span className="muted">—</span>;
  return (
    <span className="cell-rule">
      <LockStatusChip status={lock.status} />
      <span className="cell-value">{lock.value}</span>
    </span>
  );
}

/** Builds the columns: expander, item key, one column per rule (value + lock status), problems. */
export function buildColumns(keys: KeySchema, rules: readonly string[]) {
  return helper.columns([
    helper.display({
      id: 'expand',
      header: () => <span className="visually-hidden">Expand</span>,
      cell: () => null,
    }),
    helper.accessor((row) => formatKey(row.key, keys), {
      id: 'item',
      header: 'Item',
      sortFn: 'alphanumeric',
      cell: (info) => {
        const row = info.row.original;
        return (
          <span className="cell-item">
            {row.kind === 'account' ? null : <Badge tone="danger">{row.kind === 'orphan-lock' ? 'orphan lock' : 'malformed lock'}</Badge>}
            <span className="mono cell-value">{info.getValue()}</span>
          </span>
        );
      },
    }),
    ...rules.map((rule) =>
      helper.accessor(
        (row) => {
          if (row.kind !== 'account') return row.rule === rule ? row.value : '';
          return row.locks.find((l) => l.rule === rule)?.value ?? '';
        },
        { id: `rule:${rule}`, header: rule, sortFn: 'alphanumeric', cell: (info) => ruleCell(info.row.original, rule) },
      ),
    ),
    helper.accessor((row) => rowProblems(row).length, {
      id: 'problems',
      header: 'Problems',
      sortFn: 'basic',
      cell: (info) => {
        const problems = rowProblems(info.row.original);
        return problems.length === 0 ? <Badge tone="ok">healthy</Badge> : <span className="row">{problems.map((k) => <ProblemChip key={k} kind={k} />)}</span>;
      },
    }),
  ]);
}
