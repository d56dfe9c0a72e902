/** Creating DynamoDB clients for a connection target (DynamoDB Local endpoint or AWS). */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { profileEndpoint } from '../connections/profiles';
import { LeanScanProtocol } from './scan-protocol';

/** Credentials as the SDK accepts them: static keys or a provider function (fromIni, fromSSO…). */
export type DynamoCredentials = NonNullable<DynamoDBClientConfig['credentials']>;

/** Static keys, e.g. from the environment or dummy values for DynamoDB Local. */
export interface StaticCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** Where and as whom to talk to DynamoDB; produced by the connections service or the CLI flags. */
export interface DynamoTarget {
  /** Shown to people: "sandbox", "http://localhost:8000", "profile prod". */
  readonly label: string;
  /** A custom endpoint (DynamoDB Local); absent for AWS. */
  readonly endpoint?: string;
  readonly region: string;
  /** Absent: env keys or dummy values for an endpoint, the SDK default chain for AWS. */
  readonly credentials?: DynamoCredentials;
  /** The AWS profile the credentials come from, when any (used in fix hints such as `aws sso login`). */
  readonly profile?: string;
  /**
   * SDK attempts per request. Defaults to 1: the scanner and lookup retry themselves
   * (dynamo/retry.ts) so that backoff, caps and progress stay under our control.
   */
  readonly maxAttempts?: number;
}

/** Adds middleware to a new client's stack, e.g. `(stack) => stack.add(fn, { step: 'initialize', name: 'faults' })` (tests inject faults this way). */
export type ClientMiddleware = (stack: DynamoDBClient['middlewareStack']) => void;

/** Options for createDynamoClient. */
export interface CreateClientOptions {
  readonly middleware?: readonly ClientMiddleware[];
  /** Environment to read (defaults to process.env); injectable for tests. */
  readonly env?: NodeJS.ProcessEnv;
  /** Network timeouts; default DEFAULT_TIMEOUTS (tests shorten them to prove a stalled endpoint ends the call). */
  readonly timeouts?: ClientTimeouts;
}

/** How long a request may wait on the network before it fails with a (retryable) TimeoutError. */
export interface ClientTimeouts {
  /** To establish the TCP connection. */
  readonly connectMs: number;
  /** Of silence on an open socket (no bytes either way). */
  readonly idleMs: number;
}

/**
 * Without these the SDK waits forever on an endpoint that accepts the connection but never answers
 * (a hung proxy, a stopped-but-not-dead JVM): an audit would neither finish nor say it is incomplete.
 */
export const DEFAULT_TIMEOUTS: ClientTimeouts = { connectMs: 10_000, idleMs: 60_000 };

/** Dummy credentials for DynamoDB Local: letters only, as DynamoDB Local requires. */
export const DUMMY_CREDENTIALS: StaticCredentials = { accessKeyId: 'locksmith', secretAccessKey: 'locksmith' };

/** Where an effective endpoint comes from: the target itself, an environment variable, the profile's config, or AWS's default. */
export type EndpointOrigin =
  'target' | 'AWS_ENDPOINT_URL_DYNAMODB' | 'AWS_ENDPOINT_URL' | 'profile-services' | 'profile-endpoint_url' | 'aws';

/** The profile whose configured endpoint applies: the target's, else AWS_PROFILE, else `default` (the SDK's own choice). */
const endpointProfile = (target: DynamoTarget, env: NodeJS.ProcessEnv): string => target.profile ?? (env.AWS_PROFILE || 'default');

/**
 * The endpoint requests go to, by the SDK's configured-endpoint precedence: an explicit endpoint,
 * else AWS_ENDPOINT_URL_DYNAMODB, else AWS_ENDPOINT_URL, else the profile's `services` section,
 * else its `endpoint_url`; all but the first switched off by AWS_IGNORE_CONFIGURED_ENDPOINT_URLS
 * (or the profile's `ignore_configured_endpoint_urls`). clientConfig sends requests exactly here.
 */
