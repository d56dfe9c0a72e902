/**
 * The one gate every kept write (a preview, a repair plan) passes on its way to DynamoDB: found and
 * not expired, executed by its owner, on the database it was made for, on a connection that may
 * write, with the confirmation typed back, and claimed for this execute alone. Every refusal is said
 * here, in the kind's words, so a single write and a repair are refused alike.
 */
import { err, ok, type AppError, type Result } from '../../../shared/result';
import type { PreviewConnection } from '../../../shared/transactions/types';
import type { KeptMiss, KeptTerms, KeptWords, KeptWrites } from './kept-writes';
import type { TransactionContext } from './transaction-context';

/**
 * Why a preview or plan made on `then` must not be sent on `now`, or undefined: the same connection id
 * pointed at another region or endpoint since (a changed region, a restarted sandbox) is another
 * database than the one previewed, and its copy-as commands name the old one.
 */
export function movedConnection(then: PreviewConnection, now: PreviewConnection): string | undefined {
  if (then.region === now.region && (then.endpoint ?? '') === (now.endpoint ?? '')) return undefined;
  const where = (c: PreviewConnection): string => `${c.region}${c.endpoint ? ` at ${c.endpoint}` : ''}`;
  return `it was made for ${where(then)}, and ${now.label} now points at ${where(now)}`;
}

/** The refusal of a write on a read-only connection (nothing is sent), said in the shell's words; undefined when it may write. */
export function readOnlyRefusal(ctx: TransactionContext): AppError | undefined {
  if (ctx.writable) return undefined;
  return {
    kind: 'read-only',
    message: `connection ${ctx.connection.label} is read-only: nothing was sent`,
    fix: ctx.allowWrites ?? 'allow writes for this connection',
  };
}

/** Why a kept write cannot be had, in its kind's words: unknown, expired, being executed, or used up. */
export function keptMissError(words: KeptWords, id: string, reason: KeptMiss): AppError {
  const { noun, again, field } = words;
  const lasts = `${noun}s last 10 minutes, the token's idempotency window`;
  switch (reason) {
    case 'expired':
      return { kind: 'not-found', field, message: `${noun} ${id} has expired (${lasts}): ${again}` };
    case 'executing':
      return { kind: 'conflict', field, message: `${noun} ${id} is already being executed: nothing was sent by this request` };
    case 'executed':
      return {
        kind: 'conflict',
        field,
        message: `${noun} ${id} was already executed (a ${noun} is used once): ${again} to send another request`,
      };
    case 'unknown':
      return { kind: 'not-found', field, message: `no ${noun} ${id} (unknown or expired: ${lasts}): ${again}` };
  }
}

/** The owner a kept write must be executed by (the route to its connection), or why it cannot be had. */
export function keptOwner<T extends KeptTerms>(store: KeptWrites<T>, id: string): Result<string> {
  const found = store.get(id);
  return found.found ? ok(found.entry.owner) : { ok: false, error: keptMissError(store.words, id, found.reason) };
}

/** One execute's ask: which kept write, by whom, with what typed back. */
export interface GateRequest {
  readonly id: string;
  /** The executing connection's id (the CLI: its label). */
  readonly owner: string;
  readonly confirmation: string;
}

/**
 * Passes one execute through the gate: every check before anything is sent, then the claim
 * (synchronous, right after the checks: of several executes arriving together only one goes on).
 * `refuse` adds a kind's own check (a plan with nothing to execute). The caller must `release` the claim.
 */
export function claimKept<T extends KeptTerms>(
  store: KeptWrites<T>,
  ctx: TransactionContext,
  request: GateRequest,
  refuse?: (entry: T) => string | undefined,
): Result<T> {
  const { noun, again, field } = store.words;
  const found = store.get(request.id);
  if (!found.found) return { ok: false, error: keptMissError(store.words, request.id, found.reason) };
  const entry = found.entry;
  if (entry.owner !== request.owner)
    return err(
      'validation',
      `${noun} ${entry.id} was made for ${entry.where.label}, not ${ctx.connection.label}: ${again} on this connection`,
      {
        field,
      },
    );
  const moved = movedConnection(entry.where, ctx.connection);
  if (moved) return err('validation', `${noun} ${entry.id} cannot be sent: ${moved}. Nothing was sent: ${again}`, { field });
  const readOnly = readOnlyRefusal(ctx);
  if (readOnly) return { ok: false, error: readOnly };
  const refused = refuse?.(entry);
  if (refused) return err('validation', refused, { field });
  if (request.confirmation !== entry.confirm)
    return err('validation', `the confirmation does not match: type \`${entry.confirm}\` exactly to ${entry.confirmFor}`, {
      field: 'confirmation',
    });
  const claimed = store.claim(entry.id);
  return claimed.found ? ok(claimed.entry) : { ok: false, error: keptMissError(store.words, request.id, claimed.reason) };
}
