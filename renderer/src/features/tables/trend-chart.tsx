/**
 * A table's problem counts over its past audits, as a small uPlot line. The chart is decoration for
 * sighted readers: its numbers are also its accessible name and the text beside it. Colours are read
 * from the theme's variables at each draw, so a theme switch redraws it readable.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const WIDTH = 120;
const HEIGHT = 28;

/** The theme's colour `name` (a CSS variable on the root), with a fallback before styles load. */
function themeColour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** A sparkline of `problems` at `times` (ms); `label` says the same in words. */
export function TrendChart({ times, problems, label }: { times: readonly number[]; problems: readonly number[]; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const key = JSON.stringify([times, problems]);
  useEffect(() => {
    const el = host.current;
    if (!el) return undefined;
    const [xs, ys] = JSON.parse(key) as [number[], number[]];
    // One audit is a point: draw it as a flat line so it can be seen.
    const data: uPlot.AlignedData =
      xs.length === 1
        ? [
            [xs[0]! - 1, xs[0]!],
            [ys[0]!, ys[0]!],
          ]
        : [xs, ys];
    const chart = new uPlot(
      {
        width: WIDTH,
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        select: { show: false, left: 0, top: 0, width: 0, height: 0 },
        axes: [{ show: false }, { show: false }],
        scales: { x: { time: false }, y: { range: (_u, min, max) => [Math.min(0, min), Math.max(1, max)] } },
        series: [
          {},
          {
            stroke: () => (ys.some((y) => y > 0) ? themeColour('--danger', '#b3261e') : themeColour('--ok', '#17703a')),
            width: 2,
            points: { show: xs.length <= 1 },
          },
        ],
      },
      data,
      el,
    );
    // A theme switch (the data-theme attribute, or the system's scheme) redraws with the new colours.
    const redraw = (): void => chart.redraw(false, false);
    const observer = new MutationObserver(redraw);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', redraw);
    return () => {
      observer.disconnect();
      media.removeEventListener('change', redraw);
      chart.destroy();
    };
  }, [key]);
  if (problems.length === 0) return <span className="muted">—</span>;
  return (
    <div className="trend">
      <div ref={host} role="img" aria-label={`Problems over past audits: ${label}`} className="trend-chart" data-testid="trend-chart" />
      <span className="trend-text muted">{problems.join(' → ')}</span>
    </div>
  );
}