export function effectiveEndpoint(target: DynamoTarget, env: NodeJS.ProcessEnv = process.env): { url?: string; source: EndpointOrigin } {
  if (target.endpoint) return { url: target.endpoint, source: 'target' };
  const configured = profileEndpoint(endpointProfile(target, env), env);
  // As in the SDK: the environment variable, when set to true/false, decides before the profile's setting.
  const flag = env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS;
  const ignore = flag === 'true' || flag === 'false' ? flag === 'true' : configured.ignore;
  if (ignore) return { source: 'aws' };
  if (env.AWS_ENDPOINT_URL_DYNAMODB) return { url: env.AWS_ENDPOINT_URL_DYNAMODB, source: 'AWS_ENDPOINT_URL_DYNAMODB' };
  if (env.AWS_ENDPOINT_URL) return { url: env.AWS_ENDPOINT_URL, source: 'AWS_ENDPOINT_URL' };
  if (configured.url) return { url: configured.url, source: configured.from === 'services' ? 'profile-services' : 'profile-endpoint_url' };
  return { source: 'aws' };
}

/** True when the target talks to something other than AWS (DynamoDB Local, a proxy). */
export function isLocalTarget(target: DynamoTarget, env: NodeJS.ProcessEnv = process.env): boolean {
  return effectiveEndpoint(target, env).url !== undefined;
}

/** Default parallel scan segments: DynamoDB Local gains little past 4 on a small box; AWS scales further. */
export function defaultSegments(target: DynamoTarget, env: NodeJS.ProcessEnv = process.env): number {
  return isLocalTarget(target, env) ? 4 : 8;
}

/**
 * Credentials for an endpoint target without explicit credentials. DynamoDB Local without
 * `-sharedDb` keeps one database per access key + region, so the user's env keys must win
 * over our dummy ones or they would see an empty table list.
 */
export function endpointCredentials(env: NodeJS.ProcessEnv = process.env): StaticCredentials {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (accessKeyId && secretAccessKey) {
    return env.AWS_SESSION_TOKEN ? { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN } : { accessKeyId, secretAccessKey };
  }
  return DUMMY_CREDENTIALS;
}

/** The SDK configuration for a target (exported for tests; use createDynamoClient). */
export function clientConfig(
  target: DynamoTarget,
  env: NodeJS.ProcessEnv = process.env,
  timeouts: ClientTimeouts = DEFAULT_TIMEOUTS,
): DynamoDBClientConfig {
  const config: DynamoDBClientConfig = {
    region: target.region,
    maxAttempts: target.maxAttempts ?? 1,
    // The SDK's protocol with a leaner decode of Scan pages (scan-protocol.ts); errors decode as before.
    protocol: LeanScanProtocol,
    requestHandler: { connectionTimeout: timeouts.connectMs, socketTimeout: timeouts.idleMs },
  };
  if (target.endpoint) {
    config.endpoint = target.endpoint;
    config.credentials = target.credentials ?? endpointCredentials(env);
    return config;
  }
  if (target.credentials) config.credentials = target.credentials;
  else if (target.profile) config.profile = target.profile;
  // The SDK reads configured endpoints from AWS_PROFILE/default whatever the client's profile, so
  // it could send a profile's requests elsewhere than the label says: resolve here, switch its own off.
  const endpoint = effectiveEndpoint(target, env).url;
  if (endpoint !== undefined) config.endpoint = endpoint;
  config.ignoreConfiguredEndpointUrls = true;
  return config;
}

/** A DynamoDB client for the target, with optional extra middleware (fault injection in tests). */
export function createDynamoClient(target: DynamoTarget, options: CreateClientOptions = {}): DynamoDBClient {
  const client = new DynamoDBClient(clientConfig(target, options.env, options.timeouts));
  for (const add of options.middleware ?? []) add(client.middlewareStack);
  return client;
}
