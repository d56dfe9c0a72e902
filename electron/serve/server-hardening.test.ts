/** #16 findings 9 and 10: browser mode refuses before parsing, answers 400 not 500, logs no token, bounds streams and slow clients. */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleLogger } from '../bridge/logger';
import { createDispatcher } from '../bridge/pipeline';
import { createStreamHub } from '../bridge/stream-hub';
import { createFakeHandlers } from '../bridge/testing/fake-handlers';
import { MAX_CHANNELS, startServeHost, type ServeHost } from './server';

const TOKEN = 'HardeningTestToken0123456789abcdefghijklmn';
const lines: string[] = [];
let host: ServeHost;
let dir = '';
let outside = '';

interface Reply {
  readonly status: number;
  readonly body: string;
}

function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
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
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-harden-'));
  outside = await mkdtemp(join(tmpdir(), 'locksmith-outside-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Locksmith</title>');
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(dir, 'assets', 'app.js.map'), '{"sources":["secret-source.ts"]}');
  await writeFile(join(outside, 'private.js'), "the user's private file");
  await symlink(join(outside, 'private.js'), join(dir, 'assets', 'linked.js'));
  await symlink(outside, join(dir, 'linkdir'));
  const log = createConsoleLogger((line) => lines.push(line));
  const { handlers } = createFakeHandlers();
  host = await startServeHost({ dispatch: createDispatcher(handlers, log), hub: createStreamHub(), log, rendererDir: dir, token: TOKEN });
});
afterAll(async () => {
  await host.close();
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('malformed URLs (finding 9)', () => {
  it.each([
    ['GET', `/api/events%ZZ?token=${TOKEN}`],
    ['POST', `/api/tx.preview%ZZ?token=${TOKEN}`],
    ['GET', `//?token=${TOKEN}`],
    ['GET', `//evil.example/x?token=${TOKEN}`],
  ])('%s %s answers 4xx, never 500, and no log line carries the token', async (method, path) => {
    const reply = await raw(path, { method, headers: { 'content-type': 'application/json', 'x-locksmith-token': TOKEN } });
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(lines.join('\n')).not.toContain(TOKEN);
    expect(lines.join('\n')).not.toMatch(/at .*server\.ts/);
  });

  it('a foreign Host is refused before the path is even looked at', async () => {
    const reply = await raw(`//?token=${TOKEN}`, { headers: { host: 'rebind.example' } });
    expect(reply.status).toBe(403);
  });
});

describe('exact content type (finding 10)', () => {
  it.each(['application/jsonfoo', 'application/json-patch+json', 'text/plain; application/json', 'application/json; charset=latin1'])(
    '%j is refused with 415',
    async (type) => {
      const reply = await raw('/api/app.info', {
        method: 'POST',
        headers: { 'content-type': type, 'x-locksmith-token': TOKEN },
        body: '{}',
      });
      expect(reply.status).toBe(415);
    },
  );

  it('application/json (with charset=utf-8) is accepted', async () => {
    for (const type of ['application/json', 'Application/JSON; charset=UTF-8']) {
      const reply = await raw('/api/app.info', {
        method: 'POST',
        headers: { 'content-type': type, 'x-locksmith-token': TOKEN },
        body: '{}',
      });
      expect(reply.status).toBe(200);
    }
  });
});

describe('bounded event streams (finding 10)', () => {
  it('opens at most 16 event streams; the 17th is refused with 429', async () => {
    expect(MAX_CHANNELS).toBe(16);
    const open: (() => void)[] = [];
    const openOne = (): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = request(
          {
            agent: false,
            host: '127.0.0.1',
            port: host.port,
            path: `/api/events?token=${TOKEN}`,
            headers: { host: `127.0.0.1:${host.port}` },
          },
          (res) => {
            open.push(() => req.destroy());
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    try {
      for (let i = 0; i < MAX_CHANNELS; i++) expect(await openOne()).toBe(200);
      expect(await openOne()).toBe(429);
    } finally {
      for (const close of open) close();
    }
  });
});

describe('slow clients (finding 10)', () => {
  it('a client that never finishes its headers is disconnected by the server', async () => {
    const closed = await new Promise<boolean>((resolve) => {
      const socket = connect(host.port, '127.0.0.1', () => socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nX-Slow: `));
      socket.on('data', () => undefined);
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(true));
    });
    expect(closed).toBe(true);
  }, 20_000);
});

describe('static files (finding 10)', () => {
  it('serves the bundle but no source map', async () => {
    expect((await raw('/assets/app.js')).status).toBe(200);
    const map = await raw('/assets/app.js.map');
    expect(map.status).toBe(404);
    expect(map.body).not.toContain('secret-source');
  });

  it('follows no symbolic link inside the renderer folder', async () => {
    for (const path of ['/assets/linked.js', '/linkdir/private.js']) {
      const reply = await raw(path);
      expect(reply.status).toBe(404);
      expect(reply.body).not.toContain('private file');
    }
  });
});
