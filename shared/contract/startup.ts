/**
 * The URL hash the app is opened with: `#token=…&connection=sandbox&table=accounts`.
 * Written by main / `serve` / `npm start`, read by the renderer at startup.
 */

/** What the hash may carry. */
export interface StartupHash {
  /** Browser mode only: the per-launch token (the page moves it to sessionStorage and drops it from the URL). */
  readonly token?: string;
  readonly connection?: string;
  readonly table?: string;
}

/** Builds the hash (with the leading `#`), or an empty string when there is nothing to carry. */
export function formatStartupHash(hash: StartupHash): string {
  const params = new URLSearchParams();
  if (hash.token) params.set('token', hash.token);
  if (hash.connection) params.set('connection', hash.connection);
  if (hash.table) params.set('table', hash.table);
  const text = params.toString();
  return text ? `#${text}` : '';
}

/** Reads a hash such as `location.hash`; unknown fields are ignored, each value is bounded. */
export function parseStartupHash(hash: string): StartupHash {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const pick = (name: string): string | undefined => {
    const value = params.get(name);
    return value && value.length <= 512 ? value : undefined;
  };
  const token = pick('token');
  const connection = pick('connection');
  const table = pick('table');
  return { ...(token ? { token } : {}), ...(connection ? { connection } : {}), ...(table ? { table } : {}) };
}
