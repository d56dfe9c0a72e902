/**
 * Browser-mode client: the same `LocksmithBridge` as Electron's `window.locksmith`, over
 * `POST /api/<method>` (JSON) and ONE `GET /api/events` Server-Sent Events stream per page, which
 * carries every subscription (browsers allow only 6 HTTP/1.1 connections per origin; one stream
 * per subscription would starve calls). The stream's first frame names its channel; subscriptions
 * are added and removed with `POST /api/events/subscribe|unsubscribe`, and every event frame names
 * its subscription. Pure fetch/EventSource code, injected so it runs in the page and in Node tests.
 */
import type { Result } from '../result';
import type { LocksmithBridge, MethodName, StreamName } from './api';
import { parseStartupHash } from './startup';
import { isResult, lostAnswer } from './transport';

/** Header carrying the per-launch token on every call. */
export const TOKEN_HEADER = 'x-locksmith-token';
/** Query parameter carrying the token for SSE (EventSource cannot set headers). */
export const TOKEN_QUERY = 'token';
/** sessionStorage key where the page keeps the token after reading it from the URL. */
export const TOKEN_STORAGE_KEY = 'locksmith.token';
/** The page's one event stream (GET, token in the query). */
export const EVENTS_PATH = '/api/events';
/** Adds a subscription to a channel (POST `{ channel, id, stream, filter }`); replayed events arrive before the answer. */
export const SUBSCRIBE_PATH = '/api/events/subscribe';
/** Ends a subscription (POST `{ channel, id }`). */
export const UNSUBSCRIBE_PATH = '/api/events/unsubscribe';

/** One frame of the event stream: the channel's name (first frame of every connection), or an event of one subscription. */
export type EventFrame =
  { readonly type: 'channel'; readonly channel: string } | { readonly type: 'event'; readonly sub: string; readonly event: unknown };

/** The subset of `fetch` the client needs. */
export type FetchLike = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string },
) => Promise<{ readonly status: number; json(): Promise<unknown> }>;

/** The subset of `EventSource` the client needs. */
export interface EventSourceLike {
  addEventListener(type: 'message', listener: (event: { readonly data: string }) => void): void;
  close(): void;
}

/** Constructs an EventSource for a URL. */
export type EventSourceFactory = (url: string) => EventSourceLike;

/** Options of `createHttpBridge`. */
export interface HttpBridgeOptions {
  /** Origin of the serve host, e.g. `http://127.0.0.1:5174` (or `''` for same-origin relative URLs). */
  readonly baseUrl: string;
  readonly token: string;
  readonly fetch: FetchLike;
  readonly eventSource: EventSourceFactory;
}

function parseFrame(data: string): EventFrame | undefined {
  try {
    const frame = JSON.parse(data) as Partial<Record<string, unknown>>;
    if (frame.type === 'channel' && typeof frame.channel === 'string') return { type: 'channel', channel: frame.channel };
    if (frame.type === 'event' && typeof frame.sub === 'string') return { type: 'event', sub: frame.sub, event: frame.event };
  } catch {
    // A malformed frame is dropped: one bad frame must not break the stream.
  }
  return undefined;
}

interface ClientSubscription {
  readonly stream: StreamName;
  readonly filter: unknown;
  readonly listener: (event: never) => void;
  /** The latest subscribe request; an unsubscribe waits for it, so the server never sees them reversed. */
  registered: Promise<unknown>;
}

