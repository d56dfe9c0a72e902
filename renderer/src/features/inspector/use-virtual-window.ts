/**
 * The inspector grid's virtual window over its scroll container: which rows to render, where each
 * starts, the body's height, and scrolling a row into view. The arithmetic is `shared/virtual-window.ts`
 * (O(expanded rows) per question); this hook follows the container's scroll and size.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { rowStart, scrollToReveal, totalHeight, visibleRange, type RowGeometry, type RowRange } from '../../../../shared/virtual-window';

/** Where the container stands: its scroll offset, its inner height, and where the body starts (under the sticky header). */
interface Place {
  readonly scrollTop: number;
  readonly clientHeight: number;
  readonly bodyTop: number;
}

/** The window: the rows to render and how to place them. */
export interface VirtualWindow {
  readonly range: RowRange;
  /** Where row `index` starts in the body. */
  readonly start: (index: number) => number;
  /** The body's height. */
  readonly height: number;
  /** Scrolls the least that shows row `index` whole (below the sticky header). */
  readonly reveal: (index: number) => void;
}

// Nothing before the container has a height (the first render, or away from a page): no row is placed blind.
function rangeOf(geometry: RowGeometry, place: Place, overscan: number): RowRange {
  if (place.clientHeight <= 0) return { first: 0, last: -1 };
  return visibleRange(geometry, place.scrollTop, place.clientHeight - place.bodyTop, overscan);
}

/**
 * Follows `scrollRef`'s scroll and size (and the header's, which `bodyRef`'s offset gives) for rows of
 * `geometry`. A scroll that changes the rows shown renders at once (in the scroll event, so the frame
 * shows them); one that does not re-renders nothing.
 */
export function useVirtualWindow(
  scrollRef: RefObject<HTMLElement | null>,
  bodyRef: RefObject<HTMLElement | null>,
  geometry: RowGeometry,
  overscan: number,
): VirtualWindow {
  const [place, setPlace] = useState<Place>({ scrollTop: 0, clientHeight: 0, bodyTop: 0 });
  // The newest place and geometry, for the scroll listener (which is set up once).
  const latest = useRef({ place, geometry });
  const range = rangeOf(geometry, place, overscan);
  const shown = useRef(range);
  useLayoutEffect(() => {
    latest.current = { place, geometry };
    shown.current = range;
  });

  useEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return undefined;
    const read = (): Place => ({
      scrollTop: scroller.scrollTop,
      clientHeight: scroller.clientHeight,
      bodyTop: bodyRef.current?.offsetTop ?? 0,
    });
    const onScroll = (): void => {
      const next = { ...latest.current.place, scrollTop: scroller.scrollTop };
      latest.current = { ...latest.current, place: next };
      const nextRange = rangeOf(latest.current.geometry, next, overscan);
      if (nextRange.first === shown.current.first && nextRange.last === shown.current.last) return;
      shown.current = nextRange;
      // In the scroll event: the frame that shows the new offset shows the rows there too.
      flushSync(() => setPlace(next));
    };
    const observer = new ResizeObserver(() => setPlace(read()));
    observer.observe(scroller);
    if (bodyRef.current?.previousElementSibling) observer.observe(bodyRef.current.previousElementSibling);
    scroller.addEventListener('scroll', onScroll, { passive: true });
    setPlace(read());
    return () => {
      observer.disconnect();
      scroller.removeEventListener('scroll', onScroll);
    };
  }, [scrollRef, bodyRef, overscan]);

  const reveal = useCallback(
    (index: number) => {
      const scroller = scrollRef.current;
      if (!scroller) return;
      const target = scrollToReveal(
        latest.current.geometry,
        index,
        scroller.scrollTop,
        scroller.clientHeight,
        bodyRef.current?.offsetTop ?? 0,
      );
      if (target !== undefined) scroller.scrollTop = target;
    },
    [scrollRef, bodyRef],
  );

  const start = useCallback((index: number) => rowStart(geometry, index), [geometry]);
  return { range, start, height: totalHeight(geometry), reveal };
}

/**
 * Measures expanded rows: a ref callback for each expanded row's element that reports its height
 * (border box) to `onHeight` with the row id it carries in `data-expanded-id`, now and whenever it changes.
 */
export function useRowMeasure(onHeight: (id: string, height: number) => void): (element: HTMLElement | null) => (() => void) | undefined {
  const report = useRef(onHeight);
  useLayoutEffect(() => {
    report.current = onHeight;
  });
  const [observer] = useState(() =>
    typeof ResizeObserver === 'undefined'
      ? undefined
      : new ResizeObserver((entries) => {
          for (const entry of entries) {
            const id = entry.target.getAttribute('data-expanded-id');
            const height = entry.borderBoxSize[0]?.blockSize ?? (entry.target as HTMLElement).offsetHeight;
            if (id !== null) report.current(id, height);
          }
        }),
  );
  useEffect(() => () => observer?.disconnect(), [observer]);
  return useCallback(
    (element: HTMLElement | null) => {
      if (!element || !observer) return undefined;
      observer.observe(element);
      return () => observer.unobserve(element);
    },
    [observer],
  );
}
