import { describe, expect, it } from 'vitest';
import { YieldGate } from './yield-gate';

/** Resolves on the next macrotask: every microtask queued before it has run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('YieldGate', () => {
  it('lets background work through at once while nothing runs in the foreground', async () => {
    const gate = new YieldGate();
    let through = false;
    void gate.clear().then(() => (through = true));
    await settle();
    expect(through).toBe(true);
    expect(gate.busy).toBe(false);
  });

  it('holds background work until the last foreground work has ended, and passes on its result', async () => {
    const gate = new YieldGate();
    let endFirst!: () => void;
    let endSecond!: () => void;
    const first = gate.during(() => new Promise<string>((resolve) => (endFirst = () => resolve('started'))));
    const second = gate.during(() => new Promise<void>((resolve) => (endSecond = resolve)));
    const order: string[] = [];
    void gate.clear().then(() => order.push('survey'));
    await settle();
    expect(gate.busy).toBe(true);
    endFirst();
    expect(await first).toBe('started');
    await settle();
    expect(order).toEqual([]);
    endSecond();
    await second;
    await settle();
    expect(order).toEqual(['survey']);
    expect(gate.busy).toBe(false);
  });

  it('ends foreground work that fails, so background work is not held for ever', async () => {
    const gate = new YieldGate();
    await expect(gate.during(() => Promise.reject(new Error('unreachable')))).rejects.toThrow('unreachable');
    expect(gate.busy).toBe(false);
    let through = false;
    void gate.clear().then(() => (through = true));
    await settle();
    expect(through).toBe(true);
  });

  it('holds background work from enter until the first call of its leave', async () => {
    const gate = new YieldGate();
    const leave = gate.enter();
    let through = false;
    void gate.clear().then(() => (through = true));
    await settle();
    expect(through).toBe(false);
    leave();
    leave();
    await settle();
    expect(through).toBe(true);
    expect(gate.busy).toBe(false);
  });
});
