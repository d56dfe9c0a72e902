/** Previews, cancellation reasons and activity lines as the contract's views (pure mappings, no I/O). */
import type { ActivityEntry as ActivityView, TxActionView, TxPreviewView, TxReasonView } from '../../../shared/contract/tx-views';
import type { JsonValue } from '../../../shared/domain';
import type { PlainKey } from '../../../shared/model';
import type { ActionMeta, Preview, ReasonExplained } from '../../../shared/transactions/types';
import type { ConnectionContext } from '../context/request-context';
import { recordedStatus, type ActivityEntry } from './activity-log';

function operationAt(preview: Preview, index: number): TxActionView['type'] {
  const item = preview.input.TransactItems[index];
  if (!item) return 'ConditionCheck';
  return 'Put' in item ? 'Put' : 'Delete' in item ? 'Delete' : 'Update' in item ? 'Update' : 'ConditionCheck';
}

function actionView(preview: Preview, meta: ActionMeta): TxActionView {
  return { index: meta.index, type: operationAt(preview, meta.index), key: meta.key, explanation: meta.explanation };
}

/** A kept preview as the transaction panel shows it; on a read-only connection it says how to allow writes. */
export function previewView(ctx: ConnectionContext, p: Preview): TxPreviewView {
  return {
    previewId: p.id,
    clientRequestToken: p.input.ClientRequestToken,
    expiresAt: p.expiresAt,
    input: p.input as unknown as JsonValue,
    actions: p.actions.map((meta) => actionView(p, meta)),
    notGuarded: p.guards.notGuarded,
    guarded: p.guards.guarded,
    copyAs: p.copyAs,
    confirmText: p.confirm,
    executable: ctx.writable,
    ...(ctx.writable ? {} : { readOnlyReason: `${ctx.label} is read-only. ${ctx.allowWrites} to execute.` }),
    summary: p.summary,
  };
}

/** One cancellation reason, with its action from the preview when there is one. */
export function reasonView(reason: ReasonExplained, preview?: Preview): TxReasonView {
  const meta = preview?.actions.find((a) => a.index === reason.index);
  const action: TxActionView | undefined =
    meta && preview
      ? actionView(preview, meta)
      : reason.action
        ? { index: reason.index, type: reason.action.operation, key: {} as PlainKey, explanation: reason.action.keyText }
        : undefined;
  // The ALL_OLD item DynamoDB returned with a failed condition: what was really there.
  const item = reason.item ? { item: reason.item as unknown as JsonValue } : {};
  return { index: reason.index, code: reason.code, message: reason.message, ...(action ? { action } : {}), ...item };
}

/** One activity-log line as the activity panel shows it. */
export function activityView(e: ActivityEntry): ActivityView {
  return {
    time: e.time,
    connection: e.connection,
    region: e.region,
    endpoint: e.endpoint === 'aws' ? null : e.endpoint,
    table: e.table,
    previewId: e.previewId,
    clientRequestToken: e.token,
    request: e.request as unknown as JsonValue,
    status: recordedStatus(e),
    outcome: e.outcome as unknown as JsonValue,
    kind: e.kind,
    summary: e.summary,
  };
}
