/**
 * The transport contract, kept by both bridges (Electron's preload over IPC and browser mode's HTTP
 * client): `call` never rejects. Whatever happens on the way, the caller gets a `Result`.
 *
 * When the answer is lost or unreadable (connection reset, server or main process gone, an IPC
 * failure, a body that is not JSON or not a `Result`, any 5xx), what the caller gets depends on
 * the method's `writes` flag in `methods.ts` — the one declaration of which methods send:
 * - a write comes back `{ kind: 'unreachable', outcome: 'unknown' }`: the request may have been
 *   applied, so it is never read as "not accepted"; the next step is to look the value up, and the
 *   Activity tab lists what was sent and how it ended;
 * - a read comes back `{ kind: 'unreachable' }`: nothing changed, try again.
 * `outcome: 'unknown'` is the one mark of "may have been applied", the same a service puts on a
 * DynamoDB send whose answer was lost (its cause keeps its own kind, e.g. `throttled`).
 */
import type { AppError, Result } from '../result';
import { isMethodName, type MethodName } from './api';
import { methods } from './methods';

/** True when `method` can write (a table, a plan, the user's settings): its lost answer is an unknown outcome. */
export function isWriteMethod(method: MethodName): boolean {
  return methods[method].writes;
}

/** True when a decoded answer has the shape of a Result (our server is trusted; a proxy or a dying process is not). */
export function isResult(body: unknown): body is Result<unknown> {
  if (typeof body !== 'object' || body === null) return false;
  const record = body as Record<string, unknown>;
  if (record.ok === true) return 'value' in record;
  if (record.ok === false) return typeof record.error === 'object' && record.error !== null;
  return false;
}

/** The error a bridge returns when the answer to `method` was lost or unreadable; `cause` says how, in a few words. */
export function lostAnswer(method: string, cause: string): AppError {
  if (isMethodName(method) && isWriteMethod(method)) {
    return {
      kind: 'unreachable',
      outcome: 'unknown',
      message: `the outcome is unknown — ${method} was sent but its answer was lost (${cause}): the request may have been applied`,
      fix: 'look the value up to see what was written before trying again; the Activity tab lists what was sent and how it ended',
    };
  }
  return {
    kind: 'unreachable',
    message: `Locksmith did not answer ${method} (${cause}).`,
    fix: 'Check that the Locksmith window or `locksmith serve` is still running, then try again.',
  };
}

/** Names what was sent in an outcome-unknown error (a ClientRequestToken, a plan id) when the message does not already. */
export function namingSent(error: AppError, what: string): AppError {
  if (error.outcome !== 'unknown' || error.message.includes(what)) return error;
  return { ...error, message: `${error.message}; ${what}` };
}
