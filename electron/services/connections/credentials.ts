/** Credentials for AWS profiles through the SDK's own providers, with MFA codes asked through the UI. */
import { fromIni } from '@aws-sdk/credential-providers';
import type { AppError } from '../../../shared/result';
import { readdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isConnectionFailure, networkCode, toAppError } from '../dynamo/errors';
import { rememberCredentials, rememberSecrets } from '../dynamo/secrets';
import type { MfaBroker } from './mfa-broker';
import { isMfaCancelled } from './mfa-broker';
import { sharedFilePaths } from './profiles';

/** Network limits of a sign-in: the STS / SSO / SSO-OIDC clients' timeouts, and the whole attempt's deadline (MFA typing excluded). */
export interface SignInLimits {
  readonly connectMs: number;
  readonly idleMs: number;
  readonly deadlineMs: number;
}

/** A silent STS or SSO endpoint (a hung proxy) ends the sign-in within these bounds instead of never. */
export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { connectMs: 5_000, idleMs: 10_000, deadlineMs: 30_000 };

/** The `clientConfig` the SDK's providers hand to the STS / SSO / SSO-OIDC clients they make (they have no timeouts otherwise). */
export function signInClientConfig(limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS): {
  requestHandler: { connectionTimeout: number; socketTimeout: number };
} {
  return { requestHandler: { connectionTimeout: limits.connectMs, socketTimeout: limits.idleMs } };
}

/** A sign-in that took longer than its deadline (STS or SSO never answered). */
export class SignInTimeoutError extends Error {
  override readonly name = 'SignInTimeoutError';
}

/** A sign-in whose STS / SSO endpoint could not be reached or dropped the connection. */
export class SignInUnreachableError extends Error {
  override readonly name = 'SignInUnreachableError';
}

/**
 * A network failure of the STS / SSO clients a provider makes, said as a sign-in failure of `who`
 * ("profile X"): mapped as it is, it would read "cannot reach DynamoDB" — the wrong service. Other errors pass unchanged.
 */
export function signInNetworkError(error: unknown, who: string): unknown {
  // The cause stays: its network code is what makes a reset retryable (a blip while credentials refresh mid-scan).
  if (error instanceof Error && error.name === 'TimeoutError')
    return new SignInTimeoutError(`signing in with ${who}: STS or SSO did not answer in time`, { cause: error });
  const code = networkCode(error);
  if (code !== undefined && isConnectionFailure(code))
    return new SignInUnreachableError(`signing in with ${who}: cannot reach STS or SSO (${code})`, { cause: error });
  return error;
}

/**
 * Runs `work` within `ms`, not counting the time spent in promises passed through `pause` (the
 * user typing an MFA code: the broker has its own timeout). Past the deadline the result is a
 * SignInTimeoutError; the abandoned attempt ends on its own socket timeout.
 */
