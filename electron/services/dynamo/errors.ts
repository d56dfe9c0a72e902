/** Mapping SDK and network errors to AppError, with credentials scrubbed from every message. */
import type { AppError } from '../../../shared/result';

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

const TRANSIENT_NAMES = new Set(['InternalServerError', 'InternalFailure', 'ServiceUnavailable', 'TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);

/** Network codes worth a retry: the connection dropped mid-request (ECONNREFUSED is not: nothing is listening). */
const TRANSIENT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** Network codes meaning the endpoint cannot be reached at all. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

const CREDENTIAL_NAMES = new Set([
  'CredentialsProviderError',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'ExpiredTokenException',
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

/** AWS access key ids (long-term and temporary). */
const KEY_ID_PATTERN = /\b(?:AKIA|ASIA|AROA|AIDA)[A-Z0-9]{12,}\b/g;
/** `secret=…`, `session_token: "…"` style assignments: keep the name, hide the value. */
const ASSIGNMENT_PATTERN = /((?:secret|token|password|session)[_-]?(?:access)?[_-]?(?:key|token)?["']?\s*[:=]\s*["']?)[^\s"',;]+/gi;

/** Removes credentials from a message: the given secrets verbatim, plus anything shaped like a key or token. */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('***');
  return out.replace(KEY_ID_PATTERN, '***').replace(ASSIGNMENT_PATTERN, '$1***');
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
  if (ssoExpired(rawMessage)) {
    return {
      kind: 'sso-expired',
      message: `the SSO session${context.profile ? ` of profile ${context.profile}` : ''} has expired`,
      fix: `aws sso login${profileFlag}`,
    };
  }
  const code = networkCode(error);
  if (code && UNREACHABLE_CODES.has(code)) {
    return appError('unreachable', `cannot reach ${where} (${code})`, context.endpoint ? 'check that DynamoDB Local is running at that address' : undefined);
  }
  if (name === 'ResourceNotFoundException') {
    return { kind: 'not-found', message: context.table ? `table ${context.table} not found` : message };
  }
  if (THROTTLE_NAMES.has(name)) return { kind: 'throttled', message: `throttled by DynamoDB: ${message}` };
  // STS's answer to AssumeRole with a wrong or reused TokenCode (thrown through fromIni as AccessDenied).
  if (/MultiFactorAuthentication failed/i.test(rawMessage)) {
    return { kind: 'mfa-required', message: `the MFA code was rejected${context.profile ? ` for profile ${context.profile}` : ''}: ${message}`, fix: 'enter a fresh code from your MFA device (each code works once)' };
  }
  if (/mfa/i.test(rawMessage) && /(code|token)/i.test(rawMessage) && name === 'CredentialsProviderError') {
    return { kind: 'mfa-required', message };
  }
  if (CREDENTIAL_NAMES.has(name)) {
    return appError('credentials', `credentials rejected or unavailable: ${message}`, context.profile ? `check profile ${context.profile} in ~/.aws/config` : undefined);
  }
  // The HTTP handler's connect/idle timeouts: the endpoint accepted nothing or went silent.
  if (name === 'TimeoutError') return { kind: 'unreachable', message: `no answer from ${where} in time (${message})` };
  if (code && TRANSIENT_CODES.has(code)) return { kind: 'unreachable', message: `connection to ${where} lost (${code})` };
  if (/socket hang up/i.test(rawMessage)) return { kind: 'unreachable', message: `connection to ${where} lost (socket hang up)` };
  if (name === 'ValidationException') return { kind: 'validation', message };
  return { kind: 'aws', message: name && !message.startsWith(name) ? `${name}: ${message}` : message };
}
