import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeDelta, type AuditEvent } from '../../../../shared/contract';
import { hostRowStore, PROGRESS_EVERY_MS, type OpenStream, type RowStoreRequest, type RowStoreUpdate } from './row-store';
import { openRowStore } from './row-store-client';

/** A Worker that runs nothing: the test answers and fails in its name. */
class FakeWorker {
  static last: FakeWorker | undefined;
  onmessage: ((event: MessageEvent<RowStoreUpdate>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  readonly received: RowStoreRequest[] = [];
  terminated = false;
  constructor() {
    FakeWorker.last = this;
  }
  postMessage(request: RowStoreRequest): void {
    this.received.push(request);
  }
  terminate(): void {
    this.terminated = true;
  }
  answer(update: RowStoreUpdate): void {
    this.onmessage?.({ data: update } as MessageEvent<RowStoreUpdate>);
  }
  crash(message: string): void {
    this.onerror?.({ message } as ErrorEvent);
  }
}

function openWithFakeWorker(): { updates: RowStoreUpdate[]; client: ReturnType<typeof openRowStore>; worker: FakeWorker } {
  // Electron's page (a preload bridge): the page subscribes itself, so no browser token is read.
  vi.stubGlobal('window', { locksmith: {} });
  vi.stubGlobal('Worker', FakeWorker);
  const updates: RowStoreUpdate[] = [];
  const client = openRowStore((update) => updates.push(update));
  return { updates, client, worker: FakeWorker.last! };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('openRowStore', () => {
  it('says the store failed when its worker crashes after answering, and sends it nothing more', () => {
    const { updates, client, worker } = openWithFakeWorker();
    client.post({ type: 'reset', run: 1 });
    worker.answer({ type: 'view', view: { run: 1, version: 1, total: 0, length: 0, specId: 0, counts: undefined, start: 0, rows: [] } });
    client.post({ type: 'events', run: 1, events: [] });
    worker.crash('out of memory');
    expect(updates.map((u) => u.type)).toEqual(['view', 'failed']);
    expect(updates[1]).toEqual({ type: 'failed', reason: "the row store's worker stopped: out of memory" });
    expect(worker.terminated).toBe(true);
    client.post({ type: 'window', start: 0, end: 10 });
    expect(worker.received.map((r) => r.type)).toEqual(['reset', 'events']);
  });

  it('treats an update that cannot be read like a crash', () => {
    const { updates, client, worker } = openWithFakeWorker();
    client.post({ type: 'reset', run: 1 });
    worker.answer({ type: 'view', view: { run: 1, version: 1, total: 0, length: 0, specId: 0, counts: undefined, start: 0, rows: [] } });
    worker.onmessageerror?.();
    expect(updates.at(-1)).toEqual({ type: 'failed', reason: "the row store's worker stopped: an update could not be read" });
  });
});

describe('hostRowStore', () => {
  it('says it failed, once, when applying events throws, and answers nothing after', async () => {
    const updates: RowStoreUpdate[] = [];
    let onFailed: () => void = () => undefined;
    const failed = new Promise<void>((resolve) => (onFailed = resolve));
    const handle = hostRowStore((update) => {
      updates.push(update);
      if (update.type === 'failed') onFailed();
    });
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
    const openStream: OpenStream = (_target, _runId, listener) => {
      emit = listener;
      return () => undefined;
    };
    const handle = hostRowStore((update) => updates.push(update), openStream);
    handle({ type: 'reset', run: 1 });
    handle({ type: 'stream', run: 1, runId: 'r', baseUrl: 'http://127.0.0.1:1', token: 't' });
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
});