export function withDeadline<T>(
  ms: number,
  message: string,
  work: (pause: <U>(waiting: Promise<U>) => Promise<U>) => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let remaining = ms;
    let started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    let pausedBy = 0;
    const arm = (): void => {
      started = Date.now();
      timer = setTimeout(() => reject(new SignInTimeoutError(message)), Math.max(0, remaining));
    };
    const pause = async <U>(waiting: Promise<U>): Promise<U> => {
      if (pausedBy++ === 0) {
        clearTimeout(timer);
        remaining -= Date.now() - started;
      }
      try {
        return await waiting;
      } finally {
        if (--pausedBy === 0) arm();
      }
    };
    arm();
    work(pause).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A credential provider for `profile`; MFA codes come from `askMfa`. Files follow AWS_CONFIG_FILE / AWS_SHARED_CREDENTIALS_FILE. */
export function profileCredentials(
  profile: string,
  askMfa: (serial: string) => Promise<string>,
  env: NodeJS.ProcessEnv = process.env,
  home?: string,
  limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
): ReturnType<typeof fromIni> {
  const paths = sharedFilePaths(env, home);
  return fromIni({
    profile,
    filepath: paths.credentials,
    configFilepath: paths.config,
    // Re-read the files on every resolution: the user may have just run `aws sso login` or edited the config.
    ignoreCache: true,
    mfaCodeProvider: askMfa,
    clientConfig: signInClientConfig(limits),
  });
}

/**
 * A profile's provider: each resolution first tells the scrubber the SSO tokens it may use (the SDK
 * reads them itself), and fails with SignInTimeoutError past `limits.deadlineMs` (MFA typing excluded).
 */
export function profileCredentialsWithSso(
  profile: string,
  broker: MfaBroker,
  env: NodeJS.ProcessEnv = process.env,
  home?: string,
  limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
): ReturnType<typeof fromIni> {
  return async (options) => {
    await rememberSsoTokens(home);
    const message = `signing in with profile ${profile} took over ${Math.round(limits.deadlineMs / 1000)} s: STS or SSO did not answer`;
    const attempt = withDeadline(limits.deadlineMs, message, (pause) =>
      profileCredentials(profile, (serial) => pause(broker.ask(profile, serial)), env, home, limits)(options),
    );
    return attempt.catch((error: unknown) => {
      throw signInNetworkError(error, `profile ${profile}`);
    });
  };
}

/** What the shared files look like now (mtime and size of each): a change means a profile's credentials must be read again. */
export async function sharedFilesStamp(env: NodeJS.ProcessEnv = process.env, home?: string): Promise<string> {
  const paths = sharedFilePaths(env, home);
  const one = async (path: string): Promise<string> => {
    const info = await stat(path).catch(() => undefined);
    return info ? `${info.mtimeMs}:${info.size}` : '-';
  };
  return `${await one(paths.config)}|${await one(paths.credentials)}`;
}

/** Maps a credential failure to an AppError: MFA cancel → `mfa-required`, expired SSO → `sso-expired` with its fix. */
export function credentialError(error: unknown, profile: string): AppError {
  if (isMfaCancelled(error))
    return { kind: 'mfa-required', message: error.message, fix: 'Connect again and enter the six-digit code from your MFA device.' };
  const mapped = toAppError(error, { profile });
  if (mapped.kind === 'sso-expired') return { ...mapped, fix: `aws sso login --profile ${profile}` };
  return mapped;
}

/**
 * Remembers the SSO tokens cached by `aws sso login` (~/.aws/sso/cache/*.json) as secrets: the SDK
 * reads them itself, so this is the only way the scrubber can know them. Bounded; failures ignored.
 */
export async function rememberSsoTokens(home: string = homedir()): Promise<void> {
  const dir = join(home, '.aws', 'sso', 'cache');
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.json')).slice(0, 200)) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => '');
    if (text.length > 256 * 1024) continue;
    try {
      const cached = JSON.parse(text) as Record<string, unknown>;
      rememberSecrets(
        ...['accessToken', 'refreshToken', 'clientSecret'].map((k) => (typeof cached[k] === 'string' ? (cached[k] as string) : undefined)),
      );
    } catch {
      // Not JSON: nothing the SDK could use either.
    }
  }
}

/** Resolved AWS credentials, as the SDK's providers return them. */
type Identity = Awaited<ReturnType<ReturnType<typeof fromIni>>>;

/** How long an identity without `expiration` (static keys, a credential_process without Expiration) is reused. */
export const NO_EXPIRY_REUSE_MS = 60_000;

/** Options of memoizeCredentials. */
export interface MemoOptions {
  /** Changes when the identity must be read again (sharedFilesStamp); by default never. */
  readonly stamp?: () => Promise<string>;
  /** How long an identity without expiration is reused. */
  readonly noExpiryMs?: number;
}

/** A memoized provider; `forget` drops the cached identity (the service rejected it). */
export type MemoizedCredentials = (() => Promise<Identity>) & { forget(): void; readonly memoized: true };

/**
 * Memoizes a provider until five minutes before expiry, so that an MFA or SSO profile asks once per
 * session rather than once per client; a failure is not cached (the user may fix it and retry). An
 * identity without expiration is reused only briefly, and none survives a change of `stamp`
 * (rotated keys, a profile re-pointed at another account).
 */
export function memoizeCredentials(
  provider: () => Promise<Identity>,
  now: () => number = Date.now,
  options: MemoOptions = {},
): MemoizedCredentials {
  let current: Promise<Identity> | undefined;
  let expiresAt = 0;
  let currentStamp = '';
  const get = async (): Promise<Identity> => {
    const seen = options.stamp ? await options.stamp() : '';
    if (current && seen === currentStamp && now() < expiresAt) return current;
    const attempt = provider().then((identity) => {
      // Every credential in use is known to the scrubber before any request is signed with it.
      rememberCredentials(identity);
      return identity;
    });
    current = attempt;
    currentStamp = seen;
    // A pending attempt is shared; it ends (the deadline of profileCredentialsWithSso) or is dropped.
    expiresAt = Number.POSITIVE_INFINITY;
    attempt.then(
      (identity) => {
        if (current !== attempt) return;
        expiresAt = identity.expiration ? identity.expiration.getTime() - 5 * 60_000 : now() + (options.noExpiryMs ?? NO_EXPIRY_REUSE_MS);
      },
      () => {
        if (current === attempt) current = undefined;
      },
    );
    return attempt;
  };
  return Object.assign(get, {
    // Tells the SDK not to wrap it in its own memo, which keeps an identity without expiration for the
    // client's lifetime (a pooled client would sign with rotated-out keys): it asks this one on every request.
    memoized: true as const,
    forget: () => {
      current = undefined;
    },
  });
}
