/** Turning the connection flags (--endpoint | --profile, --region, AWS_* env) into a DynamoTarget and a client. */
import type { fromIni as FromIni } from '@aws-sdk/credential-providers';
import type { SignInLimits } from '../services/connections/credentials';
import type { DynamoTarget } from '../services/dynamo/client';
import type { ErrorContext } from '../services/dynamo/errors';
import type { CliIo, Connection, FlagValues } from './command';

export type { Connection } from './command';
import { CliError, usageError } from './command';
import { optionalString } from './args';
import { rememberCredentials } from '../services/dynamo/secrets';

/** The region for an endpoint when nothing says otherwise (DynamoDB Local namespaces data by region). */
export const DEFAULT_ENDPOINT_REGION = 'us-east-1';

/** What the flags and environment ask for, before any credentials are resolved. */
export interface ConnectionRequest {
  readonly endpoint?: string;
  readonly profile?: string;
  readonly region?: string;
  /** Where the endpoint came from, when it came from the environment. */
  readonly endpointSource?: 'flag' | 'AWS_ENDPOINT_URL_DYNAMODB' | 'AWS_ENDPOINT_URL';
}

function checkEndpoint(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return usageError(`--endpoint: not a URL: ${JSON.stringify(url)} (e.g. http://localhost:8000)`, 'endpoint');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return usageError(`--endpoint: must be http:// or https:// (got ${parsed.protocol})`, 'endpoint');
  return url;
}

/** Reads the connection flags and environment (pure; exported for tests). */
export function connectionRequest(values: FlagValues, env: NodeJS.ProcessEnv): ConnectionRequest {
  const flagEndpoint = optionalString(values, 'endpoint');
  const flagProfile = optionalString(values, 'profile');
  if (flagEndpoint !== undefined && flagProfile !== undefined)
    usageError('use either --endpoint (DynamoDB Local) or --profile (AWS), not both', 'endpoint');
  const region = optionalString(values, 'region') ?? (env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined);
  if (flagEndpoint !== undefined)
    return { endpoint: checkEndpoint(flagEndpoint), endpointSource: 'flag', region: region ?? DEFAULT_ENDPOINT_REGION };
  if (flagProfile !== undefined) return region ? { profile: flagProfile, region } : { profile: flagProfile };
  // The SDK itself would honour these; taking them as the endpoint makes dummy credentials and the label right.
  const envEndpoint =
    env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS === 'true'
      ? undefined
      : env.AWS_ENDPOINT_URL_DYNAMODB
        ? 'AWS_ENDPOINT_URL_DYNAMODB'
        : env.AWS_ENDPOINT_URL
          ? 'AWS_ENDPOINT_URL'
          : undefined;
  if (envEndpoint)
    return { endpoint: checkEndpoint(env[envEndpoint] ?? ''), endpointSource: envEndpoint, region: region ?? DEFAULT_ENDPOINT_REGION };
  const profile = env.AWS_PROFILE || undefined;
  return { ...(profile ? { profile } : {}), ...(region ? { region } : {}) };
}

/** Asks for an MFA code on the terminal (assume-role profiles with mfa_serial). */
async function promptMfa(io: CliIo, serial: string): Promise<string> {
  if (!process.stdin.isTTY)
    throw new CliError({
      kind: 'mfa-required',
      message: `profile needs an MFA code for ${serial}, but stdin is not a terminal`,
      fix: 'run interactively, or use credentials that need no MFA',
    });
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(`MFA code for ${serial}: `)).trim();
  } finally {
    rl.close();
  }
}

/** Resolves the region a profile configures, through the SDK's own config loading. */
async function profileRegion(profile: string | undefined): Promise<string | undefined> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const probe = new DynamoDBClient(profile ? { profile } : {});
  try {
    return await probe.config.region();
  } catch {
    return undefined;
  } finally {
    probe.destroy();
  }
}

/**
 * Builds the target and client for the flags. The SDK loads here, when a command runs, so that a command's
 * `--help` or a flag it refuses parses none of it (docs/benchmarks.md, "Start-up measures through the model").
 */
export async function openConnection(values: FlagValues, io: CliIo, signInLimits?: SignInLimits): Promise<Connection> {
  const request = connectionRequest(values, io.env);
  const { createDynamoClient, effectiveEndpoint, isLocalTarget } = await import('../services/dynamo/client');
  let target: DynamoTarget;
  if (request.endpoint !== undefined) {
    const label = request.endpointSource === 'flag' ? request.endpoint : `${request.endpoint} (from ${request.endpointSource})`;
    target = { label, endpoint: request.endpoint, region: request.region ?? DEFAULT_ENDPOINT_REGION };
  } else {
    const region = request.region ?? (await profileRegion(request.profile));
    if (!region && request.profile === undefined) {
      throw new CliError({
        kind: 'validation',
        field: 'endpoint',
        message: 'no connection given (no --endpoint, --profile, AWS_PROFILE or AWS_REGION)',
        fix: 'pass --endpoint http://localhost:8000 (DynamoDB Local) or --profile NAME (AWS)',
      });
    }
    if (!region) usageError(`no region: pass --region or set AWS_REGION (profile ${request.profile} has none)`, 'region');
    const { fromIni, fromNodeProviderChain } = await import('@aws-sdk/credential-providers');
    const { DEFAULT_SIGN_IN_LIMITS, rememberSsoTokens, signInClientConfig, signInNetworkError, withDeadline } =
      await import('../services/connections/credentials');
    const limits = signInLimits ?? DEFAULT_SIGN_IN_LIMITS;
    // The STS / SSO clients the SDK makes get timeouts (they have none otherwise: a hung proxy would hang the command).
    const clientConfig = signInClientConfig(limits);
    const who = request.profile ? `profile ${request.profile}` : 'the default credentials';
    // The time spent typing an MFA code does not count against the deadline.
    const credentials: ReturnType<typeof FromIni> = async (options) => {
      await rememberSsoTokens();
      const message = `signing in with ${who} took over ${Math.round(limits.deadlineMs / 1000)} s: STS or SSO did not answer`;
      const identity = await withDeadline(limits.deadlineMs, message, (pause) => {
        const mfaCodeProvider = (serial: string) => pause(promptMfa(io, serial));
        const provider = request.profile
          ? fromIni({ profile: request.profile, mfaCodeProvider, clientConfig })
          : fromNodeProviderChain({ mfaCodeProvider, clientConfig });
        return provider(options).catch((error: unknown) => {
          throw signInNetworkError(error, who);
        });
      });
      // The scrubber learns every credential before a request is signed with it (and the SSO tokens the SDK reads itself).
      rememberCredentials(identity);
      return identity;
    };
    target = {
      label: request.profile ? `profile ${request.profile}` : 'aws (default credentials)',
      region,
      credentials,
      ...(request.profile ? { profile: request.profile } : {}),
    };
  }
  const client = createDynamoClient(target, { env: io.env });
  // The endpoint requests really go to, so "cannot reach …" names a profile's configured endpoint too.
  const endpoint = effectiveEndpoint(target, io.env).url;
  const errorContext: ErrorContext = { ...(endpoint ? { endpoint } : {}), ...(target.profile ? { profile: target.profile } : {}) };
  return { target, client, local: isLocalTarget(target, io.env), errorContext };
}
