/**
 * Browser-mode client: the same `LocksmithBridge` as Electron's `window.locksmith`, over
 * `POST /api/<method>` (JSON) and `GET /api/events` (Server-Sent Events). Pure fetch/EventSource code,
 * with both injected so it runs in the page and in Node tests alike.
 */
import type { AppError, Result } from '../result';
import type { LocksmithBridge, MethodName, StreamName } from './api';
import { parseStartupHash } from './startup';

/** Header carrying the per-launch token on every call. */
export const TOKEN_HEADER = 'x-locksmith-token';
/** Query parameter carrying the token for SSE (EventSource cannot set headers). */
export const TOKEN_QUERY = 'token';
/** sessionStorage key where the page keeps the token after reading it from the URL. */
export const TOKEN_STORAGE_KEY = 'locksmith.token';

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

const transportError = (message: string, fix?: string): { ok: false; error: AppError } => ({
  ok: false,
  error: { kind: 'unreachable', message, ...(fix ? { fix } : {}) },
});

/** True when a JSON body has the shape of a Result (the server is trusted, but a proxy might not be). */
function isResult(body: unknown): body is Result<unknown> {
  if (typeof body !== 'object' || body === null) return false;
  const record = body as Record<string, unknown>;
  if (record.ok === true) return 'value' in record;
  if (record.ok === false) return typeof record.error === 'object' && record.error !== null;
  return false;
}

/** Builds the browser-mode bridge. */
export function createHttpBridge(options: HttpBridgeOptions): LocksmithBridge {
  const base = options.baseUrl.replace(/\/$/, '');
  return {
    async call(method: MethodName, args: unknown) {
      let response: Awaited<ReturnType<FetchLike>>;
      try {
        response = await options.fetch(`${base}/api/${encodeURIComponent(method)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: options.token },
          body: JSON.stringify(args ?? {}),
        });
      } catch {
        return transportError('The Locksmith server does not answer.', 'Is `locksmith serve` still running? Restart it and open the new URL.');
      }
      if (response.status === 401) {
        return { ok: false, error: { kind: 'credentials', message: 'This page has no valid session token.', fix: 'Open the URL printed by `locksmith serve` (it carries the token).' } };
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        return transportError(`The server answered ${response.status} without JSON.`);
      }
      // The generic signature cannot be narrowed per method here; the server produced the value from the same contract.
      return isResult(body) ? (body as Result<never>) : transportError(`Unexpected answer from the server (HTTP ${response.status}).`);
    },
    subscribe(name: StreamName, filter: unknown, listener: (event: never) => void) {
      const params = new URLSearchParams({ stream: name, filter: JSON.stringify(filter ?? {}), [TOKEN_QUERY]: options.token });
      const source = options.eventSource(`${base}/api/events?${params.toString()}`);
      let open = true;
      source.addEventListener('message', (message) => {
        if (!open) return;
        try {
          listener(JSON.parse(message.data) as never);
        } catch {
          // A malformed event is dropped: one bad frame must not break the stream.
        }
      });
      return () => {
        if (!open) return;
        open = false;
        source.close();
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
