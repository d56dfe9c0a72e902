/**
 * Browser mode: the same dispatcher over HTTP on 127.0.0.1 only. `POST /api/<method>` with JSON,
 * `GET /api/events` as one Server-Sent Events channel per page that multiplexes its subscriptions
 * (`POST /api/events/subscribe|unsubscribe`, see http-client.ts), the built renderer for everything else.
 * A random token per launch (header, or query for SSE); Host and Origin checked (DNS-rebinding
 * safe); no CORS headers, ever.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import {
  EVENTS_PATH,
  SUBSCRIBE_PATH,
  TOKEN_HEADER,
  TOKEN_QUERY,
  UNSUBSCRIBE_PATH,
  type EventFrame,
} from '../../shared/contract/http-client';
import type { Result } from '../../shared/result';
import { err, ok } from '../../shared/result';
import type { BridgeLogger } from '../bridge/logger';
import { validationError, type Dispatch } from '../bridge/pipeline';
import type { StreamHub } from '../bridge/stream-hub';
import { SECURITY_HEADERS } from '../main/security';
import { rememberSecrets } from '../services/dynamo/secrets';
import { readStaticFile } from './static-files';

/** Largest request body accepted (a convention or a pasted cancellation fits easily). */
const MAX_BODY_BYTES = 1024 * 1024;
/** SSE keep-alive interval, so proxies and browsers do not drop an idle stream. */
const HEARTBEAT_MS = 15_000;
/** Subscriptions one channel may hold (the app keeps about three; a runaway page must not grow the hub without bound). */
const MAX_SUBSCRIPTIONS_PER_CHANNEL = 64;
/** Open event streams (one per page; a few tabs are plenty): more would hold sockets and hub listeners without bound. */
export const MAX_CHANNELS = 16;
/** A client must send its request headers, and its whole request, within these (a slow-drip client is cut off). */
export const HEADERS_TIMEOUT_MS = 5_000;
export const REQUEST_TIMEOUT_MS = 10_000;

/** The request's path and query, split without `new URL` (which throws on `//…`) and without decoding. */
function splitUrl(raw: string): { path: string; query: URLSearchParams } | undefined {
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  if (!path.startsWith('/') || path.startsWith('//')) return undefined;
  return { path, query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}

/** `application/json`, optionally with `charset=utf-8`, and nothing else (no prefix match: `application/jsonfoo` is not JSON). */
function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [type, ...params] = header.split(';').map((part) => part.trim().toLowerCase());
  return type === 'application/json' && params.every((p) => p === 'charset=utf-8');
}

const subscribeSchema = z.strictObject({
  channel: z.string().min(1).max(100),
  id: z.string().min(1).max(100),
  stream: z.string().max(100),
  filter: z.unknown().optional(),
});
const unsubscribeSchema = z.strictObject({ channel: z.string().min(1).max(100), id: z.string().min(1).max(100) });

/** One page's event stream and the subscriptions it carries (id → unsubscribe). */
interface Channel {
  readonly res: ServerResponse;
  readonly subscriptions: Map<string, () => void>;
}

/** Options of the host. */
export interface ServeOptions {
  readonly dispatch: Dispatch;
  readonly hub: StreamHub;
  readonly log: BridgeLogger;
  /** Folder of the built renderer (dist/renderer). */
  readonly rendererDir: string;
  /** 0 = a free port. */
  readonly port?: number;
  /** Fixed token (tests); default 32 random bytes. */
  readonly token?: string;
}

/** A running host. */
export interface ServeHost {
  readonly port: number;
  readonly token: string;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/** A fresh per-launch token. */
export const newToken = (): string => randomBytes(32).toString('base64url');

function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(res: ServerResponse, status: number, body: string, type: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, 'Cache-Control': 'no-store', ...extra });
  res.end(body);
}

