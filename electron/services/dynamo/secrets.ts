/**
 * The secrets this process holds, remembered where each is obtained, and the scrubbers that keep them
 * out of every message, log line and result that leaves a service.
 */

/** AWS access key ids (long-term and temporary). */
const KEY_ID_PATTERN = /\b(?:AKIA|ASIA|AROA|AIDA)[A-Z0-9]{12,}\b/g;
/** `secret=…`, `session_token: "…"` style assignments: keep the name, hide the value. */
const ASSIGNMENT_PATTERN = /((?:secret|token|password|session)[_-]?(?:access)?[_-]?(?:key|token)?["']?\s*[:=]\s*["']?)[^\s"',;]+/gi;

/**
 * Every secret this process has in use: environment keys and session tokens, credentials resolved
 * from profiles, SSO tokens, the browser-mode token, the sandbox's private key. Filled where each is
 * obtained; every scrubber reads it, so no read path has to remember to pass its secrets along.
 */
const known = new Set<string>();
/** Known secrets, longest first, so that a token containing a key id is removed whole. */
let ordered: string[] = [];
/** Shorter strings are not treated as secrets (a one-letter test key would blank every message). */
const MIN_SECRET_LENGTH = 8;

/** Remembers secret strings in use (short or empty ones are ignored). */
export function rememberSecrets(...values: readonly (string | undefined)[]): void {
  let added = false;
  for (const value of values) {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || known.has(value)) continue;
    known.add(value);
    added = true;
  }
  if (added) ordered = [...known].sort((a, b) => b.length - a.length);
}

/** Remembers resolved credentials (key id, secret key, session token). */
export function rememberCredentials(
  identity: { readonly accessKeyId?: string; readonly secretAccessKey?: string; readonly sessionToken?: string } | undefined,
): void {
  if (identity) rememberSecrets(identity.accessKeyId, identity.secretAccessKey, identity.sessionToken);
}

/** Remembers the credential variables of an environment. */
export function rememberEnvSecrets(env: NodeJS.ProcessEnv): void {
  rememberSecrets(
    env.AWS_ACCESS_KEY_ID,
    env.AWS_SECRET_ACCESS_KEY,
    env.AWS_SESSION_TOKEN,
    env.AWS_SECURITY_TOKEN,
    env.AWS_BEARER_TOKEN_DYNAMODB,
  );
}

/** The secrets known so far, longest first. */
export function knownSecrets(): readonly string[] {
  return ordered;
}

/** Removes credentials from a message: every known secret and the given ones verbatim, plus anything shaped like a key or token. */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of [...secrets, ...ordered]) if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('***');
  return out.replace(KEY_ID_PATTERN, '***').replace(ASSIGNMENT_PATTERN, '$1***');
}

/** Removes the known secrets (verbatim only: no pattern that could alter JSON or a request) from output text. */
export function removeKnownSecrets(text: string): string {
  let out = text;
  for (const secret of ordered) if (out.includes(secret)) out = out.split(secret).join('***');
  return out;
}

/** Removes every known secret from every string inside a JSON-like value (results, log entries); untouched values are returned as they are. */
export function scrubKnownSecrets<T>(value: T, secrets: readonly string[] = []): T {
  const all = [...secrets.filter((s) => s.length >= 4), ...ordered];
  if (all.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let out = v;
      for (const secret of all) if (out.includes(secret)) out = out.split(secret).join('***');
      return out;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [walk(k) as string, walk(x)]));
  };
  // The common case (nothing to hide) costs one serialization and no copy.
  const text = JSON.stringify(value);
  if (text === undefined || !all.some((secret) => text.includes(JSON.stringify(secret).slice(1, -1)))) return value;
  return walk(value) as T;
}
