/** The inspector grid's geometry: row height, column template, the visible width and the window of rows asked of the store. */
import { useEffect, useRef, useState, type RefObject } from 'react';

/** The height of a collapsed row, in px (expanded rows are measured). */
export const ROW_HEIGHT = 38;
/** Rows asked for beyond each end of what is on screen: a scroll within them needs no round trip to the store. */
const WINDOW_MARGIN = 60;

/** The grid's column template: expander, item, the shown rules, problems (narrow minimums: a 1024 px window shows them all). */
export function gridTemplate(ruleCount: number, showProblems: boolean): string {
  return [
    '2.2rem',
    'minmax(12rem, 2fr)',
    ...Array<string>(ruleCount).fill('minmax(9rem, 1fr)'),
    ...(showProblems ? ['minmax(9rem, 1fr)'] : []),
  ].join(' ');
}

/** The scroll container's inner width, so an expanded row's detail fits the view rather than the (wider) grid. */
export function useVisibleWidth(ref: RefObject<HTMLDivElement | null>): number | undefined {
  const [width, setWidth] = useState<number>();
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * Keeps the store's window around the rows on screen (`first…last`): asks again only when they come
 * within half a margin of its edge. The store re-sends the window with every change, so rows
 * streaming in need no request.
 */
export function useWindow(length: number, first: number, last: number, onWindow: (start: number, end: number) => void): void {
  const asked = useRef<{ start: number; end: number } | undefined>(undefined);
  useEffect(() => {
    const current = asked.current;
    const slack = WINDOW_MARGIN / 2;
    const fits =
      current !== undefined &&
      (first - current.start >= slack || current.start === 0) &&
      (current.end - last > slack || current.end >= length) &&
      first >= current.start &&
      last < current.end;
    if (fits) return;
    const next = { start: Math.max(0, first - WINDOW_MARGIN), end: last + 1 + WINDOW_MARGIN };
    asked.current = next;
    onWindow(next.start, next.end);
  }, [first, last, length, onWindow]);
}
