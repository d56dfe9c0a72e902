/** The inspector grid's keyboard: arrows, pages, Home/End move the active row; Enter, Space, Left and Right expand and collapse. */
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import type { GroupRow } from '../../../../shared/audit/types';
import { ROW_HEIGHT } from './grid-geometry';

/** The keys the grid handles itself. */
const GRID_KEYS: ReadonlySet<string> = new Set([
  'ArrowDown',
  'ArrowUp',
  'PageDown',
  'PageUp',
  'Home',
  'End',
  'ArrowLeft',
  'ArrowRight',
  'Enter',
  ' ',
]);

/** What the keys act on. */
export interface GridKeyTarget {
  readonly length: number;
  readonly activeIndex: number;
  readonly rowAt: (index: number) => GroupRow | undefined;
  /** The expanded rows' ids. */
  readonly expanded: { readonly has: (id: string) => boolean };
  readonly toggle: (id: string, index: number) => void;
  readonly move: (index: number) => void;
  readonly scrollRef: RefObject<HTMLDivElement | null>;
  /** Whether the store has not answered the newest view spec yet (asked when a key comes): a grid key waits for it. */
  readonly specPending: () => boolean;
}

/**
 * The grid's key handler. A key pressed before the store answered a new spec waits for that answer
 * (End right after clearing the search means the end of every row, not of the few shown before).
 */
export function useGridKeys(target: GridKeyTarget): (event: KeyboardEvent<HTMLTableElement>) => void {
  const { length, activeIndex, rowAt, expanded, toggle, move, scrollRef, specPending } = target;
  const deferredKey = useRef<string | undefined>(undefined);

  // Applies a grid key; returns whether it was the grid's (then the browser's default is prevented).
  const gridKey = (key: string): boolean => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const keyMoves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (key in keyMoves) move(activeIndex + (keyMoves[key] ?? 0));
    else if (key === 'Home') move(0);
    else if (key === 'End') move(length - 1);
    else if (key === 'ArrowLeft' || key === 'ArrowRight') {
      // Tree-grid convention: Left collapses the active row, Right expands it.
      const row = rowAt(activeIndex);
      if (row && expanded.has(row.id) === (key === 'ArrowLeft')) toggle(row.id, activeIndex);
    } else if (key === 'Enter' || key === ' ') {
      const row = rowAt(activeIndex);
      if (!row) return false;
      toggle(row.id, activeIndex);
    } else return false;
    return true;
  };

  // A key that waited for the store's answer to a new spec runs once it is here.
  useEffect(() => {
    const key = deferredKey.current;
    if (key === undefined || specPending()) return;
    deferredKey.current = undefined;
    gridKey(key);
  });

  return (event) => {
    if (event.target !== event.currentTarget) return; // keys inside an expanded detail belong to its controls
    if (specPending() && GRID_KEYS.has(event.key)) {
      event.preventDefault();
      deferredKey.current = event.key;
      return;
    }
    if (gridKey(event.key)) event.preventDefault();
  };
}
