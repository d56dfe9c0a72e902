import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { YieldGate } from '../../../shared/yield-gate';
import { backgroundTurn } from './survey';

let server: Server | undefined;
let client: Socket | undefined;
afterEach(() => {
  client?.destroy();
  server?.close();
});

/** A loopback connection whose server side enters `gate` when data arrives (an audit start's request), and leaves it when told. */
async function foregroundOnData(gate: YieldGate, order: string[]): Promise<{ send: () => void; leave: () => void }> {
  let leave: () => void = () => undefined;
  const listening = createServer((socket) =>
    socket.on('data', () => {
      leave = gate.enter();
      order.push('foreground');
    }),
  );
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const { port } = listening.address() as { port: number };
  // Both ends set up before anything is sent.
  const accepted = new Promise<void>((resolve) => listening.once('connection', () => resolve()));
  const socket = connect(port, '127.0.0.1');
  client = socket;
  await Promise.all([accepted, new Promise<void>((resolve) => socket.once('connect', resolve))]);
  return { send: () => socket.write('start'), leave: () => leave() };
}

describe('backgroundTurn', () => {
  it('lets a request that arrived while background work held the thread enter the gate before the next background step', async () => {
    const gate = new YieldGate();
    const order: string[] = [];
    const request = await foregroundOnData(gate, order);
    request.send();
    // A detection's worth of CPU on this thread: the request's bytes arrive meanwhile and wait to be read.
    const until = Date.now() + 30;
    while (Date.now() < until);
    const next = backgroundTurn(gate).then(() => order.push('background'));
    await expect.poll(() => order).toEqual(['foreground']);
    request.leave();
    await next;
    expect(order).toEqual(['foreground', 'background']);
  });

  it('goes on at once, a loop turn later, when nothing is in the foreground', async () => {
    const gate = new YieldGate();
    await expect(backgroundTurn(gate)).resolves.toBeUndefined();
  });
});
