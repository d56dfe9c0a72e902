/**
 * The inspector grid: TanStack Table v9 for columns, headers and sort state, rendered through
 * @tanstack/react-virtual. Rows are ordered and filtered in the row store (`row-store.ts`, a
 * worker); the grid knows the view's length, asks for the window around what it shows, and gives
 * the table only the rows on screen, so a batch of new rows costs the page a window, not a pass
 * over 70k rows. One row per account or stray lock;
 * Enter or the chevron expands a row to its lock items. Keyboard: the grid keeps focus and moves an
 * active row (aria-activedescendant).
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useTable, type SortingState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { GroupRow } from '../../../../shared/audit/types';
import type { KeySchema } from '../../../../shared/model';
import { gridTemplate, ROW_HEIGHT, useVisibleWidth, useWindow } from './grid-geometry';
import { buildColumns, inspectorFeatures } from './inspector-columns';
import type { InspectorFilter } from './row-filter';
import type { RowsView, ViewSpec } from './row-store';
import { RowDetail } from './row-detail';
import { useGridKeys } from './use-grid-keys';
import { bodyHeight, virtualCount } from './virtual-count';

/** Props of {@link InspectorTable}. */
export interface InspectorTableProps {
  /** The store's view: its length and the window asked for with `onWindow`. */
  readonly rows: RowsView;
  /** Sets the store's order and filter. */
  readonly onView: (spec: ViewSpec) => void;
  /** Asks the store for rows `start…end - 1` of the view. */
  readonly onWindow: (start: number, end: number) => void;
  readonly keys: KeySchema;
  /** The rule columns shown (the user can hide some). */
  readonly rules: readonly string[];
  /** Whether the problems column is shown. */
  readonly showProblems: boolean;
  readonly filter: InspectorFilter;
  /** The convention's lock table, when locks live apart from the accounts. */
  readonly lockTable?: string | undefined;
}

function rowClass(row: GroupRow): string {
  if (row.kind !== 'account') return row.kind === 'orphan-lock' ? 'grid-row row-orphan' : 'grid-row row-malformed';
  if (row.problems.length > 0) return 'grid-row row-problem';
  return row.checking ? 'grid-row row-checking' : 'grid-row';
}

/**
 * The virtualized, sortable, filterable grid of audit rows. Memoized: a running audit's progress
 * re-renders the view around it several times a second, and the grid only changes with its props.
 */
