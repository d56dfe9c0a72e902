/** Errors are values across the bridge: Result<T, AppError>, tagged by `kind`. */

/** Every kind of error a service can return; the UI and CLI switch on `kind`. */
export type AppErrorKind =
  | 'validation'
  | 'credentials'
  | 'sso-expired'
  | 'mfa-required'
  | 'throttled'
  | 'not-found'
  | 'conflict'
  | 'read-only'
  | 'unreachable'
  | 'cancelled'
  | 'java-missing'
  | 'aws'
  | 'internal';

/** A human-readable error; `fix` is the command or step that resolves it, when one exists. */
export interface AppError {
  readonly kind: AppErrorKind;
  readonly message: string;
  readonly fix?: string;
  /** For validation errors: the path of the bad field, e.g. `rules[0].attribute`. */
  readonly field?: string;
  /** `unknown`: a write that failed after it may have reached DynamoDB — it may have been applied. */
  readonly outcome?: 'unknown';
}

/** Success or failure, never thrown across the bridge. */
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

/** Wraps a value as a successful Result. */
export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

/** Wraps an error as a failed Result. */
export const err = <T = never>(kind: AppErrorKind, message: string, extra: { fix?: string; field?: string } = {}): Result<T> => ({
  ok: false,
  error: { kind, message, ...extra },
});

/** Exhaustiveness guard for switches over tagged unions. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
