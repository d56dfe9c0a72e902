import { describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, type StreamEnvelope } from '../../shared/contract/api';
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
    expect(await bridge.call('settings.get', {})).toMatchObject({ ok: false, error: { kind: 'internal' } });
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
