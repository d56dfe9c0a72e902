/** Browser-mode host: auth (token, Host, Origin), the same pipeline as IPC, SSE streams, static files. */
import { request } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpBridge, type EventSourceLike } from '../../shared/contract/http-client';
import { createHandlers } from '../bridge/handlers';
import { createDispatcher } from '../bridge/pipeline';
import { createStreamHub } from '../bridge/stream-hub';
import { createFakeDeps } from '../bridge/testing/fake-deps';
import { CONTENT_SECURITY_POLICY } from '../main/security';
import { startServeHost, type ServeHost } from './server';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Raw HTTP so that Host and Origin can be forged (fetch cannot set Host). */
function raw(host: ServeHost, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ agent: false, host: '127.0.0.1', port: host.port, path, method: init.method ?? 'GET', headers: { host: `127.0.0.1:${host.port}`, ...init.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const call = (host: ServeHost, method: string, args: unknown, headers: Record<string, string> = {}) =>
  raw(host, `/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-locksmith-token': host.token, ...headers }, body: JSON.stringify(args) });

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
        const data = frame.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
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
const fake = createFakeDeps();
const hub = createStreamHub();
const refused: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-serve-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Locksmith</title>');
  const log = { refused: (e: { reason: string }) => refused.push(e.reason), failed: () => undefined };
  host = await startServeHost({ dispatch: createDispatcher(createHandlers(fake.deps), log), hub, log, rendererDir: dir });
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
    expect((await raw(host, '/api/tx.decode', { method: 'POST', headers: { 'content-type': 'application/json', 'x-locksmith-token': host.token }, body: 'x'.repeat(2 * 1024 * 1024) })).status).toBe(413);
  });

  it('runs unknown methods and bad arguments through the same pipeline (validation errors)', async () => {
    expect(JSON.parse((await call(host, 'tables.drop', {})).body)).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(JSON.parse((await call(host, 'tables.list', { connectionId: 'x'.repeat(500) })).body)).toMatchObject({ ok: false, error: { kind: 'validation', field: 'connectionId' } });
    expect(refused).toContain('unknown method');
  });

  it('needs the token for the event stream', async () => {
    expect((await raw(host, '/api/events?stream=sandbox.status&filter=%7B%7D')).status).toBe(401);
    expect((await raw(host, `/api/events?stream=nope&filter=%7B%7D&token=${host.token}`)).status).toBe(400);
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
    const bridge = createHttpBridge({ baseUrl: host.origin, token: host.token, fetch: (url, init) => fetch(url, init), eventSource: nodeEventSource });
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

  it('reports a wrong token and a dead server as Results', async () => {
    const wrong = createHttpBridge({ baseUrl: host.origin, token: 'wrong', fetch: (url, init) => fetch(url, init), eventSource: nodeEventSource });
    expect(await wrong.call('settings.get', {})).toMatchObject({ ok: false, error: { kind: 'credentials' } });
    const dead = createHttpBridge({ baseUrl: 'http://127.0.0.1:1', token: 't', fetch: (url, init) => fetch(url, init), eventSource: nodeEventSource });
    expect(await dead.call('settings.get', {})).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
  });
});
