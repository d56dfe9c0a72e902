import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, METHOD_NAMES } from '../../shared/contract/api';
import { createDispatcher } from '../bridge/pipeline';
import { createStreamHub } from '../bridge/stream-hub';
import { createFakeHandlers } from '../bridge/testing/fake-handlers';
import type { createFakeElectron } from './testing/fake-electron';
import { FakeWebContents, type FakeMessagePortMain } from './testing/fake-electron';

const fake = vi.hoisted(() => ({ current: undefined as unknown as ReturnType<typeof createFakeElectron> }));
vi.mock('electron', async () => {
  const { createFakeElectron: make } = await import('./testing/fake-electron');
  fake.current = make();
  return fake.current.module;
});

const { registerIpc } = await import('./ipc');

type Frame = { url: string; parent: unknown };
const event = (sender: FakeWebContents, frame: Frame | null) => ({ sender, senderFrame: frame });
const appFrame: Frame = { url: 'app://locksmith/index.html#table=accounts', parent: null };

function wire() {
  fake.current.handlers.clear();
  const { handlers, calls } = createFakeHandlers();
  const log = { refused: vi.fn(), failed: vi.fn() };
  const hub = createStreamHub();
  const ours = new FakeWebContents();
  const dispose = registerIpc({ dispatch: createDispatcher(handlers, log), hub, log, isKnownContents: (c) => c.id === ours.id });
  const invoke = (channel: string, e: ReturnType<typeof event>, ...args: unknown[]) => {
    const handler = fake.current.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(e, ...args) as Promise<unknown>;
  };
  return { ours, calls, log, hub, invoke, dispose };
}

