/** Mapping SDK and network errors to AppError, with credentials scrubbed from every message. */
import type { AppError } from '../../../shared/result';
import { scrubSecrets } from './secrets';

/** What we know about the request that failed, to make the message useful. */
export interface ErrorContext {
  readonly table?: string;
  readonly profile?: string;
  /** The endpoint in use, for "cannot reach …" messages. */
  readonly endpoint?: string;
  /** Secret strings to remove from messages (e.g. static keys of the target). */
  readonly secrets?: readonly string[];
}

/** The fields of SDK and Node errors we look at; everything is optional because anything can be thrown. */
interface ErrorShape {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly code?: unknown;
  readonly $fault?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: number };
  readonly cause?: unknown;
}

const THROTTLE_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'LimitExceededException',
]);

const TRANSIENT_NAMES = new Set([
  'InternalServerError',
  'InternalFailure',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);

/** Network codes worth a retry: the connection dropped mid-request (ECONNREFUSED is not: nothing is listening). */
const TRANSIENT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** Network codes meaning the endpoint cannot be reached at all. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** True for a network code of a connection that could not be made or was lost. */
export function isConnectionFailure(code: string): boolean {
  return UNREACHABLE_CODES.has(code) || TRANSIENT_CODES.has(code);
}

const CREDENTIAL_NAMES = new Set([
  'CredentialsProviderError',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'ExpiredTokenException',
  'ExpiredToken',
  'MissingAuthenticationTokenException',
  'InvalidClientTokenId',
  'IncompleteSignatureException',
  'TokenProviderError',
]);

function shape(error: unknown): ErrorShape {
  return typeof error === 'object' && error !== null ? (error as ErrorShape) : { message: String(error) };
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The Node error code of the error or of its cause chain (the SDK wraps socket errors). */
export function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = str(shape(current).code);
    if (code) return code;
    current = shape(current).cause;
  }
  return undefined;
}

/** The credentials helper's sign-in failures (connections/credentials.ts), by name. */
const SIGN_IN_FAILURES = new Set(['SignInTimeoutError', 'SignInUnreachableError']);

/** Connection failures that can happen after the request was written to the socket. */
const AFTER_SEND_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);

/**
 * Whether a failed request may still have been carried out by DynamoDB: the connection dropped or
 * timed out after the request could have been sent (reset, broken pipe, "socket hang up", the
 * SDK's TimeoutError), or the answer was a 5xx, which DynamoDB documents as "may or may not have
 * succeeded". Anything else — a 4xx, a connection never made, credentials that failed before the
 * request was signed — is a request that did nothing.
 */
export function mayHaveBeenApplied(error: unknown): boolean {
  const s = shape(error);
  const status = (s as { $metadata?: { httpStatusCode?: unknown } }).$metadata?.httpStatusCode;
  // A 2xx whose body was then lost (the SDK keeps the status on the network error): DynamoDB carried the request out.
  if (typeof status === 'number') return status >= 500 || (status >= 200 && status < 300);
  // Signing in comes before the request is signed: whatever its network failure, nothing was sent.
  if (neverConnected(error) || SIGN_IN_FAILURES.has(str(s.name))) return false;
  const code = networkCode(error);
  return (code !== undefined && AFTER_SEND_CODES.has(code)) || str(s.name) === 'TimeoutError' || /socket hang up/i.test(str(s.message));
}

/**
 * A connection that was never made sent nothing: the OS's connect timeout or refusal (`syscall:
 * 'connect'`), or the SDK's connection timeout (a TimeoutError too, but "did not establish a connection").
 */
function neverConnected(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const s = shape(current) as ErrorShape & { syscall?: unknown };
    if (s.syscall === 'connect' || /did not establish a connection/i.test(str(s.message))) return true;
    current = s.cause;
  }
  return false;
}

/** True for an AbortSignal cancellation (our own or the SDK's AbortError). */
export function isAbortError(error: unknown): boolean {
  const name = str(shape(error).name);
  return name === 'AbortError' || networkCode(error) === 'ABORT_ERR';
}

/** True when DynamoDB asked us to slow down. */
export function isThrottle(error: unknown): boolean {
  return THROTTLE_NAMES.has(str(shape(error).name));
}

