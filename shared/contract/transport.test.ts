/** The transport contract as the browser-mode client keeps it: a lost or unreadable answer is a Result, an unknown outcome for a write. */
import { describe, expect, it } from 'vitest';
import { METHOD_NAMES } from './api';
import { createHttpBridge, type FetchLike } from './http-client';
import { isWriteMethod, lostAnswer, namingSent } from './transport';

const bridgeOver = (fetch: FetchLike) =>
  createHttpBridge({
    baseUrl: 'http://127.0.0.1:1',
    token: 't',
    fetch,
    eventSource: () => ({ addEventListener: () => undefined, close: () => undefined }),
  });
const notJson = async (): Promise<unknown> => JSON.parse('<html><body>502 Bad Gateway</body></html>') as unknown;

const faults: ReadonlyArray<readonly [string, FetchLike]> = [
  ['the connection reset after the send', () => Promise.reject(new TypeError('Failed to fetch'))],
  ['a proxy 502 HTML page', () => Promise.resolve({ status: 502, json: notJson })],
  ['a 200 that is not JSON', () => Promise.resolve({ status: 200, json: notJson })],
  ['a JSON body that is not a Result', () => Promise.resolve({ status: 200, json: async () => ({ hello: 'proxy' }) })],
  [
    'a 500 carrying a Result',
    () =>
      Promise.resolve({ status: 500, json: async () => ({ ok: false, error: { kind: 'internal', message: 'Unexpected server error.' } }) }),
  ],
];

describe.each(faults)('browser-mode bridge: %s', (_fault, fetch) => {
  it.each(METHOD_NAMES.filter(isWriteMethod))('the write %s is an unknown outcome, never a rejection', async (method) => {
    const result = await bridgeOver(fetch).call(method, {} as never);
    expect(result).toMatchObject({
      ok: false,
      error: {
        kind: 'unreachable',
        outcome: 'unknown',
        message: expect.stringMatching(/^the outcome is unknown — .*may have been applied/),
      },
    });
  });
  it.each(METHOD_NAMES.filter((m) => !isWriteMethod(m)))('the read %s is unreachable', async (method) => {
    const result = await bridgeOver(fetch).call(method, {} as never);
    expect(result).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
    if (!result.ok) expect(result.error.outcome).toBeUndefined();
  });
});

describe('transport contract', () => {
  it('a 401 from our own token check did nothing: a credentials error, whatever the method', async () => {
    const result = await bridgeOver(() =>
      Promise.resolve({ status: 401, json: async () => ({ ok: false, error: { kind: 'credentials', message: 'no' } }) }),
    ).call('tx.execute', { previewId: 'p', confirmation: 'x' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'credentials' } });
  });

  it('the sent request is named once in an unknown outcome, never in another error', () => {
    const lost = namingSent(lostAnswer('tx.execute', 'reset'), 'ClientRequestToken abc');
    expect(lost.message).toMatch(/; ClientRequestToken abc$/);
    expect(namingSent(lost, 'ClientRequestToken abc')).toBe(lost);
    const refused = { kind: 'validation', message: 'the confirmation does not match' } as const;
    expect(namingSent(refused, 'ClientRequestToken abc')).toBe(refused);
  });
});