describe('IPC wiring', () => {
  beforeEach(() => vi.clearAllMocks());

  it('registers every contract method, plus subscribe, port and unsubscribe, and nothing else', () => {
    wire();
    expect([...fake.current.handlers.keys()].sort()).toEqual(
      [...METHOD_NAMES, IPC_CHANNELS.subscribe, IPC_CHANNELS.port, IPC_CHANNELS.unsubscribe].sort(),
    );
  });

  it('dispatches a call from our window', async () => {
    const { ours, invoke, calls } = wire();
    expect(await invoke('tables.list', event(ours, appFrame), { connectionId: 'sandbox' })).toEqual({
      ok: true,
      value: { tables: ['accounts'] },
    });
    expect(calls).toEqual(['tables.list']);
  });

  it.each([
    ['an unknown webContents', () => new FakeWebContents(), appFrame],
    ['a foreign frame URL', undefined, { url: 'https://evil.example/', parent: null }],
    ['a file:// frame', undefined, { url: 'file:///tmp/x.html', parent: null }],
    ['a subframe', undefined, { url: 'app://locksmith/index.html', parent: {} }],
    ['a vanished frame', undefined, null],
  ] as const)('refuses %s without reaching a service', async (_name, sender, frame) => {
    const { ours, invoke, calls, log } = wire();
    const result = await invoke('connections.setWritable', event(sender ? sender() : ours, frame), {
      id: 'profile:prod',
      writable: true,
      confirm: 'prod',
    });
    expect(result).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(calls).toEqual([]);
    expect(log.refused).toHaveBeenCalled();
  });

  it('delivers stream events only to the subscribing window and subscription, until unsubscribed', async () => {
    const { ours, invoke, hub } = wire();
    expect(await invoke(IPC_CHANNELS.subscribe, event(ours, appFrame), 'audit.events', { runId: 'r1' }, 'sub-1')).toEqual({
      ok: true,
      value: { subscribed: true },
    });
    hub.publish('audit.events', {
      type: 'progress',
      runId: 'r2',
      progress: { items: 1, pages: 1, segments: 1, segmentsDone: 0, capacityUnits: 0, elapsedMs: 1, retries: 0 },
    });
    hub.publish('sandbox.status', { state: 'running' });
    const done = {
      type: 'done' as const,
      runId: 'r1',
      complete: true,
      counts: {
        scanned: 1,
        accounts: 1,
        locks: 0,
        summary: { 'orphan-lock': 0, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
      },
    };
    hub.publish('audit.events', done);
    expect(ours.sent).toEqual([{ channel: IPC_CHANNELS.event, payload: { subscriptionId: 'sub-1', event: done } }]);
    await invoke(IPC_CHANNELS.unsubscribe, event(ours, appFrame), 'sub-1');
    hub.publish('audit.events', done);
    expect(ours.sent).toHaveLength(1);
    expect(hub.size()).toBe(0);
  });

  it('refuses subscriptions from foreign senders, bad filters and reused ids; cleans up when the window dies', async () => {
    const { ours, invoke, hub } = wire();
    expect(await invoke(IPC_CHANNELS.subscribe, event(new FakeWebContents(), appFrame), 'sandbox.status', {}, 's1')).toMatchObject({
      ok: false,
    });
    expect(await invoke(IPC_CHANNELS.subscribe, event(ours, appFrame), 'audit.events', { runId: 'r1', extra: 1 }, 's1')).toMatchObject({
      ok: false,
      error: { kind: 'validation' },
    });
    expect(await invoke(IPC_CHANNELS.subscribe, event(ours, appFrame), 'nope.stream', {}, 's1')).toMatchObject({ ok: false });
    expect(await invoke(IPC_CHANNELS.subscribe, event(ours, appFrame), 'sandbox.status', {}, 'bad id!')).toMatchObject({ ok: false });
    expect(await invoke(IPC_CHANNELS.subscribe, event(ours, appFrame), 'sandbox.status', {}, 's1')).toMatchObject({ ok: true });
    expect(await invoke(IPC_CHANNELS.subscribe, event(ours, appFrame), 'sandbox.status', {}, 's1')).toMatchObject({ ok: false });
    expect(hub.size()).toBe(1);
    ours.emit('destroyed');
    expect(hub.size()).toBe(0);
  });

  describe('stream ports', () => {
    const portOf = (contents: FakeWebContents): FakeMessagePortMain => {
      const posted = contents.posted.at(-1);
      if (!posted) throw new Error('no port was posted');
      return posted.ports[0]!;
    };

    it('posts the window one end of a channel the subscription writes into, replay first', async () => {
      const { ours, invoke, hub } = wire();
      hub.setReplay('audit.events', () => [{ type: 'progress', runId: 'r1' } as never]);
      expect(await invoke(IPC_CHANNELS.port, event(ours, appFrame), 'audit.events', { runId: 'r1' }, 'p1')).toEqual({
        ok: true,
        value: { subscribed: true },
      });
      expect(ours.posted.map((p) => [p.channel, p.payload, p.ports.length])).toEqual([[IPC_CHANNELS.port, { portId: 'p1' }, 1]]);
      expect(ours.sent).toEqual([]); // nothing of this stream goes through the window's IPC listener
      const port = portOf(ours);
      const received: unknown[] = [];
      port.on('message', (message: { data: unknown }) => received.push(message.data));
      hub.publish('audit.events', { type: 'done', runId: 'r1' } as never);
      hub.publish('audit.events', { type: 'done', runId: 'other' } as never);
      port.start();
      expect(received).toEqual([
        { type: 'progress', runId: 'r1' },
        { type: 'done', runId: 'r1' },
      ]);
    });

    it('ends the subscription when the page closes its end, when it unsubscribes by id, or when the window dies', async () => {
      const { ours, invoke, hub } = wire();
      await invoke(IPC_CHANNELS.port, event(ours, appFrame), 'audit.events', { runId: 'r1' }, 'p1');
      expect(hub.size()).toBe(1);
      portOf(ours).close();
      expect(hub.size()).toBe(0);
      // The id is free again once its port closed.
      await invoke(IPC_CHANNELS.port, event(ours, appFrame), 'audit.events', { runId: 'r1' }, 'p1');
      const second = portOf(ours);
      expect(await invoke(IPC_CHANNELS.unsubscribe, event(ours, appFrame), 'p1')).toEqual({ ok: true, value: { unsubscribed: true } });
      expect(hub.size()).toBe(0);
      // Ended from main's side, the page's end is closed too (the worker stops waiting on it).
      expect(second.closed).toBe(true);
      await invoke(IPC_CHANNELS.port, event(ours, appFrame), 'audit.events', { runId: 'r2' }, 'p2');
      const third = portOf(ours);
      ours.emit('destroyed');
      expect(hub.size()).toBe(0);
      expect(third.closed).toBe(true);
    });

    it('lets an id be reused at once after its port was ended from main, without the old close ending the new one', async () => {
      const { ours, invoke, hub } = wire();
      await invoke(IPC_CHANNELS.port, event(ours, appFrame), 'audit.events', { runId: 'r1' }, 'p1');
      const old = portOf(ours);
      await invoke(IPC_CHANNELS.unsubscribe, event(ours, appFrame), 'p1');
      await invoke(IPC_CHANNELS.port, event(ours, appFrame), 'audit.events', { runId: 'r2' }, 'p1');
      // Electron may deliver the old end's `close` late, after the id is in use again.
      old.other?.emit('close');
      expect(hub.size()).toBe(1);
      expect(portOf(ours).closed).toBe(false);
      expect(await invoke(IPC_CHANNELS.unsubscribe, event(ours, appFrame), 'p1')).toEqual({ ok: true, value: { unsubscribed: true } });
      expect(hub.size()).toBe(0);
    });

    it('refuses foreign senders, bad filters and bad ids, posting no port', async () => {
      const { ours, invoke, hub, log } = wire();
      const stranger = new FakeWebContents();
      expect(await invoke(IPC_CHANNELS.port, event(stranger, appFrame), 'audit.events', { runId: 'r1' }, 'p1')).toMatchObject({
        ok: false,
      });
      expect(log.refused).toHaveBeenCalledWith(expect.objectContaining({ method: IPC_CHANNELS.port }));
      expect(
        await invoke(IPC_CHANNELS.port, event(ours, { ...appFrame, parent: {} }), 'audit.events', { runId: 'r1' }, 'p1'),
      ).toMatchObject({
        ok: false,
      });
      expect(await invoke(IPC_CHANNELS.port, event(ours, appFrame), 'audit.events', { runId: 'r1', extra: 1 }, 'p1')).toMatchObject({
        ok: false,
        error: { kind: 'validation' },
      });
      expect(await invoke(IPC_CHANNELS.port, event(ours, appFrame), 'audit.events', { runId: 'r1' }, '../p')).toMatchObject({ ok: false });
      expect([...ours.posted, ...stranger.posted]).toEqual([]);
      expect(hub.size()).toBe(0);
    });
  });
});
