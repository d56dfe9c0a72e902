/**
 * The one send path of a kept write that passed the gate (a preview, one transaction of a repair
 * plan): the connection is told a write may land (so audits that started before stop being lent to
 * lookups), the exact request is sent, a cancellation may be explained further, and the request and
 * its outcome get their activity-log line — on a failure too. Nothing around a send does these by hand.
 */
import type { Outcome, TransactWriteInputJson, ActionMeta } from '../../../shared/transactions/types';
import { appendActivity, failedOutcome, type ActivityEntry } from './activity-log';
import { sendTransaction, type SendResult } from './execute';
import { errorContextOf, type TransactionContext } from './transaction-context';

/** What the activity-log line says of a request besides the request itself. */
export interface LogLine {
  readonly table: string;
  /** The preview id, or the plan id and the transaction's number. */
  readonly previewId: string;
  readonly kind: string;
  readonly summary: string;
  readonly request: TransactWriteInputJson;
}

/** One send through the path. */
export interface SendRequest {
  readonly line: LogLine;
  readonly actions: readonly ActionMeta[];
  readonly ownerAttribute?: string;
  /** The activity log's folder (default: the context's, else LOCKSMITH_DATA_DIR or the OS app-data folder). */
  readonly dataDir?: string;
  /** Says more of a cancellation (who holds a value) before it is logged. */
  readonly explain?: (cancelled: Extract<Outcome, { status: 'cancelled' }>) => Promise<Outcome>;
}

/** What came of a send: the send itself, the outcome as logged, and why the log could not be written (if so). */
export interface Sent {
  readonly sent: SendResult;
  readonly outcome?: Outcome;
  readonly unlogged?: string;
}

/** Appends one activity-log line for this connection; the reason it could not be written, or undefined. */
export async function logWrite(
  ctx: TransactionContext,
  line: LogLine,
  outcome: ActivityEntry['outcome'],
  dataDir: string | undefined = ctx.deps?.dataDir,
  time: number = Date.now(),
): Promise<string | undefined> {
  const entry: ActivityEntry = {
    time: new Date(time).toISOString(),
    connection: ctx.connection.label,
    region: ctx.connection.region,
    endpoint: ctx.connection.endpoint ?? 'aws',
    table: line.table,
    previewId: line.previewId,
    token: line.request.ClientRequestToken,
    kind: line.kind,
    summary: line.summary,
    request: line.request,
    outcome,
  };
  try {
    await appendActivity(entry, { ...(dataDir ? { dataDir } : {}), ...(ctx.secrets ? { secrets: ctx.secrets } : {}) });
    return undefined;
  } catch (error) {
    return `the activity log could not be written: ${(error as Error).message}`;
  }
}

/** Sends the request exactly as kept, retried with its own token, and logs it; the connection is told before and after. */
export async function sendLogged(ctx: TransactionContext, request: SendRequest, time: () => number = Date.now): Promise<Sent> {
  const { line } = request;
  const onWrite = ctx.deps?.onWrite;
  // Told before sending too: a lookup running meanwhile must not borrow an audit the write may outdate.
  onWrite?.();
  let sent: SendResult;
  try {
    sent = await sendTransaction({
      client: ctx.client,
      input: line.request,
      actions: request.actions,
      ...(request.ownerAttribute !== undefined ? { ownerAttribute: request.ownerAttribute } : {}),
      retry: ctx.deps?.retry,
      wait: ctx.deps?.wait,
      errorContext: errorContextOf(ctx, line.table),
    });
  } finally {
    // Told once answered (or failed on the way, when it may have landed): an audit that started before now may lack this write.
    onWrite?.();
  }
  let outcome: Outcome | undefined = sent.ok ? sent.value : undefined;
  if (outcome?.status === 'cancelled' && request.explain) outcome = await request.explain(outcome);
  const unlogged = await logWrite(
    ctx,
    line,
    outcome ?? failedOutcome(sent.ok ? { kind: 'internal', message: 'no outcome' } : sent.error),
    request.dataDir ?? ctx.deps?.dataDir,
    time(),
  );
  return { sent, ...(outcome ? { outcome } : {}), ...(unlogged ? { unlogged } : {}) };
}
