import { describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, METHOD_NAMES, STREAM_PORT_MESSAGE, type StreamEnvelope } from '../../shared/contract/api';
import { isWriteMethod } from '../../shared/contract/transport';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { createIpcBridge, type IpcRendererLike, type PortLike } from './ipc-bridge';

function fakeIpc() {
  let deliver: (event: unknown, envelope: StreamEnvelope) => void = () => undefined;
  let deliverPort: (message: unknown, ports: readonly PortLike[]) => void = () => undefined;
  const invoke = vi.fn<IpcRendererLike['invoke']>(async () => ({ ok: true, value: { subscribed: true } }));
  const ipc: IpcRendererLike = { invoke, on: (_channel, listener) => (deliver = listener), onPort: (listener) => (deliverPort = listener) };
  return {
    ipc,
    invoke,
    emit: (envelope: StreamEnvelope) => deliver({}, envelope),
    port: (message: unknown, ports: readonly PortLike[]) => deliverPort(message, ports),
  };
}

describe('preload IPC bridge', () => {
  it('invokes the method channel with the arguments', async () => {
    const { ipc, invoke } = fakeIpc();
    invoke.mockResolvedValueOnce({ ok: true, value: { tables: [] } });
    const bridge = createIpcBridge(ipc);
    expect(await bridge.call('tables.list', { connectionId: 'sandbox' })).toEqual({ ok: true, value: { tables: [] } });
    expect(invoke).toHaveBeenCalledWith('tables.list', { connectionId: 'sandbox' });
  });

  it('refuses unknown methods locally and turns IPC failures into Results', async () => {
    const { ipc, invoke } = fakeIpc();
    const bridge = createIpcBridge(ipc);
    expect(await bridge.call('nope' as never, {} as never)).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(invoke).not.toHaveBeenCalled();
    invoke.mockRejectedValueOnce(new Error('gone'));
    expect(await bridge.call('settings.get', {})).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
  });

  // The transport contract: a write whose answer was lost may have been applied; a read's lost answer changed nothing.
  type Invoke = ReturnType<typeof fakeIpc>['invoke'];
  const faults: ReadonlyArray<readonly [string, (invoke: Invoke) => void]> = [
    [
      'handled in main, then the answer was lost',
      (invoke) =>
        invoke.mockImplementationOnce(() => {
          throw new Error('Error invoking remote method: reply was never sent');
        }),
    ],
    [
      'the main process gone before the send',
      (invoke) => invoke.mockRejectedValueOnce(new Error('Render frame was disposed before WebFrameMain could be accessed')),
    ],
    ['an answer that is not a Result', (invoke) => invoke.mockResolvedValueOnce('<html>502 Bad Gateway</html>')],
  ];
  describe.each(faults)('%s', (_fault, inject) => {
    it.each(METHOD_NAMES.filter(isWriteMethod))('the write %s comes back as an unknown outcome, never a rejection', async (method) => {
      const { ipc, invoke } = fakeIpc();
      inject(invoke);
      const result = await createIpcBridge(ipc).call(method, {} as never);
      expect(result).toMatchObject({
        ok: false,
        error: {
          kind: 'unreachable',
          outcome: 'unknown',
          message: expect.stringMatching(/^the outcome is unknown — .*may have been applied/),
        },
      });
      if (!result.ok) expect(result.error.fix).toMatch(/look the value up.*Activity tab/);
    });
    it.each(METHOD_NAMES.filter((m) => !isWriteMethod(m)))('the read %s comes back unreachable', async (method) => {
      const { ipc, invoke } = fakeIpc();
      inject(invoke);
      const result = await createIpcBridge(ipc).call(method, {} as never);
      expect(result).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
      if (!result.ok) expect(result.error.outcome).toBeUndefined();
    });
  });

  it('routes events by subscription id and stops after unsubscribe', async () => {
    const { ipc, invoke, emit } = fakeIpc();
    let n = 0;
    const bridge = createIpcBridge(ipc, () => `s${(n += 1)}`);
    const a = vi.fn();
    const b = vi.fn();
    const stopA = bridge.subscribe('sandbox.status', {}, a);
    bridge.subscribe('sandbox.status', {}, b);
    expect(invoke).toHaveBeenCalledWith(IPC_CHANNELS.subscribe, 'sandbox.status', {}, 's1');
    emit({ subscriptionId: 's1', event: { state: 'running' } });
    emit({ subscriptionId: 's2', event: { state: 'stopped' } });
    expect(a).toHaveBeenCalledWith({ state: 'running' });
    expect(b).toHaveBeenCalledWith({ state: 'stopped' });
    stopA();
    stopA();
    emit({ subscriptionId: 's1', event: { state: 'error' } });
    expect(a).toHaveBeenCalledTimes(1);
    expect(invoke.mock.calls.filter(([channel]) => channel === IPC_CHANNELS.unsubscribe)).toHaveLength(1);
  });

  describe('stream ports', () => {
    // Real ports (Node's MessageChannel): a closed one is seen closed by its other end.
    const closedOnArrival = (port: MessagePort): Promise<void> => new Promise((resolve) => port.once('close', () => resolve()));

    it('asks main for the port and hands exactly that port to the page, once', async () => {
      const { ipc, invoke, port } = fakeIpc();
      const handOver = vi.fn();
      const bridge = createIpcBridge(ipc, undefined, handOver);
      expect(await bridge.streamPort!('audit.events', { runId: 'r1' }, 'p1')).toEqual({ ok: true, value: { subscribed: true } });
      expect(invoke).toHaveBeenCalledWith(IPC_CHANNELS.port, 'audit.events', { runId: 'r1' }, 'p1');
      const { port1, port2 } = new MessageChannel();
      port({ portId: 'p1' }, [port1]);
      expect(handOver).toHaveBeenCalledTimes(1);
      expect(handOver.mock.calls[0]![0]).toEqual({ type: STREAM_PORT_MESSAGE, portId: 'p1' });
      expect(handOver.mock.calls[0]![1]).toBe(port1);
      // A second port under the same id is not awaited any more: closed, never handed over.
      const again = new MessageChannel();
      const closed = closedOnArrival(again.port2);
      port({ portId: 'p1' }, [again.port1]);
      await closed;
      expect(handOver).toHaveBeenCalledTimes(1);
      port1.close();
      port2.close();
    });

    it('closes ports nobody asked for, or that come in twos, or under a refused id', async () => {
      const { ipc, invoke, port } = fakeIpc();
      const handOver = vi.fn();
      const bridge = createIpcBridge(ipc, undefined, handOver);
      const stray = new MessageChannel();
      const strayClosed = closedOnArrival(stray.port2);
      port({ portId: 'nobody' }, [stray.port1]);
      await strayClosed;
      await bridge.streamPort!('audit.events', { runId: 'r1' }, 'p2');
      const a = new MessageChannel();
      const b = new MessageChannel();
      const bothClosed = Promise.all([closedOnArrival(a.port2), closedOnArrival(b.port2)]);
      port({ portId: 'p2' }, [a.port1, b.port1]);
      await bothClosed;
      invoke.mockResolvedValueOnce({ ok: false, error: { kind: 'validation', message: 'Bad filter.' } });
      expect(await bridge.streamPort!('audit.events', { runId: 'r1', extra: 1 } as never, 'p3')).toMatchObject({ ok: false });
      const late = new MessageChannel();
      const lateClosed = closedOnArrival(late.port2);
      port({ portId: 'p3' }, [late.port1]);
      await lateClosed;
      expect(handOver).not.toHaveBeenCalled();
    });

    it('refuses unknown streams and bad ids locally, and turns a failed invoke into a Result', async () => {
      const { ipc, invoke } = fakeIpc();
      const bridge = createIpcBridge(ipc);
      expect(await bridge.streamPort!('nope' as never, {} as never, 'p1')).toMatchObject({ ok: false, error: { kind: 'validation' } });
      expect(await bridge.streamPort!('audit.events', { runId: 'r1' }, 'bad id!')).toMatchObject({
        ok: false,
        error: { kind: 'validation' },
      });
      expect(invoke).not.toHaveBeenCalled();
      invoke.mockRejectedValueOnce(new Error('gone'));
      expect(await bridge.streamPort!('audit.events', { runId: 'r1' }, 'p1')).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
    });
  });
});
