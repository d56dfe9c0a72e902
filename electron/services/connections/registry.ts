/**
 * The connection registry: the sandbox, saved local endpoints and AWS profiles, each with its
 * effective endpoint and region, write mode and status — and the DynamoTarget to talk to it.
 * The listing is connection-list.ts, the run's memory connection-store.ts, the rules endpoint-policy.ts;
 * here the operations put them together with the saved settings.
 */
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import type { ConnectionView, ConnectionsView } from '../../../shared/contract/views';
import type { AppError, Result } from '../../../shared/result';
import type { ConnectionState, CredentialSource } from '../../../shared/domain';
import { err, ok } from '../../../shared/result';
import { envRegion, listConnections, type ListDeps } from './connection-list';
import { createConnectionStore } from './connection-store';
import { endpointRefusal, labelNamesAnotherHost, unusableReason, writeConfirmRefusal } from './endpoint-policy';
import { loadProfiles, presentCredentialEnv, sharedFilePaths } from './profiles';
import { SUGGESTED_ENDPOINT, type RegistryOptions, type ResolvedConnection } from './registry-types';

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

/** Creates the registry. Profiles are re-read on every list, so edits to ~/.aws show up without a restart. */
export function createConnectionRegistry(options: RegistryOptions): ConnectionRegistry {
  const env = options.env ?? process.env;
  const store = createConnectionStore(options, env);
  const deps: ListDeps = { options, env, store };

  async function find(id: string): Promise<Result<ResolvedConnection>> {
    const found = (await listConnections(deps)).views.find((connection) => connection.view.id === id);
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
      const { views, warnings, selectedId } = await listConnections(deps);
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
      const unusable = unusableReason(found.value.view, options.sandbox.state() === 'running');
      return unusable ? { ok: false, error: unusable } : found;
    },
    async select(id) {
      const found = await view(id);
      if (!found.ok) return found;
      await options.settings.update((s) => ({ ...s, selectedId: id }));
      return found;
    },
    async addEndpoint(input, origin) {
      const id = `endpoint:${randomUUID().slice(0, 8)}`;
      const region = input.region ?? envRegion(env).region;
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
      if (commandLine) store.markTyped(id);
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
      store.forgetState(id);
      return ok(await registry.list());
    },
    async setRegion(id, region) {
      const found = await view(id);
      if (!found.ok) return found;
      if (found.value.kind === 'sandbox') return err('validation', 'The sandbox region is fixed.', { field: 'region' });
      await options.settings.update((s) => ({ ...s, regions: { ...s.regions, [id]: region } }));
      store.forgetState(id);
      return view(id);
    },
    async setWritable(id, writable, confirm) {
      const found = await view(id);
      if (!found.ok) return found;
      const refused = writeConfirmRefusal(found.value, writable, confirm);
      if (refused) return err('validation', refused, { field: 'confirm' });
      await options.settings.update((s) => ({ ...s, writable: { ...s.writable, [id]: writable } }));
      return view(id);
    },
    typedOnCommandLine(id) {
      store.markTyped(id);
    },
    markState(id, state, error) {
      store.setState(id, state, error);
      // Expired or unknown keys (ExpiredToken, InvalidClientTokenId, …): the next call reads the profile again.
      if (error && (error.kind === 'credentials' || error.kind === 'sso-expired')) store.forgetKeys(id);
    },
  };
  return registry;
}
