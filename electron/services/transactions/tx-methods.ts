/** The app's transaction methods: `tx.preview`, `tx.execute`, `tx.decode`, `activity.list`. */
import type { TxRequest } from '../../../shared/contract/tx-schema';
import type { ActivityPage, DecodeView, TxOutcomeView, TxPreviewView } from '../../../shared/contract/tx-views';
import { err, ok, type Result } from '../../../shared/result';
import type { ConnectionContext, ConventionContext } from '../context/request-context';
import type { Convention } from '../../../shared/model';
import type { AuditIndexes } from '../audit/audit-index';
import { lockRulesWritten } from '../../../shared/transactions/lock-rules';
import { warnedRuleRefusal, type StandingWarnings } from '../audit/standing-warnings';
import { targetKey } from '../context/client-pool';
import { toAppError } from '../dynamo/errors';
import type { PreviewStore } from './preview-store';
import { decodeCancellation, executeKept, previewTransaction, readActivity, transactionContext, type TransactionContext } from './service';
import { keptOwner } from './write-gate';
import { activityView, previewView, reasonView } from './tx-views';
import { verifyExecuted } from './verify-writes';

/** The long-lived parts the transaction methods share: the preview store and the activity log's folder. */
export interface TxStores {
  readonly previews: PreviewStore;
  readonly dataDir: string;
  /** The audits lookups may use: a write through a connection retires the ones that started before it. */
  readonly indexes: AuditIndexes;
  /** Standing convention warnings (see standing-warnings.ts) and the table's saved convention, for the lock-write gate. */
  readonly warnings?: StandingWarnings;
  readonly saved?: (connectionId: string, table: string) => Promise<Convention | undefined>;
}

/** Builds the request, keeps it under a preview id (with the connection id) and returns it as the panel shows it. */
export async function previewTx(
  ctx: ConventionContext,
  stores: TxStores,
  args: { readonly request: TxRequest },
): Promise<Result<TxPreviewView>> {
  const request = args.request;
  const warnings = stores.warnings;
  const warning = warnings
    ? lockRulesWritten(request, ctx.convention)
        .map((rule) => warnings.find(targetKey(ctx.connectionId, ctx.target), ctx.table.name, ctx.convention, rule))
        .find((found) => found !== undefined)
    : undefined;
  const refusal = warning && warnedRuleRefusal(warning, ctx.convention, await stores.saved?.(ctx.connectionId, ctx.table.name));
  if (refusal) return err('validation', refusal, { field: 'convention' });
  const made = await previewTransaction(transactionContext(ctx, { dataDir: stores.dataDir, store: stores.previews }), {
    table: ctx.table.name,
    convention: ctx.convention,
    operation: args.request,
  });
  return made.ok ? ok(previewView(ctx, made.value)) : made;
}

/** The connection a kept preview was made on (execute resolves it, then sends on it only); refused in the gate's words. */
export function previewConnection(stores: TxStores, previewId: string): Result<string> {
  return keptOwner(stores.previews, previewId);
}

/** The transaction context of a write through the app: its sends retire the audits that started before them. */
function writeContext(ctx: ConnectionContext, stores: TxStores): TransactionContext {
  const onWrite = (): void => stores.indexes.noteWrite(targetKey(ctx.connectionId, ctx.target));
  return transactionContext(ctx, { dataDir: stores.dataDir, store: stores.previews, onWrite });
}

/** Sends exactly the kept preview on its connection, then re-reads what it wrote. */
export async function executeView(
  ctx: ConnectionContext,
  stores: TxStores,
  args: { readonly previewId: string; readonly confirmation: string },
): Promise<Result<TxOutcomeView>> {
  let table: string | undefined;
  try {
    const done = await executeKept(writeContext(ctx, stores), args);
    if (!done.ok) return done;
    const { outcome, preview: kept } = done.value;
    table = kept.table;
    // Refused before sending: the preview stays, to execute once nobody holds the value.
    if (outcome.status === 'refused')
      return ok({ status: 'refused', previewId: args.previewId, holders: outcome.holders, message: outcome.message });
    stores.previews.delete(args.previewId);
    if (outcome.status === 'succeeded') {
      const check = await verifyExecuted(ctx.client, kept);
      return ok({
        status: 'succeeded',
        previewId: args.previewId,
        verified: check.verified,
        message: outcome.message,
        ...(check.verified ? {} : { differences: [...check.differences, ...check.unchecked.map((u) => `not checked: ${u}`)] }),
      });
    }
    return ok({
      status: 'cancelled',
      previewId: args.previewId,
      message: outcome.message,
      reasons: outcome.reasons.map((r) => reasonView(r, kept)),
    });
  } catch (error) {
    return { ok: false, error: toAppError(error, table === undefined ? ctx.errorContext : { ...ctx.errorContext, table }) };
  }
}

/** Explains a pasted TransactionCanceledException message or CancellationReasons array. */
export async function decodeView(args: { readonly text: string; readonly request?: string | undefined }): Promise<Result<DecodeView>> {
  const decoded = decodeCancellation({ error: args.text, ...(args.request ? { request: args.request } : {}) });
  return decoded.ok ? ok({ reasons: decoded.value.reasons.map((r) => reasonView(r)), summary: decoded.value.summary }) : decoded;
}

/** The newest activity-log lines. */
export async function activityPage(
  stores: Pick<TxStores, 'dataDir'>,
  args: { readonly limit?: number | undefined },
): Promise<Result<ActivityPage>> {
  const entries = await readActivity({ ...(args.limit ? { limit: args.limit } : {}), dataDir: stores.dataDir });
  return ok({ entries: entries.map(activityView) });
}
