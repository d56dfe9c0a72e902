/**
 * The inspector grid: TanStack Table v9 (sorting, global filter) rendered through
 * @tanstack/react-virtual. One row per account or stray lock; Enter or the chevron expands a row
 * to its lock items. Keyboard: the grid keeps focus and moves an active row (aria-activedescendant).
 */
import { useCallback, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { useTable, type SortingState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { GroupRow } from '../../../../shared/audit/types';
import type { KeySchema } from '../../../../shared/model';
import { buildColumns, canGlobalFilter, inspectorFeatures, inspectorGlobalFilter } from './inspector-columns';
import type { InspectorFilter } from './row-filter';
import { RowDetail } from './row-detail';

/** Props of {@link InspectorTable}. */
export interface InspectorTableProps {
  readonly rows: readonly GroupRow[];
  readonly keys: KeySchema;
  readonly rules: readonly string[];
  readonly filter: InspectorFilter;
}

const ROW_HEIGHT = 38;

function rowClass(row: GroupRow): string {
  if (row.kind !== 'account') return row.kind === 'orphan-lock' ? 'grid-row row-orphan' : 'grid-row row-malformed';
  return row.problems.length > 0 ? 'grid-row row-problem' : 'grid-row';
}

/** The virtualized, sortable, filterable grid of audit rows. */
export function InspectorTable({ rows, keys, rules, filter }: InspectorTableProps) {
  // Columns change only when the rule set or key schema does (both stable per run); streaming rows never rebuild them.
  const columns = useMemo(() => buildColumns(keys, rules), [keys, rules]);
  // Problems first by default: that is what people open the inspector for.
  const [sorting, setSorting] = useState<SortingState>([{ id: 'problems', desc: true }]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [active, setActive] = useState(0);
  const globalFilter = filter.filter === 'all' && filter.search.trim() === '' ? undefined : filter;

  const table = useTable({
    features: inspectorFeatures,
    columns,
    data: rows as GroupRow[],
    getRowId: (row) => row.id,
    state: { sorting, globalFilter },
    onSortingChange: setSorting,
    globalFilterFn: inspectorGlobalFilter,
    getColumnCanGlobalFilter: canGlobalFilter,
  });

  const tableRows = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  // Stable between renders of the same rows: the virtualizer rebuilds every row's measurement when
  // this function changes, which on each scroll frame cost O(rows) (tens of ms at 10k+ rows).
  const getItemKey = useCallback((index: number) => tableRows[index]?.id ?? index, [tableRows]);
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey,
    overscan: 8,
  });
  const activeIndex = Math.min(active, Math.max(0, tableRows.length - 1));

  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const move = (index: number) => {
    const clamped = Math.max(0, Math.min(tableRows.length - 1, index));
    setActive(clamped);
    virtualizer.scrollToIndex(clamped, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    if (event.target !== event.currentTarget) return; // keys inside an expanded detail belong to its controls
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const keyMoves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (event.key in keyMoves) {
      event.preventDefault();
      move(activeIndex + (keyMoves[event.key] ?? 0));
    } else if (event.key === 'Home') {
      event.preventDefault();
      move(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      move(tableRows.length - 1);
    } else if (event.key === 'Enter' || event.key === ' ') {
      const row = tableRows[activeIndex];
      if (row) {
        event.preventDefault();
        toggle(row.id);
      }
    }
  };

  const gridStyle = { '--rule-count': String(rules.length) } as CSSProperties;
  const virtualItems = virtualizer.getVirtualItems();
  return (
    <div className="grid-scroll" ref={scrollRef} data-testid="inspector-scroll">
      <table
        className="grid"
        role="grid"
        aria-label="Accounts and locks"
        aria-rowcount={tableRows.length + 1}
        tabIndex={0}
        aria-activedescendant={tableRows.length > 0 ? `inspector-row-${activeIndex}` : undefined}
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
        <tbody className="grid-body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualItems.map((item) => {
            const row = tableRows[item.index];
            if (!row) return null;
            const isExpanded = expanded.has(row.id);
            return (
              <tr
                key={row.id}
                id={`inspector-row-${item.index}`}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={item.index === activeIndex}
                data-index={item.index}
                data-row-kind={row.original.kind}
                data-testid="inspector-row"
                ref={virtualizer.measureElement}
                className={`${rowClass(row.original)}${item.index === activeIndex ? ' row-active' : ''}`}
                style={{ transform: `translateY(${item.start}px)` }}
                onClick={() => setActive(item.index)}
              >
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} role="gridcell" className="grid-cell">
                    {cell.column.id === 'expand' ? (
                      <button
                        type="button"
                        className="expander"
                        aria-label={isExpanded ? 'Collapse' : 'Expand'}
                        aria-expanded={isExpanded}
                        tabIndex={-1}
                        onClick={() => toggle(row.id)}
                      >
                        {isExpanded ? '▾' : '▸'}
                      </button>
                    ) : (
                      <table.FlexRender cell={cell} />
                    )}
                  </td>
                ))}
                {isExpanded ? (
                  <td role="gridcell" className="grid-detail">
                    <RowDetail row={row.original} keys={keys} />
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {tableRows.length === 0 ? <p className="empty">No rows match.</p> : null}
      <p className="visually-hidden" role="status" data-testid="inspector-row-count">
        {tableRows.length} of {rows.length} rows shown
      </p>
    </div>
  );
}