function sendResult(res: ServerResponse, status: number, result: Result<unknown>): void {
  send(res, status, JSON.stringify(result), 'application/json; charset=utf-8');
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Stop buffering; the caller answers 413 and closes the connection once the answer is out.
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Starts the host on 127.0.0.1. */
export async function startServeHost(options: ServeOptions): Promise<ServeHost> {
  const token = options.token ?? newToken();
  // The token is a secret like any key: nothing the process logs or answers may carry it.
  rememberSecrets(token);
  const channels = new Map<string, Channel>();
  let port = 0;
  const allowedHosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = (): Set<string> => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  // What is logged of a request: its path only (a query may carry the token), cut short.
  const logged = (path: string): string => path.slice(0, 100);
  const refuse = (
    res: ServerResponse,
    status: 400 | 401 | 403 | 404 | 405 | 413 | 415 | 429,
    method: string,
    reason: string,
    message: string,
  ): void => {
    options.log.refused({ method: logged(method), transport: 'http', reason });
    sendResult(res, status, err(status === 401 ? 'credentials' : 'validation', message));
  };

  const server: Server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
    (req, res) => {
      void handle(req, res).catch((cause: unknown) => {
        options.log.failed({ method: logged(splitUrl(req.url ?? '/')?.path ?? '(malformed path)'), transport: 'http', cause });
        if (!res.headersSent) sendResult(res, 500, err('internal', 'Unexpected server error.'));
        else res.end();
      });
    },
  );

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Host and Origin first, from the headers alone: nothing that can fail is parsed for a foreign page.
    // DNS rebinding: a foreign name resolving to 127.0.0.1 still carries its own Host header.
    if (!allowedHosts().has(req.headers.host ?? ''))
      return refuse(res, 403, '(any)', `foreign Host ${String(req.headers.host).slice(0, 100)}`, 'Forbidden host.');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin))
      return refuse(res, 403, '(any)', `foreign Origin ${origin.slice(0, 100)}`, 'Forbidden origin.');
    if (req.headers['sec-fetch-site'] === 'cross-site') return refuse(res, 403, '(any)', 'cross-site request', 'Forbidden origin.');
    const url = splitUrl(req.url ?? '/');
    if (!url) return refuse(res, 400, '(malformed path)', 'malformed path', 'Bad request.');
    const { path } = url;

    if (path === EVENTS_PATH) {
      if (req.method !== 'GET') return refuse(res, 405, path, 'method', 'Use GET.');
      if (!sameToken(url.query.get(TOKEN_QUERY) ?? undefined, token))
        return refuse(res, 401, path, 'bad or missing token', 'Missing or wrong token.');
      if (channels.size >= MAX_CHANNELS)
        return refuse(res, 429, path, 'too many event streams', `At most ${MAX_CHANNELS} pages may listen at once; close a tab.`);
      return openChannel(res);
    }
    if (path.startsWith('/api/')) {
      if (req.method !== 'POST') return refuse(res, 405, path, 'method', 'Use POST.');
      const given = req.headers[TOKEN_HEADER];
      if (!sameToken(typeof given === 'string' ? given : undefined, token))
        return refuse(res, 401, path, 'bad or missing token', 'Missing or wrong token.');
      let method: string;
      try {
        method = decodeURIComponent(path.slice('/api/'.length));
      } catch {
        return refuse(res, 400, path, 'malformed method name', 'Bad request.');
      }
      if (!isJsonContentType(req.headers['content-type'])) return refuse(res, 415, method, 'content type', 'Send application/json.');
      const body = await readBody(req);
      if (body === undefined) {
        res.setHeader('Connection', 'close');
        res.once('finish', () => req.socket.destroy());
        return refuse(res, 413, method, 'body too large', 'Request too large.');
      }
      let args: unknown;
      try {
        args = body === '' ? {} : JSON.parse(body);
      } catch {
        return sendResult(res, 200, err('validation', 'The request body is not JSON.'));
      }
      if (path === SUBSCRIBE_PATH) return sendResult(res, 200, subscribe(args));
      if (path === UNSUBSCRIBE_PATH) return sendResult(res, 200, unsubscribe(args));
      // Past the token, Host and Origin checks this is our page: the pipeline still validates everything else.
      return sendResult(res, 200, await options.dispatch(method, args, 'http', { trusted: true, label: 'browser page' }));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, path, 'method', 'Method not allowed.');
    const file = await readStaticFile(options.rendererDir, path);
    if (!file) {
      const index = await readStaticFile(options.rendererDir, '/index.html');
      if (!index)
        return send(res, 503, 'The renderer is not built: run `npm run build` (npm start does it for you).\n', 'text/plain; charset=utf-8');
      return send(res, 404, 'Not found\n', 'text/plain; charset=utf-8');
    }
    res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': file.contentType, 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const frame = (res: ServerResponse, data: EventFrame): void => {
    res.write(`data: ${JSON.stringify(data)}\n\n`);
  };

  function openChannel(res: ServerResponse): void {
    const id = randomBytes(16).toString('base64url');
    const channel: Channel = { res, subscriptions: new Map() };
    channels.set(id, channel);
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    frame(res, { type: 'channel', channel: id });
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    res.on('close', () => {
      clearInterval(heartbeat);
      for (const end of channel.subscriptions.values()) end();
      channels.delete(id);
    });
  }

  const noChannel = (): Result<never> =>
    err('not-found', 'No such event channel (the stream was closed).', {
      field: 'channel',
      fix: 'The page reopens its event stream by itself; reload it if events stop.',
    });

  function subscribe(args: unknown): Result<unknown> {
    const parsed = subscribeSchema.safeParse(args);
    if (!parsed.success) return validationError(parsed.error);
    const { channel: channelId, id, stream, filter } = parsed.data;
    const channel = channels.get(channelId);
    if (!channel) return noChannel();
    if (channel.subscriptions.has(id)) return err('validation', `Subscription ${id} already exists on this channel.`, { field: 'id' });
    if (channel.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CHANNEL)
      return err('validation', `At most ${MAX_SUBSCRIPTIONS_PER_CHANNEL} subscriptions per page.`, { field: 'id' });
    // Replayed events are written inside subscribe(), so the page has them before this call answers.
    const subscribed = options.hub.subscribe(stream, filter ?? {}, (event) => frame(channel.res, { type: 'event', sub: id, event }));
    if (!subscribed.ok) return subscribed;
    channel.subscriptions.set(id, subscribed.value);
    return ok({ subscribed: true });
  }

  function unsubscribe(args: unknown): Result<unknown> {
    const parsed = unsubscribeSchema.safeParse(args);
    if (!parsed.success) return validationError(parsed.error);
    const channel = channels.get(parsed.data.channel);
    if (!channel) return noChannel();
    const end = channel.subscriptions.get(parsed.data.id);
    end?.();
    channel.subscriptions.delete(parsed.data.id);
    return ok({ unsubscribed: end !== undefined });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    token,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const channel of channels.values()) channel.res.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
