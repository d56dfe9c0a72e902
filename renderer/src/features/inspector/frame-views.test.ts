import { describe, expect, it } from 'vitest';
import type { GroupRow } from '../../../../shared/audit/types';
import { frameViews, mergeViews } from './frame-views';
import { EMPTY_VIEW, type RowsView } from './row-store';

const row = (id: string): GroupRow => ({ kind: 'orphan-lock', id, key: { PK: `UNIQ#EMAIL#${id}` }, rule: 'EMAIL', value: id });
const view = (version: number, rows: readonly GroupRow[], extra: Partial<RowsView> = {}): RowsView => ({
  ...EMPTY_VIEW,
  run: 1,
  version,
  total: rows.length,
  length: rows.length,
  rows,
  ...extra,
});

/** A scheduler the test runs by hand, one frame at a time. */
function manualFrames() {
  const waiting: (() => void)[] = [];
  return {
    schedule: (callback: () => void) => {
      waiting.push(callback);
      return () => waiting.splice(waiting.indexOf(callback), 1);
    },
    frame: () => waiting.splice(0).forEach((callback) => callback()),
    waiting: () => waiting.length,
  };
}

describe('frameViews', () => {
  it('applies only the newest view of a frame, once', () => {
    const frames = manualFrames();
    const applied: RowsView[] = [];
    const views = frameViews((v) => applied.push(v), frames.schedule);
    views.push(view(1, [row('a')]));
    views.push(view(2, [row('a'), row('b')]));
    views.push(view(3, [row('a'), row('b'), row('c')], { end: { complete: true, reason: undefined, warnings: [] } }));
    expect(frames.waiting()).toBe(1);
    frames.frame();
    expect(applied.map((v) => v.version)).toEqual([3]);
    expect(applied[0]?.end?.complete).toBe(true);
    frames.frame();
    expect(applied).toHaveLength(1);
  });

  it('keeps the rows of a view that was never rendered when the next one says "the same rows"', () => {
    const frames = manualFrames();
    const applied: RowsView[] = [];
    const views = frameViews((v) => applied.push(v), frames.schedule);
    const rows = [row('a')];
    views.push(view(1, rows));
    views.push(view(2, [], { sameRows: true }));
    frames.frame();
    expect(applied[0]?.version).toBe(2);
    expect(applied[0]?.rows).toBe(rows);
    expect(applied[0]?.sameRows).toBeUndefined();
  });

  it('forgets what waits when the run is left', () => {
    const frames = manualFrames();
    const applied: RowsView[] = [];
    const views = frameViews((v) => applied.push(v), frames.schedule);
    views.push(view(1, [row('a')]));
    views.drop();
    frames.frame();
    expect(applied).toEqual([]);
  });
});

describe('mergeViews', () => {
  it('passes a "same rows" view through when the pending one is itself "same rows" or of another run', () => {
    const same = view(3, [], { sameRows: true });
    expect(mergeViews(view(2, [], { sameRows: true }), same)).toBe(same);
    expect(mergeViews(view(2, [row('a')], { run: 0 }), same)).toBe(same);
    expect(mergeViews(undefined, same)).toBe(same);
  });
});
