/** Credentials for AWS profiles through the SDK's own providers, with MFA codes asked through the UI. */
import { fromIni } from '@aws-sdk/credential-providers';
import type { AppError } from '../../../shared/result';
import { toAppError } from '../dynamo/errors';
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

/** Maps a credential failure to an AppError: MFA cancel → `mfa-required`, expired SSO → `sso-expired` with its fix. */
export function credentialError(error: unknown, profile: string): AppError {
  if (isMfaCancelled(error)) return { kind: 'mfa-required', message: error.message, fix: 'Connect again and enter the six-digit code from your MFA device.' };
  const mapped = toAppError(error, { profile });
  if (mapped.kind === 'sso-expired') return { ...mapped, fix: `aws sso login --profile ${profile}` };
  return mapped;
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
    const attempt = provider();
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
