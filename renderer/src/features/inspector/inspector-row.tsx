/** One row of the inspector grid: an account or a stray lock, with its expander and, expanded, its detail. */
import { memo, useLayoutEffect, useRef } from 'react';
import type { GroupRow } from '../../../../shared/audit/types';
import type { KeySchema } from '../../../../shared/model';
import type { BodyCell } from './inspector-columns';
import { RowDetail } from './row-detail';

function rowClass(row: GroupRow): string {
  if (row.kind !== 'account') return row.kind === 'orphan-lock' ? 'grid-row row-orphan' : 'grid-row row-malformed';
  if (row.problems.length > 0) return 'grid-row row-problem';
  return row.checking ? 'grid-row row-checking' : 'grid-row';
}

/** Props of {@link InspectorRow}: all stable between renders unless the row itself changed (it is memoized). */
export interface InspectorRowProps {
  readonly row: GroupRow;
  /** The row's place in the view. */
  readonly index: number;
  /** Where it starts in the grid's body, px. */
  readonly top: number;
  readonly expanded: boolean;
  readonly active: boolean;
  readonly cells: readonly BodyCell[];
  readonly keys: KeySchema;
  readonly lockTable: string | undefined;
  readonly onToggle: (id: string, index: number) => void;
  readonly onActivate: (index: number) => void;
  /** Measures an expanded row's element until the returned stop (collapsed rows have the fixed row height and are never measured). */
  readonly measure: (element: HTMLElement | null) => (() => void) | undefined;
}

/**
 * Memoized: a batch of streamed rows, the end of a run or a scroll re-renders the grid, and only the
 * rows whose content, place or state changed are rendered again (the grid keeps unchanged rows' objects).
 */
export const InspectorRow = memo(function InspectorRow({
  row,
  index,
  top,
  expanded,
  active,
  cells,
  keys,
  lockTable,
  onToggle,
  onActivate,
  measure,
}: InspectorRowProps) {
  const element = useRef<HTMLTableRowElement>(null);
  // Per row id, not per element: the <tr> is reused for whichever row takes its place, and another
  // expanded row of the same height would otherwise never be reported.
  useLayoutEffect(() => (expanded ? measure(element.current) : undefined), [expanded, row.id, measure]);
  return (
    <tr
      ref={element}
      id={`inspector-row-${index}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={active}
      data-index={index}
      data-row-kind={row.kind}
      data-testid="inspector-row"
      data-expanded-id={expanded ? row.id : undefined}
      className={`${rowClass(row)}${expanded ? ' row-expanded' : ''}${active ? ' row-active' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      onClick={() => onActivate(index)}
    >
      {cells.map((cell) => (
        <td key={cell.id} role="gridcell" className="grid-cell">
          {cell.id === 'expand' ? (
            <button
              type="button"
              className="expander"
              aria-label={expanded ? 'Collapse' : 'Expand'}
              aria-expanded={expanded}
              tabIndex={-1}
              onClick={() => onToggle(row.id, index)}
            >
              {expanded ? '▾' : '▸'}
            </button>
          ) : (
            cell.render(row)
          )}
        </td>
      ))}
      {expanded ? (
        <td key={`detail:${row.id}`} role="gridcell" className="grid-detail">
          <RowDetail row={row} keys={keys} lockTable={lockTable} />
        </td>
      ) : null}
    </tr>
  );
});
