/**
 * The inspector's TanStack Table v9 setup: features at module scope, columns built per convention
 * (rule set). The table owns the sort state and the headers; the rows themselves are ordered and
 * filtered by `row-view.ts` (incrementally, as they stream) and the table is handed only the
 * window the virtualizer shows, hence `manualSorting` and no sorted or filtered row model.
 */
import type { ReactNode } from 'react';
import { createColumnHelper, rowSortingFeature, tableFeatures } from '@tanstack/react-table';
import type { GroupRow } from '../../../../shared/audit/types';
import type { KeySchema } from '../../../../shared/model';
import { Badge } from '../../components/badge';
import { rowProblems } from './row-filter';
import { itemText, ruleText } from './row-view';
import { CheckingChip, LockStatusChip, ProblemChip } from './status-chips';
import { VisibleText } from '../../components/visible-text-view';

/** Registered table features: sort state and header toggles (the ordering itself is `sortRows`). */
export const inspectorFeatures = tableFeatures({ rowSortingFeature });

type Features = typeof inspectorFeatures;
const helper = createColumnHelper<Features, GroupRow>();

/** A scoped value's scope, as a muted suffix: `in orgId acme` (a value is unique within it). */
function ScopeSuffix({ scope }: { scope: Readonly<Record<string, string>> | undefined }) {
  if (!scope) return null;
  return (
    <span className="muted cell-scope" data-testid="cell-scope">
      <VisibleText
        text={`in ${Object.entries(scope)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`}
      />
    </span>
  );
}

function ruleCell(row: GroupRow, rule: string) {
  if (row.kind !== 'account') {
    if (row.rule !== rule) return null;
    return (
      <span className="cell-rule">
        <VisibleText className="mono cell-value" text={row.value} />
        <ScopeSuffix scope={row.scope} />
      </span>
    );
  }
  const lock = row.locks.find((l) => l.rule === rule);
  if (!lock) return <span className="muted">—</span>;
  return (
    <span className="cell-rule">
      {row.checking && lock.status === 'missing' ? <CheckingChip /> : <LockStatusChip status={lock.status} />}
      <VisibleText className="cell-value" text={lock.value} />
      <ScopeSuffix scope={lock.scope} />
    </span>
  );
}

function problemsCell(row: GroupRow) {
  const problems = rowProblems(row);
  // Checking is never healthy: the account's missing lock may still turn up, or may not.
  if (problems.length === 0) return row.kind === 'account' && row.checking ? <CheckingChip /> : <Badge tone="ok">healthy</Badge>;
  return (
    <span className="row">
      {problems.map((k) => (
        <ProblemChip key={k} kind={k} />
      ))}
      {row.kind === 'account' && row.checking ? <CheckingChip /> : null}
    </span>
  );
}

function itemCell(row: GroupRow, keys: KeySchema) {
  return (
    <span className="cell-item">
      {row.kind === 'account' ? null : <Badge tone="danger">{row.kind === 'orphan-lock' ? 'orphan lock' : 'malformed lock'}</Badge>}
      <VisibleText className="mono cell-value" text={itemText(row, keys)} />
    </span>
  );
}

/** One body cell of the grid: its column id and what it shows for a row (the expander's is the row's own). */
export interface BodyCell {
  readonly id: string;
  readonly render: (row: GroupRow) => ReactNode;
}

/**
 * The body's cells, column by column, as {@link buildColumns} shows them: the grid renders its rows
 * from these (a memoized row re-renders only when its row changed), the table only its headers.
 */
export function bodyCells(keys: KeySchema, rules: readonly string[], showProblems = true): readonly BodyCell[] {
  return [
    { id: 'expand', render: () => null },
    { id: 'item', render: (row) => itemCell(row, keys) },
    ...rules.map((rule) => ({ id: `rule:${rule}`, render: (row: GroupRow) => ruleCell(row, rule) })),
    ...(showProblems ? [{ id: 'problems', render: problemsCell }] : []),
  ];
}

const problemsColumn = helper.accessor((row) => rowProblems(row).length, {
  id: 'problems',
  header: 'Problems',
  sortDescFirst: true,
  cell: (info) => problemsCell(info.row.original),
});

/** Builds the columns: expander, item key, one column per shown rule (value + lock status), problems when shown. */
export function buildColumns(keys: KeySchema, rules: readonly string[], showProblems = true) {
  return helper.columns([
    helper.display({
      id: 'expand',
      header: () => <span className="visually-hidden">Expand</span>,
      cell: () => null,
    }),
    helper.accessor((row) => itemText(row, keys), {
      id: 'item',
      header: 'Item',
      cell: (info) => itemCell(info.row.original, keys),
    }),
    ...rules.map((rule) =>
      helper.accessor((row) => ruleText(row, rule), {
        id: `rule:${rule}`,
        header: rule,
        cell: (info) => ruleCell(info.row.original, rule),
      }),
    ),
    ...(showProblems ? [problemsColumn] : []),
  ]);
}
