import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RowStoreRequest, RowStoreUpdate } from './row-store';
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
  readonly transferred: unknown[][] = [];
  postMessage(request: RowStoreRequest, transfer: unknown[] = []): void {
    this.received.push(request);
    this.transferred.push(transfer);
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

  it("holds a stream's port until the worker first answers, then moves it there in the same message", () => {
    const { client, worker } = openWithFakeWorker();
    const { port1, port2 } = new MessageChannel();
    client.post({ type: 'reset', run: 1 });
    client.post({ type: 'stream', run: 1, runId: 'r', source: { kind: 'port', port: port1 } });
    client.post({ type: 'window', start: 0, end: 10 });
    expect(worker.received.map((r) => r.type)).toEqual(['reset', 'window']);
    worker.answer({ type: 'view', view: { run: 1, version: 1, total: 0, length: 0, specId: 0, counts: undefined, start: 0, rows: [] } });
    expect(worker.received.map((r) => r.type)).toEqual(['reset', 'window', 'stream']);
    expect(worker.transferred.at(-1)).toEqual([port1]);
    port1.close();
    port2.close();
  });

  it('gives a held port to the store in place when the worker never started, so no event is lost', async () => {
    const { updates, client, worker } = openWithFakeWorker();
    const { port1, port2 } = new MessageChannel();
    client.post({ type: 'reset', run: 1 });
    client.post({ type: 'stream', run: 1, runId: 'r', source: { kind: 'port', port: port1 } });
    worker.crash('refused by the CSP');
    const counts = {
      scanned: 1,
      accounts: 0,
      locks: 0,
      summary: { 'orphan-lock': 0, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
    };
    port2.postMessage({ type: 'done', runId: 'r', complete: true, counts });
    await vi.waitFor(() => expect(updates.some((u) => u.type === 'view' && u.view.end?.complete === true)).toBe(true));
    expect(worker.transferred.flat()).toEqual([]);
    client.close();
    port2.close();
  });
});
