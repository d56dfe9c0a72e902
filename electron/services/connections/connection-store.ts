/**
 * What the registry remembers for this run only: each connection's last observed state, the endpoints
 * typed on the command line, and one credentials provider per profile.
 */
import type { ConnectionState } from '../../../shared/domain';
import type { AppError } from '../../../shared/result';
import type { MemoizedCredentials } from './credentials';
import { memoizeCredentials, profileCredentialsWithSso, sharedFilesStamp } from './credentials';
import type { RegistryOptions } from './registry-types';

/** A connection's state as last observed (unknown until something is tried). */
export interface ObservedState {
  readonly state: ConnectionState;
  readonly error?: AppError;
}

/** The registry's run-time memory (see createConnectionStore). */
export interface ConnectionStore {
  stateOf(id: string): ObservedState;
  setState(id: string, state: ConnectionState, error?: AppError): void;
  forgetState(id: string): void;
  /** The provider of a profile's credentials, made once per profile. */
  credentialsFor(profile: string): MemoizedCredentials;
  /** The profile a saved endpoint signs with as of the last listing (undefined: it signs otherwise). */
  noteEndpointProfile(id: string, profile: string | undefined): void;
  /** Drops the cached keys a connection signs with, so the next call reads its profile again. */
  forgetKeys(id: string): void;
  markTyped(id: string): void;
  typedThisRun(id: string): boolean;
}

/** Creates the run-time memory of a registry. */
export function createConnectionStore(options: RegistryOptions, env: NodeJS.ProcessEnv): ConnectionStore {
  const states = new Map<string, ObservedState>();
  // Endpoints typed on this run's command line beside the keys they sign with: never saved, so a later
  // launch (from a shell holding other, real keys) does not inherit the trust.
  const typed = new Set<string>();
  // One provider per profile for the app's lifetime: MFA and SSO prompts happen once, not per call;
  // it reads the profile again when the shared files change, and after the service rejects its keys.
  const providers = new Map<string, MemoizedCredentials>();
  // The profile each saved endpoint signs with, as of the last listing: its keys are dropped when the endpoint rejects them.
  const endpointProfiles = new Map<string, string>();
  return {
    stateOf: (id) => states.get(id) ?? { state: 'unknown' },
    setState: (id, state, error) => void states.set(id, error ? { state, error } : { state }),
    forgetState: (id) => void states.delete(id),
    credentialsFor(profile) {
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
    },
    noteEndpointProfile(id, profile) {
      if (profile === undefined) endpointProfiles.delete(id);
      else endpointProfiles.set(id, profile);
    },
    forgetKeys(id) {
      const profile = id.startsWith('profile:') ? id.slice('profile:'.length) : endpointProfiles.get(id);
      if (profile !== undefined) providers.get(profile)?.forget();
    },
    markTyped: (id) => void typed.add(id),
    typedThisRun: (id) => typed.has(id),
  };
}
