/**
 * The transaction service main exposes (bridge, CLI, browser mode): preview a request, execute a
 * preview, decode a pasted cancellation, read the activity log. Every guard that keeps a write
 * from happening by accident lives here, before `sendTransaction` is ever called.
 */
import { randomUUID } from 'node:crypto';
import type { PlainKey } from '../../../shared/model';
import { formatKey, keyId } from '../../../shared/plain-key';
import { ok, type Result } from '../../../shared/result';
export { transactionContext, type TransactionContext, type TransactionDeps } from './transaction-context';
import { errorContextOf, type TransactionContext, type TransactionDeps } from './transaction-context';
import { buildTransaction } from '../../../shared/transactions/build';
import { decodeCancellation as decodePure } from '../../../shared/transactions/decoder';
import { assemblePreview } from '../../../shared/transactions/preview';
import type {
  DecodeRequest,
  Decoded,
  ExecuteRequest,
  Outcome,
  Preview,
  ReasonExplained,
  TransactionRequest,
} from '../../../shared/transactions/types';
import { toAppError } from '../dynamo/errors';
import { readActivity as readLog, type ActivityEntry } from './activity-log';
import { PreviewStore, type StoredPreview } from './preview-store';
import { findHolders } from './reads';
import { resolveSpec } from './resolve';
import { sendLogged } from './send-path';
import { claimKept } from './write-gate';

const defaultStore = new PreviewStore();

function deps(ctx: TransactionContext): TransactionDeps {
  return { ...ctx.deps, store: ctx.deps?.store ?? defaultStore };
}

export { movedConnection, readOnlyRefusal } from './write-gate';

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
      id: preview.id,
      owner: ctx.connectionId,
      where: preview.connection,
      confirm: preview.confirm,
      confirmFor: preview.kind,
      preview,
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
      error: toAppError(error, errorContextOf(ctx, request.table)),
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
        const why = toAppError(error, errorContextOf(ctx, entry.preview.table)).message;
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

/** An executed preview's outcome, with the preview it sent (so its caller need not look it up again). */
export interface Executed {
  readonly outcome: Outcome;
  readonly preview: Preview;
}

/**
 * Executes a preview: passes the gate (write-gate.ts: found, its connection, the same database, a
 * connection that may write, the confirmation, single use), refuses a release whose value someone
 * holds, then sends exactly the previewed input through the one send path (activity log included).
 */
export async function executeKept(ctx: TransactionContext, request: ExecuteRequest): Promise<Result<Executed>> {
  const d = deps(ctx);
  const claimed = claimKept(d.store, ctx, { id: request.previewId, owner: ctx.connectionId, confirmation: request.confirmation });
  if (!claimed.ok) return claimed;
  const entry = claimed.value;
  let settled = false;
  try {
    const result = await sendClaimed(ctx, d, entry);
    // A definite answer (applied, or cancelled by a condition) uses the preview up; an error may be retried with the same token.
    settled = result.ok && (result.value.status === 'succeeded' || result.value.status === 'cancelled');
    return result.ok ? ok({ outcome: result.value, preview: entry.preview }) : result;
  } finally {
    d.store.release(entry.id, settled);
  }
}

/** Executes a preview (see executeKept) and answers its outcome. */
export async function executePreview(ctx: TransactionContext, request: ExecuteRequest): Promise<Result<Outcome>> {
  const done = await executeKept(ctx, request);
  return done.ok ? ok(done.value.outcome) : done;
}

/** The part of an execute that runs under the preview's claim: the fresh holder check, then the send path. */
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
      error: toAppError(error, errorContextOf(ctx, preview.table)),
    };
  }
  const { sent, outcome, unlogged } = await sendLogged(
    { ...ctx, deps: d },
    {
      line: { table: preview.table, previewId: preview.id, kind: preview.kind, summary: preview.summary, request: preview.input },
      actions: entry.built.actions,
      ownerAttribute: entry.convention.ownerAttribute,
      explain: async (cancelled) => {
        const reasons = await nameHolders(ctx, entry, cancelled.reasons);
        const failed = reasons.filter((r) => r.code !== 'None').map((r) => r.message);
        return { ...cancelled, reasons, message: failed.join('; ') || cancelled.message };
      },
    },
    d.store.clock,
  );
  // The request was sent (or may have been); failing to log it must be said, not hidden — on a failure too.
  if (!sent.ok) return { ok: false, error: unlogged ? { ...sent.error, message: `${sent.error.message} (${unlogged})` } : sent.error };
  const answered = outcome ?? sent.value;
  return ok(unlogged ? { ...answered, message: `${answered.message} (the request was sent, but ${unlogged})` } : answered);
}

/** Decodes a pasted TransactionCanceledException message or CancellationReasons array (pure). */
export function decodeCancellation(request: DecodeRequest): Result<Decoded> {
  return decodePure(request);
}

/** The most recent activity log entries, newest first. */
export async function readActivity(options: { limit?: number; dataDir?: string } = {}): Promise<ActivityEntry[]> {
  return readLog(options);
}
