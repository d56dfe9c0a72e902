import { describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, METHOD_NAMES, type StreamEnvelope } from '../../shared/contract/api';
import { isWriteMethod } from '../../shared/contract/transport';
import { createIpcBridge, type IpcRendererLike } from './ipc-bridge';

function fakeIpc() {
  let deliver: (event: unknown, envelope: StreamEnvelope) => void = () => undefined;
  const invoke = vi.fn<IpcRendererLike['invoke']>(async () => ({ ok: true, value: { subscribed: true } }));
  const ipc: IpcRendererLike = { invoke, on: (_channel, listener) => (deliver = listener) };
  return { ipc, invoke, emit: (envelope: StreamEnvelope) => deliver({}, envelope) };
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
});
