/** The registry's listing: each connection's view (endpoint, region, write mode, state) beside the SDK target to reach it. */
import type { CredentialSource, EndpointSource } from '../../../shared/domain';
import { endpointHost, endpointTrust, writableByDefault } from '../../../shared/endpoint-trust';
import type { AppError } from '../../../shared/result';
import { assertNever } from '../../../shared/result';
import type { DynamoCredentials, DynamoTarget, EndpointOrigin } from '../dynamo/client';
import { DUMMY_CREDENTIALS, effectiveEndpoint } from '../dynamo/client';
import type { ConnectionStore } from './connection-store';
import { endpointRefusal } from './endpoint-policy';
import type { ProfileInfo } from './profiles';
import { loadProfiles, presentCredentialEnv } from './profiles';
import { SANDBOX_ID, type RegistryOptions, type ResolvedConnection } from './registry-types';

/** What a listing reads: the registry's dependencies, the environment, and the run's connection state. */
export interface ListDeps {
  readonly options: RegistryOptions;
  readonly env: NodeJS.ProcessEnv;
  readonly store: ConnectionStore;
}

/** Every connection, the config files' warnings, and the saved selection. */
export interface ConnectionList {
  readonly views: ResolvedConnection[];
  readonly warnings: string[];
  readonly selectedId: string | null;
}

/** The region a connection without its own takes, and the variable it came from. */
export function envRegion(env: NodeJS.ProcessEnv): { region: string; from?: string } {
  return env.AWS_REGION
    ? { region: env.AWS_REGION, from: 'AWS_REGION' }
    : env.AWS_DEFAULT_REGION
      ? { region: env.AWS_DEFAULT_REGION, from: 'AWS_DEFAULT_REGION' }
      : { region: 'us-east-1' };
}

/** The view's label for where a profile's endpoint comes from (a target endpoint never occurs for profiles). */
function endpointSourceOf(origin: EndpointOrigin): EndpointSource {
  switch (origin) {
    case 'AWS_ENDPOINT_URL_DYNAMODB':
    case 'AWS_ENDPOINT_URL':
      return 'env';
    case 'profile-services':
    case 'profile-endpoint_url':
      return origin;
    case 'target':
      return 'connection';
    case 'aws':
      return 'aws-default';
    default:
      return assertNever(origin);
  }
}

/** Every connection as of now: the sandbox, the saved endpoints, then the profiles of the shared files (re-read on every call). */
export async function listConnections(deps: ListDeps): Promise<ConnectionList> {
  const { options, env, store } = deps;
  const settings = await options.settings.read();
  const catalog = await loadProfiles(env, options.home);
  const views: ResolvedConnection[] = [];
  const stateOf = store.stateOf;

  const sandboxState = options.sandbox.state();
  const sandboxEndpoint = options.sandbox.endpoint();
  const sandboxError = options.sandbox.error();
  views.push({
    view: {
      id: SANDBOX_ID,
      label: 'Sandbox (bundled DynamoDB Local)',
      kind: 'sandbox',
      region: options.sandbox.region,
      endpoint: sandboxEndpoint ?? null,
      endpointSource: 'connection',
      writable: settings.writable[SANDBOX_ID] ?? true,
      state: sandboxState === 'running' ? 'ok' : sandboxState === 'starting' ? 'starting' : sandboxState === 'error' ? 'error' : 'stopped',
      ...(sandboxError ? { error: sandboxError } : {}),
      envOverrides: [],
      credentials: { source: 'sandbox' },
      trust: 'loopback',
    },
    target: {
      label: 'sandbox',
      endpoint: sandboxEndpoint ?? 'http://127.0.0.1:0',
      region: options.sandbox.region,
      credentials: { ...options.sandbox.credentials },
    },
  });

  for (const entry of settings.endpoints) {
    const region = settings.regions[entry.id] ?? entry.region;
    const trust = endpointTrust(entry.endpoint);
    const source = entry.credentials;
    store.noteEndpointProfile(entry.id, source.source === 'profile' ? source.profile : undefined);
    // DynamoDB Local keeps one database per access key + region: the env variables matter only when the connection signs with them.
    const overrides =
      source.source === 'env'
        ? presentCredentialEnv(env).filter(
            (name) => name.startsWith('AWS_ACCESS_KEY_ID') || name === 'AWS_SECRET_ACCESS_KEY' || name === 'AWS_SESSION_TOKEN',
          )
        : [];
    const refused = endpointRefusal(entry.endpoint, source, store.typedThisRun(entry.id));
    const host = endpointHost(entry.endpoint) ?? entry.endpoint;
    views.push({
      view: {
        id: entry.id,
        label: entry.label,
        kind: 'endpoint',
        region,
        endpoint: entry.endpoint,
        endpointSource: 'connection',
        // Another machine may be a real database: read-only until its host is typed back.
        writable: settings.writable[entry.id] ?? writableByDefault({ endpoint: entry.endpoint }),
        ...(refused ? { state: 'error' as const, error: refused } : stateOf(entry.id)),
        envOverrides: overrides,
        credentials: source,
        trust,
        ...(trust === 'loopback' ? {} : { writeConfirm: host }),
      },
      target: {
        label: entry.endpoint,
        endpoint: entry.endpoint,
        region,
        credentials: endpointSigner(source, env, store),
        ...(source.source === 'profile' ? { profile: source.profile } : {}),
      },
    });
  }

  for (const profile of catalog.profiles) views.push(profileConnection(deps, profile, settings.regions, settings.writable));
  return {
    views,
    warnings: [...catalog.warnings, ...(options.settings.warning() ? [options.settings.warning() as string] : [])],
    selectedId: settings.selectedId,
  };
}

