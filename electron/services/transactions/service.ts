/**
 * The transaction service main exposes (bridge, CLI, browser mode): preview a request, execute a
 * preview, decode a pasted cancellation, read the activity log. Every guard that keeps a write
 * from happening by accident lives here, before `sendTransaction` is ever called.
 */
import { randomUUID } from 'node:crypto';
import type { PlainKey } from '../../../shared/model';
import { formatKey, keyId } from '../../../shared/plain-key';
import { err, ok, type AppError, type Result } from '../../../shared/result';
export { transactionContext, type TransactionContext, type TransactionDeps } from './transaction-context';
import type { TransactionContext, TransactionDeps } from './transaction-context';
import { buildTransaction } from '../../../shared/transactions/build';
import { decodeCancellation as decodePure } from '../../../shared/transactions/decoder';
import { assemblePreview } from '../../../shared/transactions/preview';
import type {
  DecodeRequest,
  Decoded,
  ExecuteRequest,
  Outcome,
  Preview,
  PreviewConnection,
  ReasonExplained,
  TransactionRequest,
} from '../../../shared/transactions/types';
import { toAppError } from '../dynamo/errors';
import { appendActivity, failedOutcome, readActivity as readLog, type ActivityEntry } from './activity-log';
import { PreviewStore, type StoredPreview } from './preview-store';
import { findHolders } from './reads';
import { resolveSpec } from './resolve';
import { sendTransaction } from './execute';

const defaultStore = new PreviewStore();

function deps(ctx: TransactionContext): TransactionDeps {
  return { ...ctx.deps, store: ctx.deps?.store ?? defaultStore };
}

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

/** Reads the current state, builds the exact request, checks it, and keeps it under a preview id for 10 minutes. */
export async function previewTransaction(ctx: TransactionContext, request: TransactionRequest): Promise<Result<Preview>> {
  const { store } = deps(ctx);
  try {
    const spec = await resolveSpec({ client: ctx.client, table: request.table, convention: request.convention }, request.operation);
    if (!spec.ok) return spec;
    const built = buildTransaction(request.table, request.convention, spec.value);
    if (!built.ok) return built;
    const now = store.clock();
    const preview = assemblePreview(built.value, {
      id: store.newId(),
      token: randomUUID(),
      createdAt: new Date(now),
      expiresAt: new Date(now + store.ttlMs),
      connection: ctx.connection,
    });
    // The rules the actions name, once, by the name the builder resolved (execute looks none up again).
    const named = new Set([
      ...(spec.value.kind === 'release' ? [spec.value.rule] : []),
      ...built.value.actions.flatMap((a) => (a.rule ? [a.rule] : [])),
    ]);
    const rules = new Map(request.convention.rules.filter((r) => named.has(r.name)).map((r) => [r.name, r]));
    store.put({
      preview,
      connectionId: ctx.connectionId,
      built: built.value,
      convention: request.convention,
      rules,
      spec: spec.value,
      expiresAtMs: now + store.ttlMs,
    });
    return ok(preview);
  } catch (error) {
    return {
      ok: false,
      error: toAppError(error, {
        table: request.table,
        endpoint: ctx.connection.endpoint,
        profile: ctx.connection.profile,
        secrets: ctx.secrets,
      }),
    };
  }
}

/** For a release: who holds the value right now (consistent read). */
async function currentHolders(ctx: TransactionContext, entry: StoredPreview): Promise<PlainKey[]> {
  if (entry.spec.kind !== 'release') return [];
  const rule = entry.rules.get(entry.spec.rule);
  if (!rule) return [];
  const scope = entry.spec.scope;
  return findHolders({
    client: ctx.client,
    table: entry.preview.table,
    convention: entry.convention,
    rule,
    value: entry.spec.value,
    ...(scope ? { scope } : {}),
    segments: deps(ctx).holderSegments,
  });
}

