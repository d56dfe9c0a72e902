/** Credentials for AWS profiles through the SDK's own providers, with MFA codes asked through the UI. */
import { fromIni } from '@aws-sdk/credential-providers';
import type { AppError } from '../../../shared/result';
import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { rememberCredentials, rememberSecrets, toAppError } from '../dynamo/errors';
import type { MfaBroker } from './mfa-broker';
import { isMfaCancelled } from './mfa-broker';
import { sharedFilePaths } from './profiles';

/** A credential provider for `profile`; MFA codes come from the broker. Files follow AWS_CONFIG_FILE / AWS_SHARED_CREDENTIALS_FILE. */
export function profileCredentials(profile: string, broker: MfaBroker, env: NodeJS.ProcessEnv = process.env): ReturnType<typeof fromIni> {
  const paths = sharedFilePaths(env);
  return fromIni({
    profile,
    filepath: paths.credentials,
    configFilepath: paths.config,
    // Re-read the files on every resolution: the user may have just run `aws sso login` or edited the config.
    ignoreCache: true,
    mfaCodeProvider: (serial: string) => broker.ask(profile, serial),
  });
}

/** A profile's provider that first tells the scrubber the SSO tokens it may use (the SDK reads them itself). */
export function profileCredentialsWithSso(profile: string, broker: MfaBroker, env: NodeJS.ProcessEnv = process.env, home?: string): ReturnType<typeof fromIni> {
  const provider = profileCredentials(profile, broker, env);
  return async (options) => {
    await rememberSsoTokens(home);
    return provider(options);
  };
}

/** Maps a credential failure to an AppError: MFA cancel → `mfa-required`, expired SSO → `sso-expired` with its fix. */
export function credentialError(error: unknown, profile: string): AppError {
  if (isMfaCancelled(error)) return { kind: 'mfa-required', message: error.message, fix: 'Connect again and enter the six-digit code from your MFA device.' };
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
      rememberSecrets(...['accessToken', 'refreshToken', 'clientSecret'].map((k) => (typeof cached[k] === 'string' ? (cached[k] as string) : undefined)));
    } catch {
      // Not JSON: nothing the SDK could use either.
    }
  }
}

/** Resolved AWS credentials, as the SDK's providers return them. */
type Identity = Awaited<ReturnType<ReturnType<typeof fromIni>>>;

/**
 * Memoizes a provider until five minutes before expiry, so that an MFA or SSO profile asks once per
 * session rather than once per client; a failure is not cached (the user may fix it and retry).
 */
export function memoizeCredentials(provider: () => Promise<Identity>, now: () => number = Date.now): () => Promise<Identity> {
  let current: Promise<Identity> | undefined;
  let expiresAt = 0;
  return () => {
    if (current && now() < expiresAt) return current;
    const attempt = provider().then((identity) => {
      // Every credential in use is known to the scrubber before any request is signed with it.
      rememberCredentials(identity);
      return identity;
    });
    current = attempt;
    expiresAt = Number.POSITIVE_INFINITY;
    attempt.then(
      (identity) => {
        expiresAt = identity.expiration ? identity.expiration.getTime() - 5 * 60_000 : Number.POSITIVE_INFINITY;
      },
      () => {
        if (current === attempt) current = undefined;
      },
    );
    return attempt;
  };
}
