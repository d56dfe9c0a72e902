import { describe, expect, it, vi } from 'vitest';
import { createDispatcher, type SenderVerdict } from './pipeline';
import { createFakeHandlers, type FakeOverrides } from './testing/fake-handlers';
import type { BridgeLogger } from './logger';
import { createConsoleLogger } from './logger';

const trusted: SenderVerdict = { trusted: true, label: 'main window' };

function setup(overrides: FakeOverrides = {}) {
  const fake = createFakeHandlers(overrides);
  const log = { refused: vi.fn<BridgeLogger['refused']>(), failed: vi.fn<BridgeLogger['failed']>() };
  return { ...fake, log, dispatch: createDispatcher(fake.handlers, log) };
}

describe('bridge pipeline', () => {
  it('runs a valid call through to the service and returns its Result', async () => {
    const { dispatch, calls } = setup();
    expect(await dispatch('tables.list', { connectionId: 'sandbox' }, 'ipc', trusted)).toEqual({
      ok: true,
      value: { tables: ['accounts'] },
    });
    expect(calls).toEqual(['tables.list']);
  });

  it('refuses a foreign sender before anything else, and logs it', async () => {
    const { dispatch, calls, log } = setup();
    const result = await dispatch('connections.setWritable', { id: 'profile:prod', writable: true, confirm: 'prod' }, 'ipc', {
      trusted: false,
      reason: 'frame https://evil.example',
    });
    expect(result).toMatchObject({ ok: false, error: { kind: 'validation', message: expect.stringContaining('refused') } });
    expect(calls).toEqual([]);
    expect(log.refused).toHaveBeenCalledWith(expect.objectContaining({ reason: 'foreign sender: frame https://evil.example' }));
  });

  it.each(['tables.drop', '__proto__', 'constructor', 'toString', '', 42, null, { method: 'x' }])(
    'refuses unknown method %j',
    async (method) => {
      const { dispatch, calls, log } = setup();
      expect(await dispatch(method, {}, 'http', trusted)).toMatchObject({ ok: false, error: { kind: 'validation' } });
      expect(calls).toEqual([]);
      expect(log.refused).toHaveBeenCalledWith(expect.objectContaining({ reason: 'unknown method' }));
    },
  );

  it('refuses bad arguments with the field named, without logging the arguments', async () => {
    const { dispatch, calls, log } = setup();
    const result = await dispatch('mfa.answer', { action: 'submit', promptId: 'm1', code: '12345x' }, 'ipc', trusted);
    expect(result).toMatchObject({ ok: false, error: { kind: 'validation', field: 'code' } });
    expect(calls).toEqual([]);
    expect(JSON.stringify(log.refused.mock.calls)).not.toContain('12345x');
  });

  it('names nested fields', async () => {
    const { dispatch } = setup();
    const result = await dispatch(
      'conventions.save',
      {
        connectionId: 'sandbox',
        table: 'accounts',
        convention: {
          preset: 'uniq',
          keys: { hash: { name: 'PK', type: 'X' } },
          account: { kind: 'not-lock' },
          rules: [],
          lockPrefixes: [],
        },
      },
      'ipc',
      trusted,
    );
    expect(result).toMatchObject({ ok: false, error: { kind: 'validation', field: 'convention.keys.hash.type' } });
  });

  it('turns a throwing service into an internal error, logged', async () => {
    const { dispatch, log } = setup({ 'tables.list': () => Promise.reject(new Error('boom with AKIAABCDEFGHIJKLMNOP')) });
    expect(await dispatch('tables.list', { connectionId: 'sandbox' }, 'ipc', trusted)).toMatchObject({
      ok: false,
      error: { kind: 'internal' },
    });
    expect(log.failed).toHaveBeenCalledTimes(1);
  });

  it('scrubs key-shaped secrets from failure logs', () => {
    const lines: string[] = [];
    createConsoleLogger((line) => lines.push(line)).failed({
      method: 'tables.list',
      transport: 'ipc',
      cause: new Error('bad AKIAABCDEFGHIJKLMNOP'),
    });
    expect(lines.join('\n')).not.toContain('AKIAABCDEFGHIJKLMNOP');
  });
});