/** Builds the browser-mode bridge. */
export function createHttpBridge(options: HttpBridgeOptions): LocksmithBridge {
  const base = options.baseUrl.replace(/\/$/, '');

  /** POSTs to `path`; a lost or unreadable answer becomes `lostAnswer(name, …)` (shared/contract/transport.ts). */
  async function post(path: string, name: string, args: unknown): Promise<Result<unknown>> {
    const lost = (cause: string): Result<never> => ({ ok: false, error: lostAnswer(name, cause) });
    let response: Awaited<ReturnType<FetchLike>>;
    try {
      response = await options.fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: options.token },
        body: JSON.stringify(args ?? {}),
      });
    } catch {
      // fetch cannot tell "refused before the send" from "reset after it": both may have been applied.
      return lost('the Locksmith server did not answer: is `locksmith serve` still running?');
    }
    if (response.status === 401) {
      // Our own server's token check, before any handler ran: nothing was done.
      return {
        ok: false,
        error: {
          kind: 'credentials',
          message: 'This page has no valid session token.',
          fix: 'Open the URL printed by `locksmith serve` (it carries the token).',
        },
      };
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return lost(`HTTP ${response.status} without a JSON body`);
    }
    if (response.status >= 500 || !isResult(body)) return lost(`HTTP ${response.status}, not a Locksmith answer`);
    return body;
  }

  // The one stream: opened by the first subscription, closed with the last (which ends them all server-side).
  const subscriptions = new Map<string, ClientSubscription>();
  let source: EventSourceLike | undefined;
  let channel: string | undefined;
  let nextId = 0;

  const register = (id: string, subscription: ClientSubscription, on: string): Promise<unknown> =>
    post(SUBSCRIBE_PATH, 'events.subscribe', { channel: on, id, stream: subscription.stream, filter: subscription.filter ?? {} });

  function openSource(): void {
    const opened = options.eventSource(`${base}${EVENTS_PATH}?${new URLSearchParams({ [TOKEN_QUERY]: options.token }).toString()}`);
    source = opened;
    channel = undefined;
    opened.addEventListener('message', (message) => {
      if (source !== opened) return;
      const frame = parseFrame(message.data);
      if (!frame) return;
      if (frame.type === 'channel') {
        // A new connection (first, or EventSource's reconnect after a drop): the server knows none of ours yet.
        channel = frame.channel;
        for (const [id, subscription] of subscriptions) subscription.registered = register(id, subscription, frame.channel);
        return;
      }
      const subscription = subscriptions.get(frame.sub);
      if (!subscription) return;
      try {
        subscription.listener(frame.event as never);
      } catch {
        // A throwing listener must not stop delivery to the others.
      }
    });
  }

  return {
    call: (method: MethodName, args: unknown) => post(`/api/${encodeURIComponent(method)}`, method, args),
    subscribe(name: StreamName, filter: unknown, listener: (event: never) => void) {
      const id = `s${(nextId += 1)}`;
      const subscription: ClientSubscription = { stream: name, filter, listener, registered: Promise.resolve() };
      subscriptions.set(id, subscription);
      if (!source) openSource();
      else if (channel !== undefined) subscription.registered = register(id, subscription, channel);
      return () => {
        if (!subscriptions.delete(id)) return;
        if (subscriptions.size === 0) {
          source?.close();
          source = undefined;
          channel = undefined;
          return;
        }
        const on = channel;
        if (on !== undefined)
          void subscription.registered.then(() =>
            channel === on ? post(UNSUBSCRIBE_PATH, 'events.unsubscribe', { channel: on, id }) : undefined,
          );
      };
    },
  } as LocksmithBridge;
}

/** Minimal views of the page's location, sessionStorage and history. */
export interface PageLike {
  readonly location: { readonly hash: string; readonly pathname: string; readonly search: string };
  readonly sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  readonly history: { replaceState(data: unknown, unused: string, url: string): void };
}

/**
 * Finds the browser-mode token: from the URL hash on first load (then kept in sessionStorage and
 * removed from the address bar, so it does not end up in bookmarks or screenshots), else from sessionStorage.
 */
export function resolveBrowserToken(page: PageLike): string | null {
  const fromHash = parseStartupHash(page.location.hash).token;
  if (fromHash) {
    page.sessionStorage.setItem(TOKEN_STORAGE_KEY, fromHash);
    const rest = new URLSearchParams(page.location.hash.replace(/^#/, ''));
    rest.delete('token');
    const hash = rest.toString();
    page.history.replaceState(null, '', `${page.location.pathname}${page.location.search}${hash ? `#${hash}` : ''}`);
    return fromHash;
  }
  return page.sessionStorage.getItem(TOKEN_STORAGE_KEY);
}
