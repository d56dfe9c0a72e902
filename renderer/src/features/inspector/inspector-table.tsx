/**
 * The inspector grid: TanStack Table v9 for columns, headers and sort state; the body is our own
 * virtual window (`shared/virtual-window.ts`). Rows are ordered and filtered in the row store (`row-store.ts`,
 * a worker); the grid knows the view's length, asks for the window around what it shows, and
 * renders only the rows on screen, so a batch of new rows costs the page a window, not a pass
 * over 70k rows. One row per account or stray lock;
 * Enter or the chevron expands a row to its lock items. Keyboard: the grid keeps focus and moves an
 * active row (aria-activedescendant).
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useTable, type SortingState } from '@tanstack/react-table';
import type { GroupRow } from '../../../../shared/audit/types';
import type { KeySchema } from '../../../../shared/model';
import { gridTemplate, ROW_HEIGHT, useVisibleWidth, useWindow } from './grid-geometry';
import { bodyCells, buildColumns, inspectorFeatures } from './inspector-columns';
import { InspectorRow } from './inspector-row';
import type { InspectorFilter } from './row-filter';
import type { RowsView, ViewSpec } from './row-store';
import { keepSameRows } from './stable-rows';
import { useGridKeys } from './use-grid-keys';
import { useRowMeasure, useVirtualWindow } from './use-virtual-window';
import { extrasOf } from '../../../../shared/virtual-window';

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

/** The empty data of the header table: the body's rows are rendered from the window, not through the table. */
const NO_ROWS: GroupRow[] = [];
/** Rows rendered beyond each end of the view. */
const OVERSCAN = 4;

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
  const cells = useMemo(() => bodyCells(keys, rules, showProblems), [keys, rules, showProblems]);
  // Problems first by default: that is what people open the inspector for.
  const [sorting, setSorting] = useState<SortingState>([{ id: 'problems', desc: true }]);
  // Expanded rows by id, with their measured height once known.
  const [expanded, setExpanded] = useState<ReadonlyMap<string, number | undefined>>(() => new Map());
  const [active, setActive] = useState(0);
  const { filter: kind, search } = filter;
  // Each spec is numbered: a key pressed before the store answered a new one waits for that answer (use-grid-keys.ts).
  const specId = useRef(0);
  useEffect(
    () => onView({ id: (specId.current += 1), sorting, keys, filter: { filter: kind, search } }),
    [onView, sorting, keys, kind, search],
  );
  const length = rows.length;
  // The store's rows as objects this page already rendered where their content is the same (stable-rows.ts).
  const [kept, setKept] = useState({ source: rows.rows, rows: rows.rows });
  if (kept.source !== rows.rows) setKept({ source: rows.rows, rows: keepSameRows(kept.rows, rows.rows) });
  const windowStart = rows.start;
  const windowOf = kept.source === rows.rows ? kept.rows : rows.rows;
  const rowAt = (index: number): GroupRow | undefined => (index >= windowStart ? windowOf[index - windowStart] : undefined);

  // Where each expanded row sits: its place in the window, or where it was last seen there (a row
  // scrolled out of the window keeps its height in the offsets of the rows below it).
  const lastPlace = useRef(new Map<string, number>());
  const places: { index: number; height: number }[] = [];
  windowOf.forEach((row, i) => {
    if (expanded.has(row.id)) lastPlace.current.set(row.id, windowStart + i);
  });
  for (const [id, height] of expanded) {
    const index = lastPlace.current.get(id);
    if (height !== undefined && index !== undefined) places.push({ index, height });
  }
  const extrasKey = places.map((p) => `${p.index}:${p.height}`).join(',');
  // The geometry changes with the length and the expanded rows, never with the rows' content.
  const geometry = useMemo(
    () => ({ length, rowHeight: ROW_HEIGHT, extras: extrasOf(places, length, ROW_HEIGHT) }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `places` is summed up by `extrasKey`
    [length, extrasKey],
  );

  const scrollRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const visibleWidth = useVisibleWidth(scrollRef);
  const view = useVirtualWindow(scrollRef, bodyRef, geometry, OVERSCAN);
  const { first, last } = view.range;
  // Places past the view's length are never asked for (the range never holds one).
  useWindow(length, Math.max(0, first), Math.max(0, last), onWindow);

  const table = useTable({
    features: inspectorFeatures,
    columns,
    data: NO_ROWS,
    getRowId: (row) => row.id,
    state: { sorting },
    onSortingChange: setSorting,
    manualSorting: true,
  });
  const activeIndex = Math.min(active, Math.max(0, length - 1));

  // Collapsed rows all have ROW_HEIGHT and are never measured; an expanded row is measured
  // (useRowMeasure) and collapsing it gives it the fixed height back.
  const toggle = useCallback((id: string) => {
    setExpanded((current) => {
      const next = new Map(current);
      if (next.has(id)) next.delete(id);
      else next.set(id, undefined);
      return next;
    });
  }, []);
  const measure = useRowMeasure(
    useCallback((id: string, height: number) => {
      setExpanded((current) => (current.has(id) && current.get(id) !== height ? new Map(current).set(id, height) : current));
    }, []),
  );

  const { reveal } = view;
  const move = (index: number) => {
    const clamped = Math.max(0, Math.min(length - 1, index));
    setActive(clamped);
    // Moving between rows is vertical: keep the sideways position (End used to jump to the right edge).
    const left = scrollRef.current?.scrollLeft ?? 0;
    reveal(clamped);
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

  // The rows of the range the store has sent (a jump far beyond the window shows a moment later, with its answer).
  const shown: { index: number; row: GroupRow }[] = [];
  for (let index = Math.max(first, windowStart); index <= last; index++) {
    const row = windowOf[index - windowStart];
    if (!row) break;
    shown.push({ index, row });
  }
  // Name the active row only while it is in the window: a descendant that is not in the DOM
  // (the first frame, before the window is known, or scrolled away) is an invalid reference.
  const activeShown = shown.some((item) => item.index === activeIndex);
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
        <tbody className="grid-body" ref={bodyRef} style={{ height: view.height }}>
          {shown.map(({ index, row }, position) => (
            <InspectorRow
              // Keyed by place in the window, not by row: when the window moves, each <tr> and its
              // cells are reused for the row now in that place (new text and attributes) instead of
              // being destroyed and rebuilt, which cost a full style resolve per new element.
              key={position}
              row={row}
              index={index}
              top={view.start(index)}
              expanded={expanded.has(row.id)}
              active={index === activeIndex}
              cells={cells}
              keys={keys}
              lockTable={lockTable}
              onToggle={toggle}
              onActivate={setActive}
              measure={measure}
            />
          ))}
        </tbody>
      </table>
      {length === 0 ? <p className="empty">No rows match.</p> : null}
      <p className="visually-hidden" role="status" data-testid="inspector-row-count">
        {length} of {rows.total} rows shown
      </p>
    </div>
  );
});