export const InspectorTable = memo(function InspectorTable({
  rows,
  onView,
  onWindow,
  keys,
  rules,
  showProblems,
  filter,
  lockTable,
}: InspectorTableProps) {
  // Columns change only when the rule set, key schema or shown columns do; streaming rows never rebuild them.
  const columns = useMemo(() => buildColumns(keys, rules, showProblems), [keys, rules, showProblems]);
  // Problems first by default: that is what people open the inspector for.
  const [sorting, setSorting] = useState<SortingState>([{ id: 'problems', desc: true }]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [active, setActive] = useState(0);
  const { filter: kind, search } = filter;
  // Each spec is numbered: a key pressed before the store answered a new one waits for that answer (use-grid-keys.ts).
  const specId = useRef(0);
  useEffect(
    () => onView({ id: (specId.current += 1), sorting, keys, filter: { filter: kind, search } }),
    [onView, sorting, keys, kind, search],
  );
  const length = rows.length;
  const rowAt = (index: number): GroupRow | undefined => (index >= rows.start ? rows.rows[index - rows.start] : undefined);

  const scrollRef = useRef<HTMLDivElement>(null);
  const visibleWidth = useVisibleWidth(scrollRef);
  const { start: windowStart, rows: windowOf } = rows;
  // Keys: the virtualizer rebuilds every row's measurement when this function changes, which costs
  // O(rows) (tens of ms at 100k+ rows), and the window changes every few frames of a scroll. With
  // nothing expanded every row has ROW_HEIGHT, so keys by place (one function for good) lose
  // nothing; an expanded row's measured height must follow the row when the order changes (a
  // write's re-check moves it), so while one is open the rows in the window are keyed by id.
  const byPlace = useCallback((index: number) => index, []);
  const byRow = useCallback(
    (index: number) => (index >= windowStart ? windowOf[index - windowStart]?.id : undefined) ?? index,
    [windowStart, windowOf],
  );
  // Rounded up: a new count rebuilds every row's measurement, and the length changes with every batch.
  const count = virtualCount(length);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: expanded.size > 0 ? byRow : byPlace,
    overscan: 4,
  });
  const allItems = virtualizer.getVirtualItems();
  // The virtualizer's places past the view's length (see virtualCount) are not rows: never asked for.
  useWindow(
    length,
    Math.min(allItems[0]?.index ?? 0, Math.max(0, length - 1)),
    Math.min(allItems[allItems.length - 1]?.index ?? 0, Math.max(0, length - 1)),
    onWindow,
  );
  // Rows the store has not sent yet (a jump far beyond the window) show a moment later, with its answer.
  const virtualItems = useMemo(
    () => allItems.filter((item) => item.index >= windowStart && item.index < windowStart + windowOf.length),
    [allItems, windowStart, windowOf],
  );
  const windowRows = useMemo(
    () => virtualItems.flatMap((item) => windowOf[item.index - windowStart] ?? []),
    [virtualItems, windowStart, windowOf],
  );

  const table = useTable({
    features: inspectorFeatures,
    columns,
    data: windowRows,
    getRowId: (row) => row.id,
    state: { sorting },
    onSortingChange: setSorting,
    manualSorting: true,
  });
  const tableRows = table.getRowModel().rows;
  const activeIndex = Math.min(active, Math.max(0, length - 1));

  // Collapsed rows all have ROW_HEIGHT and are never measured: measuring a row makes the virtualizer
  // recompute every row after it, which on each scroll frame cost O(rows) (figures: docs/benchmarks.md).
  // Only expanded rows are measured; collapsing one gives it the fixed height back.
  const toggle = (id: string, index: number) => {
    if (expanded.has(id)) virtualizer.resizeItem(index, ROW_HEIGHT);
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };

  const move = (index: number) => {
    const clamped = Math.max(0, Math.min(length - 1, index));
    setActive(clamped);
    // Moving between rows is vertical: keep the sideways position (End used to jump to the right edge).
    const left = scrollRef.current?.scrollLeft ?? 0;
    virtualizer.scrollToIndex(clamped, { align: 'auto' });
    if (scrollRef.current) scrollRef.current.scrollLeft = left;
  };

  const onKeyDown = useGridKeys({
    length,
    activeIndex,
    rowAt,
    expanded,
    toggle,
    move,
    scrollRef,
    specPending: () => rows.specId !== specId.current,
  });

  // Name the active row only while it is in the window: a descendant that is not in the DOM
  // (the first frame, before the virtualizer has measured, or scrolled away) is an invalid reference.
  const activeShown = virtualItems.some((item, position) => item.index === activeIndex && tableRows[position] !== undefined);
  const gridStyle = {
    '--cols': gridTemplate(rules.length, showProblems),
    ...(visibleWidth ? { '--visible-width': `${visibleWidth}px` } : {}),
  } as CSSProperties;
  return (
    <div className="grid-scroll" ref={scrollRef} data-testid="inspector-scroll">
      <table
        className="grid"
        role="grid"
        aria-label="Accounts and locks"
        aria-rowcount={length + 1}
        tabIndex={0}
        aria-activedescendant={activeShown ? `inspector-row-${activeIndex}` : undefined}
        onKeyDown={onKeyDown}
        style={gridStyle}
        data-testid="inspector-grid"
      >
        <thead className="grid-head">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} className="grid-row grid-header-row" role="row">
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const canSort = header.column.getCanSort() && header.column.id !== 'expand';
                return (
                  <th
                    key={header.id}
                    role="columnheader"
                    scope="col"
                    className="grid-cell"
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  >
                    {canSort ? (
                      <button type="button" className="sort-button" onClick={header.column.getToggleSortingHandler()} tabIndex={-1}>
                        <table.FlexRender header={header} />
                        <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
                      </button>
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody className="grid-body" style={{ height: bodyHeight(virtualizer.getTotalSize(), count, length, ROW_HEIGHT) }}>
          {virtualItems.map((item, position) => {
            // The table holds exactly the window, in the virtualizer's order.
            const row = tableRows[position];
            if (!row) return null;
            const isExpanded = expanded.has(row.id);
            return (
              <tr
                // Keyed by place in the window, not by row: when the window moves, each <tr> and its
                // cells are reused for the row now in that place (new text and attributes) instead of
                // being destroyed and rebuilt, which cost a full style resolve per new element.
                key={position}
                id={`inspector-row-${item.index}`}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={item.index === activeIndex}
                data-index={item.index}
                data-row-kind={row.original.kind}
                data-testid="inspector-row"
                ref={isExpanded ? virtualizer.measureElement : undefined}
                className={`${rowClass(row.original)}${isExpanded ? ' row-expanded' : ''}${item.index === activeIndex ? ' row-active' : ''}`}
                style={{ transform: `translateY(${item.start}px)` }}
                onClick={() => setActive(item.index)}
              >
                {row.getAllCells().map((cell) => (
                  <td key={cell.column.id} role="gridcell" className="grid-cell">
                    {cell.column.id === 'expand' ? (
                      <button
                        type="button"
                        className="expander"
                        aria-label={isExpanded ? 'Collapse' : 'Expand'}
                        aria-expanded={isExpanded}
                        tabIndex={-1}
                        onClick={() => toggle(row.id, item.index)}
                      >
                        {isExpanded ? '▾' : '▸'}
                      </button>
                    ) : (
                      <table.FlexRender cell={cell} />
                    )}
                  </td>
                ))}
                {isExpanded ? (
                  <td key={`detail:${row.id}`} role="gridcell" className="grid-detail">
                    <RowDetail row={row.original} keys={keys} lockTable={lockTable} />
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {length === 0 ? <p className="empty">No rows match.</p> : null}
      <p className="visually-hidden" role="status" data-testid="inspector-row-count">
        {length} of {rows.total} rows shown
      </p>
    </div>
  );
});
