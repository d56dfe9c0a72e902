/**
 * The inspector's ordered, filtered view of the row store (pure). The grid shows only a window of
 * it, so sorting and filtering happen here rather than in TanStack Table, and they are incremental:
 * while an audit streams, each batch drops the rows it replaced from the previous order and sorts
 * the rest with the rows that came in, which the engine's merge sort (TimSort) does in about one
 * comparison per row, the old order being one sorted run. Ties keep arrival order (the sort is
 * stable), so the common comparison is one number against another, instead of a full sort of every
 * row with string tie-breaks per batch (figures: docs/benchmarks.md).
 */
import type { GroupRow } from '../../../../shared/audit/types';
import type { AuditRows } from './audit-rows';
import { PROBLEM_KINDS, type KeySchema } from '../../../../shared/model';
import { formatKey } from '../../../../shared/plain-key';
import { duplicateGroupKey, rowMatches, rowProblems, type InspectorFilter } from './row-filter';

/** One sort criterion, as TanStack Table's `SortingState` holds it. */
export interface SortCriterion {
  readonly id: string;
  readonly desc: boolean;
}

/** The text of the `item` column: the row's key in plain form. */
export function itemText(row: GroupRow, keys: KeySchema): string {
  return formatKey(row.key, keys);
}

/** The value a rule column shows: the account's value for the rule, or the stray lock's own value. */
export function ruleText(row: GroupRow, rule: string): string {
  if (row.kind !== 'account') return row.rule === rule ? row.value : '';
  return row.locks.find((l) => l.rule === rule)?.value ?? '';
}

/**
 * The problems column's sort value: rows group by their first problem kind (in report order), then
 * by how many problems they have; 0 for none. One number, so the sort stays a number comparison, and
 * the grouping does not depend on the order rows arrived in (which differs from one run to the next).
 */
export function problemRank(row: GroupRow): number {
  const problems = rowProblems(row);
  const first = problems[0];
  if (first === undefined) return 0;
  const index = PROBLEM_KINDS.indexOf(first);
  return (PROBLEM_KINDS.length - (index < 0 ? PROBLEM_KINDS.length : index)) * 1_000 + Math.min(problems.length, 999);
}

/** The sort value of a column: numbers as they are, text case-folded so `Ada` sorts beside `ada`. */
export function sortValue(row: GroupRow, columnId: string, keys: KeySchema): string | number {
  if (columnId === 'problems') return problemRank(row);
  if (columnId === 'item') return itemText(row, keys).toLowerCase();
  if (columnId.startsWith('rule:')) return ruleText(row, columnId.slice('rule:'.length)).toLowerCase();
  return '';
}

interface Entry {
  readonly row: GroupRow;
  readonly values: readonly (string | number)[];
}

/** Rows in display order for one sort, plus what the next incremental step needs. */
export interface SortedRows {
  /** The sort and key schema this order was made for; another one means a full sort. */
  readonly spec: string;
  /** The store this order was made from. */
  readonly source: AuditRows;
  readonly entries: readonly Entry[];
  readonly rows: readonly GroupRow[];
}

const cmp = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);

function comparator(sorting: readonly SortCriterion[]): (a: Entry, b: Entry) => number {
  const n = sorting.length;
  const sign = sorting.map((s) => (s.desc ? -1 : 1));
  return (a, b) => {
    for (let i = 0; i < n; i++) {
      const x = a.values[i]!;
      const y = b.values[i]!;
      if (x !== y) return x < y ? -sign[i]! : sign[i]!;
    }
    return 0;
  };
}

/**
 * Orders the store's rows. With `previous` made for the same sort from the store this one was made
 * from (`rows.change.from`), only the change is applied; otherwise every row is sorted.
 */
export function sortRows(
  previous: SortedRows | undefined,
  rows: AuditRows,
  sorting: readonly SortCriterion[],
  keys: KeySchema,
): SortedRows {
  const spec = JSON.stringify([sorting, keys]);
  const entry = (row: GroupRow): Entry => ({ row, values: sorting.map((s) => sortValue(row, s.id, keys)) });
  let entries: Entry[];
  if (previous && previous.spec === spec && previous.source === rows) return previous;
  const change = rows.change;
  if (previous && previous.spec === spec && change && change.from === previous.source) {
    if (change.added.length === 0 && change.removed.length === 0) return { ...previous, source: rows };
    const gone = new Set(change.removed);
    entries = gone.size > 0 ? previous.entries.filter((e) => !gone.has(e.row)) : previous.entries.slice();
    for (const row of change.added) entries.push(entry(row));
  } else {
    entries = rows.list.map(entry);
  }
  // Stable: ties stay in arrival order.
  entries.sort(comparator(sorting));
  return { spec, source: rows, entries, rows: entries.map((e) => e.row) };
}

// Searching builds a row's text once; rows are immutable, so the text is kept per row object.
const searchTextCache = new WeakMap<GroupRow, string>();

/** The rows `filter` keeps, in the given order; duplicates are grouped by value when that is the filter. */
export function filterRows(sorted: readonly GroupRow[], filter: InspectorFilter): readonly GroupRow[] {
  const needle = filter.search.trim();
  if (filter.filter === 'all' && needle === '') return sorted;
  const kept = sorted.filter((row) => rowMatches(row, filter, searchTextCache));
  if (filter.filter !== 'duplicate-value') return kept;
  // Rows of one (rule, value) next to each other; the sort decides the order within a group (stable sort).
  return kept.sort((a, b) => cmp(duplicateGroupKey(a) ?? '\uffff', duplicateGroupKey(b) ?? '\uffff'));
}
