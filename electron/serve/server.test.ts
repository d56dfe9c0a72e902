/** Browser-mode host: auth (token, Host, Origin), the same pipeline as IPC, SSE streams, static files. */
import { request } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpBridge, type EventSourceLike } from '../../shared/contract/http-client';
import { createDispatcher } from '../bridge/pipeline';
import { createStreamHub } from '../bridge/stream-hub';
import { createFakeHandlers } from '../bridge/testing/fake-handlers';
import { CONTENT_SECURITY_POLICY } from '../main/security';
import { startServeHost, type ServeHost } from './server';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Raw HTTP so that Host and Origin can be forged (fetch cannot set Host). */
function raw(
  host: ServeHost,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent: false,
        host: '127.0.0.1',
        port: host.port,
        path,
        method: init.method ?? 'GET',
        headers: { host: `127.0.0.1:${host.port}`, ...init.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const call = (host: ServeHost, method: string, args: unknown, headers: Record<string, string> = {}) =>
  raw(host, `/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-locksmith-token': host.token, ...headers },
    body: JSON.stringify(args),
  });

/** A minimal EventSource over node:http for the client test (Node 20 has none). */
function nodeEventSource(url: string): EventSourceLike {
  const listeners: ((event: { data: string }) => void)[] = [];
  const req = request(url, (res) => {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (data) for (const listener of listeners) listener({ data });
        end = buffer.indexOf('\n\n');
      }
    });
  });
  req.on('error', () => undefined);
  req.end();
  return { addEventListener: (_type, listener) => listeners.push(listener), close: () => req.destroy() };
}

let host: ServeHost;
let dir: string;
const fake = createFakeHandlers();
const hub = createStreamHub();
const refused: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-serve-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Locksmith</title>');
  const log = { refused: (e: { reason: string }) => refused.push(e.reason), failed: () => undefined };
  host = await startServeHost({ dispatch: createDispatcher(fake.handlers, log), hub, log, rendererDir: dir });
});
afterAll(async () => {
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

describe('browser mode auth', () => {
  it('answers a valid call with the Result, no CORS headers', async () => {
    const reply = await call(host, 'tables.list', { connectionId: 'sandbox' }, { origin: host.origin });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ ok: true, value: { tables: ['accounts'] } });
    expect(Object.keys(reply.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('refuses a call without a token (401)', async () => {
    const reply = await raw(host, '/api/tables.list', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(reply.status).toBe(401);
  });

  it('refuses a wrong token (401), including one of the right length', async () => {
    expect((await call(host, 'tables.list', {}, { 'x-locksmith-token': 'nope' })).status).toBe(401);
    expect((await call(host, 'tables.list', {}, { 'x-locksmith-token': 'x'.repeat(host.token.length) })).status).toBe(401);
  });

  it('refuses a foreign Host (403) even with the token: DNS rebinding', async () => {
    expect((await call(host, 'tables.list', {}, { host: `evil.example:${host.port}` })).status).toBe(403);
    expect((await call(host, 'tables.list', {}, { host: '127.0.0.1:1' })).status).toBe(403);
  });

  it('refuses a foreign Origin (403) even with the token', async () => {
    expect((await call(host, 'tables.list', {}, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await call(host, 'tables.list', {}, { origin: 'null' })).status).toBe(403);
    expect((await call(host, 'tables.list', {}, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });

  it('refuses form posts and oversize bodies', async () => {
    expect((await call(host, 'tables.list', {}, { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect(
      (
        await raw(host, '/api/tx.decode', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-locksmith-token': host.token },
          body: 'x'.repeat(2 * 1024 * 1024),
        })
      ).status,
    ).toBe(413);
  });

  it('runs unknown methods and bad arguments through the same pipeline (validation errors)', async () => {
    expect(JSON.parse((await call(host, 'tables.drop', {})).body)).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(JSON.parse((await call(host, 'tables.list', { connectionId: 'x'.repeat(500) })).body)).toMatchObject({
      ok: false,
      error: { kind: 'validation', field: 'connectionId' },
    });
    expect(refused).toContain('unknown method');
  });

  it('needs the token, Host and Origin checks for the event stream and its subscribe calls', async () => {
    expect((await raw(host, '/api/events')).status).toBe(401);
    expect((await raw(host, `/api/events?token=${host.token}`, { headers: { host: `evil.example:${host.port}` } })).status).toBe(403);
    expect((await raw(host, `/api/events?token=${host.token}`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect(
      (await raw(host, '/api/events/subscribe', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status,
    ).toBe(401);
    expect(
      (await call(host, 'events/subscribe', { channel: 'c', id: 's1', stream: 'sandbox.status' }, { origin: 'https://evil.example' }))
        .status,
    ).toBe(403);
  });

  it('refuses subscriptions to unknown channels and streams, naming the field', async () => {
    expect(JSON.parse((await call(host, 'events/subscribe', { channel: 'nope', id: 's1', stream: 'sandbox.status' })).body)).toMatchObject({
      ok: false,
      error: { kind: 'not-found', field: 'channel' },
    });
    expect(
      JSON.parse((await call(host, 'events/subscribe', { channel: 'nope', id: 's1', stream: 'sandbox.status', extra: 1 })).body),
    ).toMatchObject({ ok: false, error: { kind: 'validation' } });
    const stream = nodeEventSource(`${host.origin}/api/events?token=${host.token}`);
    const frames: unknown[] = [];
    stream.addEventListener('message', (m) => frames.push(JSON.parse(m.data)));
    try {
      await expect.poll(() => frames.length).toBe(1);
      const { channel } = frames[0] as { channel: string };
      expect(JSON.parse((await call(host, 'events/subscribe', { channel, id: 's1', stream: 'nope' })).body)).toMatchObject({
        ok: false,
        error: { kind: 'validation' },
      });
      expect(
        JSON.parse((await call(host, 'events/subscribe', { channel, id: 's1', stream: 'audit.events', filter: { runId: 7 } })).body),
      ).toMatchObject({ ok: false, error: { kind: 'validation', field: 'runId' } });
      expect(JSON.parse((await call(host, 'events/unsubscribe', { channel, id: 's1' })).body)).toEqual({
        ok: true,
        value: { unsubscribed: false },
      });
    } finally {
      stream.close();
    }
  });

  it('serves the renderer with CSP and nosniff, and never files outside it', async () => {
    const page = await raw(host, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect((await raw(host, '/../../etc/passwd')).body).not.toContain('root:');
    expect((await raw(host, '/%2e%2e/%2e%2e/etc/passwd')).body).not.toContain('root:');
    expect((await raw(host, '/..%2f..%2fetc%2fpasswd')).status).toBe(404);
  });
});

describe('browser-mode client', () => {
  it('implements the bridge over fetch and SSE, with replay and unsubscribe', async () => {
    const bridge = createHttpBridge({
      baseUrl: host.origin,
      token: host.token,
      fetch: (url, init) => fetch(url, init),
      eventSource: nodeEventSource,
    });
    expect(await bridge.call('settings.get', {})).toEqual({ ok: true, value: { theme: 'system' } });
    hub.setReplay('sandbox.status', () => [{ state: 'running' as const, endpoint: 'http://127.0.0.1:9' }]);
    const seen: string[] = [];
    const stop = bridge.subscribe('sandbox.status', {}, (event) => seen.push(event.state));
    await expect.poll(() => seen).toEqual(['running']);
    await expect.poll(() => hub.size()).toBe(1);
    hub.publish('sandbox.status', { state: 'stopped' });
    await expect.poll(() => seen).toEqual(['running', 'stopped']);
    stop();
    await expect.poll(() => hub.size()).toBe(0);
  });

  it('carries every subscription of a page over one event stream, each with its own replay', async () => {
    const opened: string[] = [];
    const counting = (url: string): EventSourceLike => {
      opened.push(url);
      return nodeEventSource(url);
    };
    const bridge = createHttpBridge({
      baseUrl: host.origin,
      token: host.token,
      fetch: (url, init) => fetch(url, init),
      eventSource: counting,
    });
    hub.setReplay('sandbox.status', () => [{ state: 'running' as const, endpoint: 'http://127.0.0.1:9' }]);
    const first: string[] = [];
    const second: string[] = [];
    const runs: string[] = [];
    const before = hub.size();
    const stopFirst = bridge.subscribe('sandbox.status', {}, (event) => first.push(event.state));
    const stopSecond = bridge.subscribe('sandbox.status', {}, (event) => second.push(event.state));
    const stopRuns = bridge.subscribe('audit.events', { runId: 'run-a' }, (event) => runs.push(event.runId));
    await expect.poll(() => hub.size()).toBe(before + 3);
    expect(opened).toHaveLength(1);
    expect(opened[0]).not.toContain('stream=');
    expect({ first, second }).toEqual({ first: ['running'], second: ['running'] });

    // A later subscription still gets its replay, on the same stream.
    const third: string[] = [];
    const stopThird = bridge.subscribe('sandbox.status', {}, (event) => third.push(event.state));
    await expect.poll(() => third).toEqual(['running']);
    expect(opened).toHaveLength(1);

    // Filters are per subscription.
    const progress = { items: 1, pages: 1, segments: 1, segmentsDone: 0, capacityUnits: 0, elapsedMs: 1, retries: 0 };
    hub.publish('audit.events', { type: 'progress', runId: 'run-b', progress });
    hub.publish('audit.events', { type: 'progress', runId: 'run-a', progress });
    await expect.poll(() => runs).toEqual(['run-a']);

    stopFirst();
    await expect.poll(() => hub.size()).toBe(before + 3);
    hub.publish('sandbox.status', { state: 'stopped' });
    await expect.poll(() => ({ second, third })).toEqual({ second: ['running', 'stopped'], third: ['running', 'stopped'] });
    expect(first).toEqual(['running']);

    stopSecond();
    stopRuns();
    stopThird();
    // The last unsubscribe closes the stream, which ends the server side of all of them.
    await expect.poll(() => hub.size()).toBe(before);
    expect(opened).toHaveLength(1);
  });

  it('re-subscribes everything when the stream reconnects (a new channel)', async () => {
    const sources: { close(): void; drop(): void }[] = [];
    const reconnecting = (url: string): EventSourceLike => {
      // Like EventSource: after a dropped connection it reconnects by itself and reports to the same listeners.
      const listeners: ((event: { data: string }) => void)[] = [];
      let current = nodeEventSource(url);
      let closed = false;
      const attach = () => current.addEventListener('message', (event) => listeners.forEach((listener) => listener(event)));
      attach();
      const source = {
        close: () => {
          closed = true;
          current.close();
        },
        drop: () => {
          current.close();
          if (closed) return;
          current = nodeEventSource(url);
          attach();
        },
      };
      sources.push(source);
      return { addEventListener: (_type, listener) => listeners.push(listener), close: source.close };
    };
    const bridge = createHttpBridge({
      baseUrl: host.origin,
      token: host.token,
      fetch: (url, init) => fetch(url, init),
      eventSource: reconnecting,
    });
    hub.setReplay('sandbox.status', () => [{ state: 'running' as const, endpoint: 'http://127.0.0.1:9' }]);
    const before = hub.size();
    const seen: string[] = [];
    const stop = bridge.subscribe('sandbox.status', {}, (event) => seen.push(event.state));
    await expect.poll(() => seen).toEqual(['running']);
    sources[0]!.drop();
    // The old channel's subscription ends with its connection; the new channel gets it again, with the replay.
    await expect.poll(() => seen).toEqual(['running', 'running']);
    await expect.poll(() => hub.size()).toBe(before + 1);
    hub.publish('sandbox.status', { state: 'stopped' });
    await expect.poll(() => seen).toEqual(['running', 'running', 'stopped']);
    stop();
    await expect.poll(() => hub.size()).toBe(before);
  });

  it('reports a wrong token and a dead server as Results', async () => {
    const wrong = createHttpBridge({
      baseUrl: host.origin,
      token: 'wrong',
      fetch: (url, init) => fetch(url, init),
      eventSource: nodeEventSource,
    });
    expect(await wrong.call('settings.get', {})).toMatchObject({ ok: false, error: { kind: 'credentials' } });
    const dead = createHttpBridge({
      baseUrl: 'http://127.0.0.1:1',
      token: 't',
      fetch: (url, init) => fetch(url, init),
      eventSource: nodeEventSource,
    });
    expect(await dead.call('settings.get', {})).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
  });
});