/** True when the same request may succeed if sent again after a pause (throttling, 5xx, dropped connection). */
export function isRetryable(error: unknown): boolean {
  if (isAbortError(error)) return false;
  const s = shape(error);
  const name = str(s.name);
  if (THROTTLE_NAMES.has(name) || TRANSIENT_NAMES.has(name)) return true;
  const code = networkCode(error);
  if (code && TRANSIENT_CODES.has(code)) return true;
  if (/socket hang up/i.test(str(s.message))) return true;
  const status = s.$metadata?.httpStatusCode;
  return s.$fault === 'server' || (typeof status === 'number' && status >= 500);
}

/** The SDK's SSO messages: "The SSO session associated with this profile has expired…", "Token is expired. To refresh this SSO session run 'aws sso login'…". */
function ssoExpired(message: string): boolean {
  return /\bsso\b/i.test(message) && /(expired|invalid|sso login)/i.test(message);
}

function appError(kind: AppError['kind'], message: string, fix?: string): AppError {
  return fix === undefined ? { kind, message } : { kind, message, fix };
}

/** Maps anything thrown by the SDK, a credential provider or the network to an AppError. */
export function toAppError(error: unknown, context: ErrorContext = {}): AppError {
  const s = shape(error);
  const name = str(s.name);
  const rawMessage = str(s.message) || name || 'unknown error';
  const message = scrubSecrets(rawMessage, context.secrets);
  const where = context.endpoint ?? 'DynamoDB';
  const profileFlag = context.profile ? ` --profile ${context.profile}` : '';

  if (isAbortError(error)) return { kind: 'cancelled', message: 'cancelled' };
  // Node's exec error is "Command failed: <command line>\n<stderr>": either may hold a token, so neither is repeated.
  if (name === 'CredentialsProviderError' && /^Command failed: /.test(rawMessage)) {
    const of = context.profile ? ` of profile ${context.profile}` : '';
    return {
      kind: 'credentials',
      message: `the credential_process${of} failed`,
      fix: `run the profile's credential_process in a terminal to see why${context.profile ? ` (aws configure get credential_process --profile ${context.profile} shows it)` : ''}`,
    };
  }
  if (SIGN_IN_FAILURES.has(name)) return { kind: 'unreachable', message, fix: 'check your network or proxy, then connect again' };
  if (ssoExpired(rawMessage)) {
    return {
      kind: 'sso-expired',
      message: `the SSO session${context.profile ? ` of profile ${context.profile}` : ''} has expired`,
      fix: `aws sso login${profileFlag}`,
    };
  }
  const code = networkCode(error);
  if (code && UNREACHABLE_CODES.has(code)) {
    return appError(
      'unreachable',
      `cannot reach ${where} (${code})`,
      context.endpoint ? 'check that DynamoDB Local is running at that address' : undefined,
    );
  }
  if (name === 'ResourceNotFoundException') {
    return { kind: 'not-found', message: context.table ? `table ${context.table} not found` : message };
  }
  if (THROTTLE_NAMES.has(name)) return { kind: 'throttled', message: `throttled by DynamoDB: ${message}` };
  // STS's answer to AssumeRole with a wrong or reused TokenCode (thrown through fromIni as AccessDenied).
  if (/MultiFactorAuthentication failed/i.test(rawMessage)) {
    return {
      kind: 'mfa-required',
      message: `the MFA code was rejected${context.profile ? ` for profile ${context.profile}` : ''}: ${message}`,
      fix: 'enter a fresh code from your MFA device (each code works once)',
    };
  }
  if (/mfa/i.test(rawMessage) && /(code|token)/i.test(rawMessage) && name === 'CredentialsProviderError') {
    return { kind: 'mfa-required', message };
  }
  if (CREDENTIAL_NAMES.has(name)) {
    return appError(
      'credentials',
      `credentials rejected or unavailable: ${message}`,
      context.profile ? `check profile ${context.profile} in ~/.aws/config` : undefined,
    );
  }
  // The HTTP handler's connect/idle timeouts: the endpoint accepted nothing or went silent.
  if (name === 'TimeoutError') return { kind: 'unreachable', message: `no answer from ${where} in time (${message})` };
  if (code && TRANSIENT_CODES.has(code)) return { kind: 'unreachable', message: `connection to ${where} lost (${code})` };
  if (/socket hang up/i.test(rawMessage)) return { kind: 'unreachable', message: `connection to ${where} lost (socket hang up)` };
  if (name === 'ValidationException') return { kind: 'validation', message };
  return { kind: 'aws', message: name && !message.startsWith(name) ? `${name}: ${message}` : message };
}
