import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeDelta, type AuditEvent } from '../../../../shared/contract';
import { PROGRESS_EVERY_MS, type RowStoreUpdate } from './row-store';
import { hostRowStore, type OpenStream } from './row-store-host';
import { openStreams } from './row-store-stream';

afterEach(() => {
  vi.useRealTimers();
});

describe('hostRowStore', () => {
  it('says it failed, once, when applying events throws, and answers nothing after', async () => {
    const updates: RowStoreUpdate[] = [];
    let onFailed: () => void = () => undefined;
    const failed = new Promise<void>((resolve) => (onFailed = resolve));
    const handle = hostRowStore((update) => {
      updates.push(update);
      if (update.type === 'failed') onFailed();
    }, openStreams());
    handle({ type: 'reset', run: 1 });
    // A delta whose row is missing: applying it throws, in the store's own timer.
    handle({ type: 'events', run: 1, events: [{ type: 'delta', runId: 'r', delta: { upserted: [null], removed: [] } } as never] });
    await failed;
    expect(updates.map((u) => u.type)).toEqual(['view', 'failed']);
    handle({ type: 'window', start: 0, end: 10 });
    handle({ type: 'reset', run: 2 });
    expect(updates.map((u) => u.type)).toEqual(['view', 'failed']);
  });

  it('sends the progress waiting for its turn with the next batch of rows, before them', () => {
    vi.useFakeTimers();
    const updates: RowStoreUpdate[] = [];
    let emit: (event: AuditEvent) => void = () => undefined;
    const openStream: OpenStream = (_source, _runId, listener) => {
      emit = listener;
      return () => undefined;
    };
    const handle = hostRowStore((update) => updates.push(update), openStream);
    handle({ type: 'reset', run: 1 });
    handle({ type: 'stream', run: 1, runId: 'r', source: { kind: 'http', baseUrl: 'http://127.0.0.1:1', token: 't' } });
    const counts = {
      scanned: 1,
      accounts: 1,
      locks: 0,
      summary: { 'orphan-lock': 1, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
    };
    const rows = (value: string): AuditEvent => ({
      type: 'delta',
      runId: 'r',
      delta: encodeDelta({
        upserted: [{ kind: 'orphan-lock', id: value, key: { PK: `UNIQ#EMAIL#${value}` }, rule: 'EMAIL', value }],
        removed: [],
        counts,
      }),
    });
    const progress = (items: number): AuditEvent => ({
      type: 'progress',
      runId: 'r',
      progress: { items, pages: 1, segments: 4, segmentsDone: 0, capacityUnits: 0, elapsedMs: 1, retries: 0 },
    });
    emit(rows('a'));
    vi.advanceTimersByTime(0); // the first rows go at once
    updates.length = 0;
    emit(progress(10));
    emit(rows('b'));
    vi.advanceTimersByTime(30); // the store's pause at one row, well before the progress's own turn
    expect(updates.map((u) => u.type)).toEqual(['progress', 'view']);
    expect(updates[0]).toMatchObject({ run: 1, progress: { items: 10 } });
    vi.advanceTimersByTime(PROGRESS_EVERY_MS); // and it is not sent twice
    expect(updates.map((u) => u.type)).toEqual(['progress', 'view']);
  });

  describe('a MessagePort source (Electron)', () => {
    const counts = {
      scanned: 1,
      accounts: 0,
      locks: 1,
      summary: { 'orphan-lock': 1, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
    };
    const closed = (port: MessagePort): Promise<void> =>
      new Promise((resolve) => (port as unknown as { once(e: 'close', f: () => void): void }).once('close', resolve));

    it("reads the run's events from the port, and takes nothing of another run or shape", async () => {
      const updates: RowStoreUpdate[] = [];
      const handle = hostRowStore((update) => updates.push(update), openStreams());
      const { port1, port2 } = new MessageChannel();
      handle({ type: 'reset', run: 1 });
      handle({ type: 'stream', run: 1, runId: 'r', source: { kind: 'port', port: port1 } });
      const row = { kind: 'orphan-lock', id: 'a', key: { PK: 'UNIQ#EMAIL#a' }, rule: 'EMAIL', value: 'a' } as const;
      port2.postMessage({ type: 'delta', runId: 'other', delta: encodeDelta({ upserted: [{ ...row, id: 'x' }], removed: [], counts }) });
      port2.postMessage('not an event');
      port2.postMessage({ type: 'delta', runId: 'r', delta: encodeDelta({ upserted: [row], removed: [], counts }) });
      port2.postMessage({ type: 'done', runId: 'r', complete: true, counts });
      await vi.waitFor(() => expect(updates.at(-1)).toMatchObject({ type: 'view', view: { total: 1, end: { complete: true } } }));
      const last = updates.at(-1);
      expect(last?.type === 'view' && last.view.rows.map((r) => r.id)).toEqual([]); // no window asked yet
      handle({ type: 'window', start: 0, end: 10 });
      expect(updates.at(-1)).toMatchObject({ type: 'view', view: { rows: [{ id: 'a' }] } });
      const left = closed(port2);
      handle({ type: 'reset', run: 2 }); // leaving the run closes its port: main's subscription ends
      await left;
    });

    it('closes the port of a run already left, without reading it', async () => {
      const updates: RowStoreUpdate[] = [];
      const handle = hostRowStore((update) => updates.push(update), openStreams());
      handle({ type: 'reset', run: 2 });
      const { port1, port2 } = new MessageChannel();
      const gone = closed(port2);
      handle({ type: 'stream', run: 1, runId: 'r', source: { kind: 'port', port: port1 } });
      await gone;
      expect(updates.map((u) => u.type)).toEqual(['view']);
    });
  });
});
