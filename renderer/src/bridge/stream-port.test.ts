import { describe, expect, it } from 'vitest';
import { STREAM_PORT_MESSAGE, type LocksmithBridge } from '../../../shared/contract/api';
import type { Result } from '../../../shared/result';
import { openStreamPort, type PortWindow } from './stream-port';

/** A window whose messages the test dispatches itself. */
function fakeWindow(): PortWindow & { dispatch(event: Partial<MessageEvent>): void; listening(): number } {
  const listeners = new Set<(event: MessageEvent) => void>();
  return {
    addEventListener: (_type, listener) => listeners.add(listener),
    removeEventListener: (_type, listener) => listeners.delete(listener),
    dispatch(event) {
      for (const listener of [...listeners]) listener(event as MessageEvent);
    },
    listening: () => listeners.size,
  };
}

function bridgeAnswering(answer: Promise<Result<{ subscribed: true }>>): LocksmithBridge & { asked: unknown[][] } {
  const asked: unknown[][] = [];
  return {
    asked,
    call: () => Promise.reject(new Error('not used')),
    subscribe: () => () => undefined,
    streamPort: (...args: unknown[]) => {
      asked.push(args);
      return answer;
    },
  } as LocksmithBridge & { asked: unknown[][] };
}

describe('openStreamPort', () => {
  it('is undefined where the bridge has no ports (browser mode)', () => {
    const { streamPort: _none, ...http } = bridgeAnswering(Promise.resolve({ ok: true, value: { subscribed: true } }));
    expect(openStreamPort(http, fakeWindow(), 'audit.events', { runId: 'r' })).toBeUndefined();
  });

  it('takes only a port posted by this window under its own id, whichever of port and answer comes first', async () => {
    const page = fakeWindow();
    let answer: (result: Result<{ subscribed: true }>) => void = () => undefined;
    const bridge = bridgeAnswering(new Promise((resolve) => (answer = resolve)));
    const opened = openStreamPort(bridge, page, 'audit.events', { runId: 'r' }, () => 'p1')!;
    expect(bridge.asked).toEqual([['audit.events', { runId: 'r' }, 'p1']]);
    const { port1, port2 } = new MessageChannel();
    const data = { type: STREAM_PORT_MESSAGE, portId: 'p1' };
    page.dispatch({ source: {} as Window, data, ports: [port1 as unknown as MessagePort] }); // a frame's message
    page.dispatch({ source: page as unknown as Window, data: { ...data, portId: 'p2' }, ports: [port1 as unknown as MessagePort] });
    page.dispatch({ source: page as unknown as Window, data, ports: [port2 as unknown as MessagePort] });
    expect(page.listening()).toBe(0);
    answer({ ok: true, value: { subscribed: true } });
    const result = await opened;
    expect(result.ok && result.value).toBe(port2);
    port1.close();
  });

  it('gives back main’s refusal and stops listening', async () => {
    const page = fakeWindow();
    const bridge = bridgeAnswering(Promise.resolve({ ok: false, error: { kind: 'validation', message: 'Bad filter.' } }));
    const result = await openStreamPort(bridge, page, 'audit.events', { runId: 'r' }, () => 'p1');
    expect(result).toEqual({ ok: false, error: { kind: 'validation', message: 'Bad filter.' } });
    expect(page.listening()).toBe(0);
  });
});