/** Names the holders of lock values that turned out to be taken, when the lock itself does not say. */
async function nameHolders(ctx: TransactionContext, entry: StoredPreview, reasons: readonly ReasonExplained[]): Promise<ReasonExplained[]> {
  return Promise.all(
    reasons.map(async (reason) => {
      const meta = entry.built.actions[reason.index];
      if (reason.code !== 'ConditionalCheckFailed' || reason.holder || meta?.role !== 'put-lock' || !meta.rule || meta.value === undefined)
        return reason;
      const rule = entry.rules.get(meta.rule);
      if (!rule) return reason;
      const keys = entry.convention.keys;
      // The account claiming the value holds it too; naming it as "the holder" would mislead.
      const claimants = new Set(
        entry.built.actions.filter((a) => a.role === 'check-account' || a.role === 'put-account').map((a) => keyId(a.key, keys)),
      );
      const scope = entry.spec.kind === 'claim' || entry.spec.kind === 'change-value' ? entry.spec.scope : undefined;
      let found: PlainKey[];
      try {
        found = await findHolders({
          client: ctx.client,
          table: entry.preview.table,
          convention: entry.convention,
          rule,
          value: meta.value,
          ...(scope ? { scope } : {}),
          segments: deps(ctx).holderSegments,
        });
      } catch (error) {
        // A search that failed found nobody it can vouch for: never "no other account holds it".
        const why = toAppError(error, {
          table: entry.preview.table,
          endpoint: ctx.connection.endpoint,
          profile: ctx.connection.profile,
          secrets: ctx.secrets,
        }).message;
        return { ...reason, message: `${reason.message}; who holds it could not be looked up (${why})` };
      }
      const holders = found.filter((h) => !claimants.has(keyId(h, keys)));
      if (holders.length === 0)
        return {
          ...reason,
          message: `${reason.message}, and no other account holds it (an orphan lock, or this account's own: release it first if it is an orphan)`,
        };
      const names = holders
        .map((h) => formatKey(h, keys))
        .sort()
        .join(', ');
      return {
        ...reason,
        holder: names,
        message: `${meta.rule.toLowerCase()} \`${meta.value}\` is already held by ${names} — the lock ${meta.keyText} exists`,
      };
    }),
  );
}

/**
 * Executes a preview: refuses on a read-only connection, a wrong confirmation, another connection
 * or (release) a value someone holds — all before sending. Then claims the preview (single use: a
 * concurrent second execute is refused, a sent one is used up), sends exactly the previewed input
 * and logs the request and its outcome.
 */
export async function executePreview(ctx: TransactionContext, request: ExecuteRequest): Promise<Result<Outcome>> {
  const d = deps(ctx);
  const found = d.store.get(request.previewId);
  if (!found.found) {
    return err(
      'not-found',
      found.reason === 'expired'
        ? `preview ${request.previewId} has expired (previews last 10 minutes, the token's idempotency window): preview again`
        : `no preview ${request.previewId} (unknown or expired): preview again`,
      { field: 'previewId' },
    );
  }
  const entry = found.entry;
  const { preview } = entry;
  if (entry.connectionId !== ctx.connectionId) {
    return err(
      'validation',
      `preview ${preview.id} was made for ${preview.connection.label}, not ${ctx.connection.label}: preview again on this connection`,
      { field: 'previewId' },
    );
  }
  const moved = movedConnection(preview.connection, ctx.connection);
  if (moved)
    return err('validation', `preview ${preview.id} cannot be sent: ${moved}. Nothing was sent: preview again`, { field: 'previewId' });
  const readOnly = readOnlyRefusal(ctx);
  if (readOnly) return { ok: false, error: readOnly };
  if (request.confirmation !== preview.confirm) {
    return err('validation', `the confirmation does not match: type \`${preview.confirm}\` exactly to ${preview.kind}`, {
      field: 'confirmation',
    });
  }
  // Claimed synchronously right after the checks: of several executes of one preview arriving together only one goes on.
  const claimed = d.store.claim(preview.id);
  if (!claimed.found) {
    if (claimed.reason === 'executing')
      return err('conflict', `preview ${preview.id} is already being executed: nothing was sent by this request`, { field: 'previewId' });
    if (claimed.reason === 'executed')
      return err('conflict', `preview ${preview.id} was already executed (a preview is used once): preview again to send another request`, {
        field: 'previewId',
      });
    return err('not-found', `no preview ${request.previewId} (unknown or expired): preview again`, { field: 'previewId' });
  }
  let settled = false;
  try {
    const result = await sendClaimed(ctx, d, entry);
    // A definite answer (applied, or cancelled by a condition) uses the preview up; an error may be retried with the same token.
    settled = result.ok && (result.value.status === 'succeeded' || result.value.status === 'cancelled');
    return result;
  } finally {
    d.store.release(preview.id, settled);
  }
}

