/** What the connection registry needs (settings, sandbox, MFA broker), the connection it resolves to, and its fixed names. */
import type { ConnectionView } from '../../../shared/contract/views';
import type { AppError } from '../../../shared/result';
import type { DynamoTarget } from '../dynamo/client';
import type { SignInLimits } from './credentials';
import type { MfaBroker } from './mfa-broker';
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
