/**
 * The connection registry: the sandbox, saved local endpoints and AWS profiles, each with its
 * effective endpoint and region, write mode and status — and the DynamoTarget to talk to it.
 */
import { randomUUID } from 'node:crypto';
import type { ConnectionView, ConnectionsView } from '../../../shared/contract/views';
import type { ConnectionState, CredentialSource, EndpointSource } from '../../../shared/domain';
import { endpointHost, endpointTrust, writableByDefault } from '../../../shared/endpoint-trust';
import type { AppError, Result } from '../../../shared/result';
import { assertNever, err, ok } from '../../../shared/result';
import type { DynamoTarget, EndpointOrigin } from '../dynamo/client';
import { DUMMY_CREDENTIALS, effectiveEndpoint } from '../dynamo/client';
import type { DynamoCredentials } from '../dynamo/client';
import type { MemoizedCredentials, SignInLimits } from './credentials';
import { memoizeCredentials, profileCredentialsWithSso, sharedFilesStamp } from './credentials';
import type { MfaBroker } from './mfa-broker';
import type { ProfileInfo } from './profiles';
import { loadProfiles, presentCredentialEnv, sharedFilePaths } from './profiles';
import { homedir } from 'node:os';
import type { SettingsStore } from './settings-store';

/** The endpoint offered when adding a local endpoint. */
export const SUGGESTED_ENDPOINT = 'http://localhost:8000';
/** The sandbox's connection id. */
export const SANDBOX_ID = 'sandbox';