/** The part of an execute that runs under the preview's claim: the fresh holder check, the send, the activity-log line. */
async function sendClaimed(ctx: TransactionContext, d: TransactionDeps, entry: StoredPreview): Promise<Result<Outcome>> {
  const { preview } = entry;
  try {
    const holders = await currentHolders(ctx, entry);
    if (holders.length > 0) {
      const names = holders.map((h) => formatKey(h, entry.convention.keys)).join(', ');
      return ok({
        status: 'refused',
        holders,
        message: `refused: ${names} holds \`${entry.spec.kind === 'release' ? entry.spec.value : ''}\` right now; releasing its lock would let someone else take it. Nothing was sent.`,
      });
    }
  } catch (error) {
    return {
      ok: false,
      error: toAppError(error, {
        table: preview.table,
        endpoint: ctx.connection.endpoint,
        profile: ctx.connection.profile,
        secrets: ctx.secrets,
      }),
    };
  }
  const sent = await sendTransaction({
    client: ctx.client,
    input: preview.input,
    actions: entry.built.actions,
    ownerAttribute: entry.convention.ownerAttribute,
    retry: d.retry,
    wait: d.wait,
    errorContext: { table: preview.table, endpoint: ctx.connection.endpoint, profile: ctx.connection.profile, secrets: ctx.secrets },
  });
  let outcome: Outcome | undefined = sent.ok ? sent.value : undefined;
  if (outcome?.status === 'cancelled') {
    const reasons = await nameHolders(ctx, entry, outcome.reasons);
    outcome = {
      ...outcome,
      reasons,
      message:
        reasons
          .filter((r) => r.code !== 'None')
          .map((r) => r.message)
          .join('; ') || outcome.message,
    };
  }
  const logged: ActivityEntry = {
    time: new Date(d.store.clock()).toISOString(),
    connection: ctx.connection.label,
    region: ctx.connection.region,
    endpoint: ctx.connection.endpoint ?? 'aws',
    table: preview.table,
    previewId: preview.id,
    token: preview.input.ClientRequestToken,
    kind: preview.kind,
    summary: preview.summary,
    request: preview.input,
    outcome: outcome ?? failedOutcome(sent.ok ? { kind: 'internal', message: 'no outcome' } : sent.error),
  };
  let unlogged: string | undefined;
  try {
    await appendActivity(logged, { ...(d.dataDir ? { dataDir: d.dataDir } : {}), ...(ctx.secrets ? { secrets: ctx.secrets } : {}) });
  } catch (error) {
    // The request was sent (or may have been); failing to log it must be said, not hidden — on a failure too.
    unlogged = `the activity log could not be written: ${(error as Error).message}`;
    if (outcome) outcome = { ...outcome, message: `${outcome.message} (the request was sent, but ${unlogged})` };
  }
  if (!sent.ok) return { ok: false, error: unlogged ? { ...sent.error, message: `${sent.error.message} (${unlogged})` } : sent.error };
  return ok(outcome ?? sent.value);
}

/** Decodes a pasted TransactionCanceledException message or CancellationReasons array (pure). */
export function decodeCancellation(request: DecodeRequest): Result<Decoded> {
  return decodePure(request);
}

/** The most recent activity log entries, newest first. */
export async function readActivity(options: { limit?: number; dataDir?: string } = {}): Promise<ActivityEntry[]> {
  return readLog(options);
}