/** A profile's connection: its region and endpoint as the SDK will resolve them, and the variables that change them. */
function profileConnection(
  { env, store }: ListDeps,
  profile: ProfileInfo,
  regions: Readonly<Record<string, string>>,
  writable: Readonly<Record<string, boolean>>,
): ResolvedConnection {
  const id = `profile:${profile.name}`;
  const fallback = envRegion(env);
  const region = regions[id] ?? profile.region ?? fallback.region;
  const target: DynamoTarget = {
    label: `profile ${profile.name}`,
    region,
    profile: profile.name,
    credentials: store.credentialsFor(profile.name),
  };
  const endpoint = effectiveEndpoint(target, env);
  const fromEnv = endpoint.source === 'AWS_ENDPOINT_URL_DYNAMODB' || endpoint.source === 'AWS_ENDPOINT_URL';
  const ignoreFlag = env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS;
  const overrides = [
    ...(fromEnv ? [endpoint.source] : []),
    // Set to true/false it decides whether env and profile endpoints count at all.
    ...(ignoreFlag === 'true' || ignoreFlag === 'false' ? ['AWS_IGNORE_CONFIGURED_ENDPOINT_URLS'] : []),
    ...(!regions[id] && !profile.region && fallback.from ? [fallback.from] : []),
  ];
  const problem: AppError | undefined = profile.problem
    ? { kind: 'credentials', message: `profile ${profile.name}: ${profile.problem}`, fix: 'Fix source_profile in your AWS config file.' }
    : undefined;
  const state = problem ? { state: 'error' as const, error: problem } : store.stateOf(id);
  return {
    view: {
      id,
      label: profile.name,
      kind: 'profile',
      profileKind: profile.kind,
      region,
      endpoint: endpoint.url ?? null,
      endpointSource: endpointSourceOf(endpoint.source),
      writable: writable[id] ?? writableByDefault({ profile: profile.name, endpoint: endpoint.url }),
      ...state,
      envOverrides: overrides,
    },
    target,
  };
}

/** The credentials an endpoint signs with: exactly the source the user picked, never a fallback to the environment. */
function endpointSigner(source: CredentialSource, env: NodeJS.ProcessEnv, store: ConnectionStore): DynamoCredentials {
  switch (source.source) {
    case 'dummy':
      return { ...DUMMY_CREDENTIALS };
    case 'env':
      return async () => {
        const accessKeyId = env.AWS_ACCESS_KEY_ID;
        const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
        if (!accessKeyId || !secretAccessKey)
          throw Object.assign(
            new Error("this endpoint signs with the environment's keys, but AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY are not set"),
            { name: 'CredentialsProviderError' },
          );
        return env.AWS_SESSION_TOKEN
          ? { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN }
          : { accessKeyId, secretAccessKey };
      };
    case 'profile':
      return store.credentialsFor(source.profile);
    default:
      return assertNever(source);
  }
}