/** What the registry needs to know about the sandbox. */
export interface SandboxProbe {
  state(): 'stopped' | 'starting' | 'running' | 'error';
  endpoint(): string | undefined;
  error(): AppError | undefined;
  readonly region: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** A connection ready to use: what to show, whether writes are allowed, and the SDK target. */
export interface ResolvedConnection {
  readonly view: ConnectionView;
  readonly target: DynamoTarget;
}

/** The registry's operations (one per bridge method, plus `resolve` for the data services). */
export interface ConnectionRegistry {
  list(): Promise<ConnectionsView>;
  get(id: string): Promise<Result<ConnectionView>>;
  resolve(id: string): Promise<Result<ResolvedConnection>>;
  select(id: string): Promise<Result<ConnectionView>>;
  /**
   * Saves an endpoint connection. `origin: 'command-line'` only from `serve --endpoint` (never from
   * the bridge, whose handler passes the page's arguments alone): see endpointRefusal. That trust
   * lasts for this run only.
   */
  addEndpoint(
    input: { endpoint: string; region?: string; label?: string; credentials?: CredentialSource },
    origin?: 'command-line',
  ): Promise<Result<ConnectionView>>;
  remove(id: string): Promise<Result<ConnectionsView>>;
  setRegion(id: string, region: string): Promise<Result<ConnectionView>>;
  setWritable(id: string, writable: boolean, confirm?: string): Promise<Result<ConnectionView>>;
  /** `serve --endpoint` named a saved endpoint again: for this run it may sign with the keys it was saved with (see addEndpoint). */
  typedOnCommandLine(id: string): void;
  /** Records the outcome of a check or of a failed call. */
  markState(id: string, state: ConnectionState, error?: AppError): void;
}

/** Dependencies of the registry. */
export interface RegistryOptions {
  readonly settings: SettingsStore;
  readonly sandbox: SandboxProbe;
  readonly broker: MfaBroker;
  readonly env?: NodeJS.ProcessEnv;
  readonly home?: string;
  /** Timeouts and deadline of a profile's sign-in (tests shorten them). */
  readonly signInLimits?: SignInLimits;
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

/** Creates the registry. Profiles are re-read on every list, so edits to ~/.aws show up without a restart. */
export function createConnectionRegistry(options: RegistryOptions): ConnectionRegistry {
  const env = options.env ?? process.env;
  const states = new Map<string, { state: ConnectionState; error?: AppError }>();
  // Endpoints typed on this run's command line beside the keys they sign with: never saved, so a later
  // launch (from a shell holding other, real keys) does not inherit the trust.
  const typedThisRun = new Set<string>();
  // One provider per profile for the app's lifetime: MFA and SSO prompts happen once, not per call;
  // it reads the profile again when the shared files change, and after the service rejects its keys.
  const providers = new Map<string, MemoizedCredentials>();
  const credentialsFor = (profile: string) => {
    let provider = providers.get(profile);
    if (!provider) {
      const stamp = () => sharedFilesStamp(env, options.home);
      providers.set(
        profile,
        (provider = memoizeCredentials(
          profileCredentialsWithSso(profile, options.broker, env, options.home, options.signInLimits),
          Date.now,
          { stamp },
        )),
      );
    }
    return provider;
  };
  // The profile each saved endpoint signs with, as of the last listing: its keys are dropped when the endpoint rejects them.
  const endpointProfiles = new Map<string, string>();
  const envRegion = (): { region: string; from?: string } =>
    env.AWS_REGION
      ? { region: env.AWS_REGION, from: 'AWS_REGION' }
      : env.AWS_DEFAULT_REGION
        ? { region: env.AWS_DEFAULT_REGION, from: 'AWS_DEFAULT_REGION' }
        : { region: 'us-east-1' };

  async function all(): Promise<{ views: ResolvedConnection[]; warnings: string[]; selectedId: string | null }> {
    const settings = await options.settings.read();
    const catalog = await loadProfiles(env, options.home);
    const views: ResolvedConnection[] = [];
    const stateOf = (id: string) => states.get(id) ?? { state: 'unknown' as const };

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
        state:
          sandboxState === 'running' ? 'ok' : sandboxState === 'starting' ? 'starting' : sandboxState === 'error' ? 'error' : 'stopped',
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
      if (source.source === 'profile') endpointProfiles.set(entry.id, source.profile);
      else endpointProfiles.delete(entry.id);
      // DynamoDB Local keeps one database per access key + region: the env variables matter only when the connection signs with them.
      const overrides =
        source.source === 'env'
          ? presentCredentialEnv(env).filter(
              (name) => name.startsWith('AWS_ACCESS_KEY_ID') || name === 'AWS_SECRET_ACCESS_KEY' || name === 'AWS_SESSION_TOKEN',
            )
          : [];
      const refused = endpointRefusal(entry.endpoint, source, typedThisRun.has(entry.id));
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
          credentials: endpointSigner(source),
          ...(source.source === 'profile' ? { profile: source.profile } : {}),
        },
      });
    }

    for (const profile of catalog.profiles) views.push(profileConnection(profile, settings.regions, settings.writable, stateOf));
    return {
      views,
      warnings: [...catalog.warnings, ...(options.settings.warning() ? [options.settings.warning() as string] : [])],
      selectedId: settings.selectedId,
    };
  }

  function profileConnection(
    profile: ProfileInfo,
    regions: Readonly<Record<string, string>>,
    writable: Readonly<Record<string, boolean>>,
    stateOf: (id: string) => { state: ConnectionState; error?: AppError },
  ): ResolvedConnection {
    const id = `profile:${profile.name}`;
    const fallback = envRegion();
    const region = regions[id] ?? profile.region ?? fallback.region;
    const target: DynamoTarget = {
      label: `profile ${profile.name}`,
      region,
      profile: profile.name,
      credentials: credentialsFor(profile.name),
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
    const state = problem ? { state: 'error' as const, error: problem } : stateOf(id);
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
  function endpointSigner(source: CredentialSource): DynamoCredentials {
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
        return credentialsFor(source.profile);
      default:
        return assertNever(source);
    }
  }

  async function find(id: string): Promise<Result<ResolvedConnection>> {
    const found = (await all()).views.find((connection) => connection.view.id === id);
    return found
      ? ok(found)
      : err('not-found', `No connection ${id}.`, { fix: 'Pick a connection from the list; profiles come from your AWS config files.' });
  }

  const view = async (id: string): Promise<Result<ConnectionView>> => {
    const found = await find(id);
    return found.ok ? ok(found.value.view) : found;
  };

  const registry: ConnectionRegistry = {
    async list() {
      const { views, warnings, selectedId } = await all();
      const files = sharedFilePaths(env, options.home);
      const home = options.home ?? homedir();
      // Paths as people write them: the home folder as `~` (a path is not a secret, but it need not be longer than it is).
      const profileFiles = [files.config, files.credentials].map((f) =>
        home !== '' && f.startsWith(`${home}/`) ? `~${f.slice(home.length)}` : f,
      );
      return {
        connections: views.map((c) => c.view),
        selectedId,
        warnings,
        envCredentials: presentCredentialEnv(env),
        suggestedEndpoint: SUGGESTED_ENDPOINT,
        profileFiles,
      };
    },
    get: view,
    async resolve(id) {
      const found = await find(id);
      if (!found.ok) return found;
      if (
        found.value.view.kind === 'endpoint' &&
        found.value.view.error &&
        found.value.view.state === 'error' &&
        found.value.view.error.kind === 'credentials'
      ) {
        return { ok: false, error: found.value.view.error };
      }
      if (found.value.view.kind === 'sandbox' && options.sandbox.state() !== 'running') {
        return err('unreachable', 'The sandbox is not running.', { fix: 'Start the sandbox from the connections list.' });
      }
      if (
        found.value.view.error &&
        found.value.view.kind === 'profile' &&
        found.value.view.state === 'error' &&
        found.value.view.error.kind === 'credentials'
      ) {
        return { ok: false, error: found.value.view.error };
      }
      return found;
    },
    async select(id) {
      const found = await view(id);
      if (!found.ok) return found;
      await options.settings.update((s) => ({ ...s, selectedId: id }));
      return found;
    },
    async addEndpoint(input, origin) {
      const id = `endpoint:${randomUUID().slice(0, 8)}`;
      const region = input.region ?? envRegion().region;
      const credentials = input.credentials ?? { source: 'dummy' as const };
      const commandLine = origin === 'command-line';
      const refused = endpointRefusal(input.endpoint, credentials, commandLine);
      if (refused) return { ok: false, error: refused };
      const label = input.label ?? input.endpoint;
      const misleading = labelNamesAnotherHost(label, input.endpoint);
      if (misleading) return err('validation', misleading, { field: 'label' });
      if (
        credentials.source === 'profile' &&
        !(await loadProfiles(env, options.home)).profiles.some((p) => p.name === credentials.profile)
      ) {
        return err('validation', `No profile ${credentials.profile} in your AWS config files.`, { field: 'credentials' });
      }
      if (commandLine) typedThisRun.add(id);
      await options.settings.update((s) => ({
        ...s,
        endpoints: [...s.endpoints, { id, endpoint: input.endpoint, region, label, credentials }],
      }));
      return view(id);
    },
    async remove(id) {
      const settings = await options.settings.read();
      if (!settings.endpoints.some((entry) => entry.id === id)) {
        return err('validation', 'Only local endpoints you added can be removed.', { field: 'id' });
      }
      await options.settings.update((s) => {
        const { [id]: _region, ...regions } = s.regions;
        const { [id]: _writable, ...writable } = s.writable;
        return {
          ...s,
          endpoints: s.endpoints.filter((e) => e.id !== id),
          regions,
          writable,
          selectedId: s.selectedId === id ? null : s.selectedId,
        };
      });
      states.delete(id);
      return ok(await registry.list());
    },
    async setRegion(id, region) {
      const found = await view(id);
      if (!found.ok) return found;
      if (found.value.kind === 'sandbox') return err('validation', 'The sandbox region is fixed.', { field: 'region' });
      await options.settings.update((s) => ({ ...s, regions: { ...s.regions, [id]: region } }));
      states.delete(id);
      return view(id);
    },
    async setWritable(id, writable, confirm) {
      const found = await view(id);
      if (!found.ok) return found;
      if (writable && found.value.kind === 'profile' && confirm !== found.value.label) {
        return err('validation', `To allow writes through profile ${found.value.label}, type the profile name.`, { field: 'confirm' });
      }
      if (writable && found.value.kind === 'endpoint' && found.value.writeConfirm !== undefined && confirm !== found.value.writeConfirm) {
        return err(
          'validation',
          `${found.value.endpoint ?? 'This endpoint'} is not on this machine: to allow writes, type its host ${found.value.writeConfirm}.`,
          { field: 'confirm' },
        );
      }
      await options.settings.update((s) => ({ ...s, writable: { ...s.writable, [id]: writable } }));
      return view(id);
    },
    typedOnCommandLine(id) {
      typedThisRun.add(id);
    },
    markState(id, state, error) {
      states.set(id, error ? { state, error } : { state });
      // Expired or unknown keys (ExpiredToken, InvalidClientTokenId, …): the next call reads the profile again.
      if (error && (error.kind === 'credentials' || error.kind === 'sso-expired')) {
        const profile = id.startsWith('profile:') ? id.slice('profile:'.length) : endpointProfiles.get(id);
        if (profile !== undefined) providers.get(profile)?.forget();
      }
    },
  };
  return registry;
}

