// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { FrameScheduler } from './frame-views';
import { EMPTY_VIEW, type RowsView, type RunEnd } from './row-store';
import { useRunEnd } from './run-end';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const END: RunEnd = { complete: true, reason: undefined, warnings: [] };

/** Frames run by hand. */
function manualFrames(): { schedule: FrameScheduler; run: () => void; waiting: () => number } {
  let queue: (() => void)[] = [];
  return {
    schedule: (callback) => {
      queue.push(callback);
      return () => {
        queue = queue.filter((c) => c !== callback);
      };
    },
    run: () => {
      const due = queue;
      queue = [];
      for (const callback of due) callback();
    },
    waiting: () => queue.length,
  };
}

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

function mount(frames: ReturnType<typeof manualFrames>, ends: RunEnd[]): (rows: RowsView) => void {
  const container = document.createElement('div');
  const root = createRoot(container);
  cleanup = () => act(() => root.unmount());
  function Probe({ rows }: { rows: RowsView }) {
    useRunEnd(rows, (end) => ends.push(end), frames.schedule);
    return null;
  }
  return (rows) => act(() => root.render(<Probe rows={rows} />));
}

describe('useRunEnd', () => {
  it('applies the end a frame after the rows that carry it, not in their commit', () => {
    const frames = manualFrames();
    const ends: RunEnd[] = [];
    const render = mount(frames, ends);
    render({ ...EMPTY_VIEW, run: 1, total: 5 });
    expect(frames.waiting()).toBe(0);
    render({ ...EMPTY_VIEW, run: 1, total: 9, end: END });
    expect(ends).toEqual([]);
    frames.run();
    expect(ends).toEqual([END]);
  });

  it('applies it once per run, however many views of the ended run follow', () => {
    const frames = manualFrames();
    const ends: RunEnd[] = [];
    const render = mount(frames, ends);
    render({ ...EMPTY_VIEW, run: 1, end: END });
    frames.run();
    render({ ...EMPTY_VIEW, run: 1, version: 2, end: { ...END } });
    frames.run();
    expect(ends).toHaveLength(1);
  });

  it('drops the end of a run left before its frame came', () => {
    const frames = manualFrames();
    const ends: RunEnd[] = [];
    const render = mount(frames, ends);
    render({ ...EMPTY_VIEW, run: 1, end: END });
    render(EMPTY_VIEW);
    frames.run();
    expect(ends).toEqual([]);
  });
});