/**
 * Why an endpoint cannot be used with a credential source. AWS's own endpoints are reached only
 * through a profile (never with dummy keys or whatever the environment holds). A host that is
 * neither AWS nor this machine never receives a signature made with real keys (a profile's or the
 * environment's: their key id, session token and signed requests) unless the user typed that
 * endpoint on the command line beside those keys — the page cannot point real keys at any host.
 */
export function endpointRefusal(endpoint: string, credentials: CredentialSource, typedOnCommandLine = false): AppError | undefined {
  const trust = endpointTrust(endpoint);
  const host = endpointHost(endpoint) ?? endpoint;
  if (trust === 'aws' && credentials.source !== 'profile') {
    return {
      kind: 'credentials',
      message: `${host} is AWS itself: it is reached only through an AWS profile.`,
      fix: 'Pick the profile from the list (or add the endpoint with "sign with: profile").',
    };
  }
  if (trust === 'remote' && credentials.source !== 'dummy' && !typedOnCommandLine) {
    const keys = credentials.source === 'env' ? "the environment's keys" : `profile ${credentials.profile}'s keys`;
    return {
      kind: 'credentials',
      message: `${host} is neither AWS nor this machine: it is not sent requests signed with ${keys}.`,
      fix: 'Sign with dummy keys (a DynamoDB Local elsewhere accepts them), or start Locksmith with `--endpoint` and the keys in its environment if you mean it.',
    };
  }
  return undefined;
}

/** A label that reads like an address must name the endpoint's own host (a label is what people trust). */
export function labelNamesAnotherHost(label: string, endpoint: string): string | undefined {
  const looksLikeAddress =
    /^[a-z][a-z0-9+.-]*:\/\//i.test(label) || /^[\w.-]+:\d+$/.test(label) || /^(localhost|127\.|\[?::1)/i.test(label);
  if (!looksLikeAddress) return undefined;
  const host = endpointHost(endpoint);
  const named = endpointHost(/:\/\//.test(label) ? label : `http://${label}`);
  return named === host
    ? undefined
    : `The label ${JSON.stringify(label)} reads like another address than ${endpoint}; use a plain name or the endpoint's own host.`;
}
