/**
 * The watch engine: a table's stream in, `problem` / `resolved` / `watching` events out. Records
 * are mapped to the scopes they touch, wait out the settle window, then each scope is re-read
 * consistently and judged by the audit's rules; only changes to a scope's problems are reported.
 */
import { setMaxListeners } from 'node:events';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { compileConvention } from '../../../shared/conventions/parse';
import type { Convention } from '../../../shared/model';
import type { Result } from '../../../shared/result';
import type { WatchEvent, WatchNotice } from '../../../shared/watch/watch-events';
import { causeOf, scopesOf, type RecordSource } from '../../../shared/watch/scopes';
import { DEFAULT_SETTLE_MS, SettleQueue, type DueCheck } from '../../../shared/watch/settle';
import { watchableStream } from '../../../shared/watch/stream-spec';
import { ProblemTracker } from '../../../shared/watch/tracker';
import { toAppError, type ErrorContext } from '../dynamo/errors';
import { sleep, withRetry } from '../dynamo/retry';
import type { GsiInfo } from '../dynamo/tables';
import { recheckScope } from './recheck';
import { readStream } from './stream-reader';

/** What a watch needs. */
export interface WatchOptions {
  readonly client: DynamoDBClient;
  readonly streams: DynamoDBStreamsClient;
  readonly table: { readonly name: string; readonly gsis: readonly GsiInfo[] };
  readonly convention: Convention;
  readonly streamArn: string;
  /** The lock table's stream: required when the convention keeps its locks in a table of their own (see findLockStream). */
  readonly lockStreamArn?: string;
  readonly signal: AbortSignal;
  readonly onEvent: (event: WatchEvent) => void;
  /** Gaps (changes missed: run an audit) and re-checks being retried. */
  readonly onNotice?: (notice: WatchNotice) => void;
  /** The settle window (default DEFAULT_SETTLE_MS). */
  readonly settleMs?: number;
  readonly pollMs?: number;
  readonly describeEveryMs?: number;
  /** Scopes re-checked at once. */
  readonly concurrency?: number;
  /** Confirm an orphan by a holder scan when no index finds holders (default true). */
  readonly confirmOrphans?: boolean;
  /** Above this many scopes waiting, reading pauses (default 10,000). */
  readonly maxPending?: number;
  /** Reading keeps up (`live`) or waits for the checks to drain (`lagging`). */
  readonly onStatus?: (status: 'live' | 'lagging') => void;
  /** Test hook: the tracker, to check that memory stays flat. */
  readonly tracker?: ProblemTracker;
}

/** The ARN of the table's stream, or the exact command that enables one (never enabled silently). */
export async function findWatchableStream(
  client: DynamoDBClient,
  table: string,
  signal?: AbortSignal,
  errorContext?: ErrorContext,
): Promise<Result<string>> {
  try {
    const out = await withRetry(() => client.send(new DescribeTableCommand({ TableName: table }), { abortSignal: signal }), { signal });
    const spec = out.Table?.StreamSpecification;
    const arn = out.Table?.LatestStreamArn;
    return watchableStream(table, {
      enabled: spec?.StreamEnabled === true,
      ...(spec?.StreamViewType ? { viewType: spec.StreamViewType } : {}),
      ...(arn ? { streamArn: arn } : {}),
    });
  } catch (error) {
    return { ok: false, error: toAppError(error, { ...errorContext, table }) };
  }
}

/**
 * The stream of the convention's lock table (undefined without one), or why it cannot be watched:
 * locks written or deleted there reach only that table's stream, so both are read.
 */
export async function findLockStream(
  client: DynamoDBClient,
  convention: Convention,
  signal?: AbortSignal,
  errorContext?: ErrorContext,
): Promise<Result<string | undefined>> {
  if (convention.lockTable === undefined) return { ok: true, value: undefined };
  const found = await findWatchableStream(client, convention.lockTable, signal, errorContext);
  if (found.ok) return found;
  return {
    ok: false,
    error: {
      ...found.error,
      message: `the convention keeps its locks in table ${convention.lockTable}, whose stream the watch must read as well: ${found.error.message}`,
    },
  };
}

/** Watches until the signal aborts; rejects when a stream cannot be read any more. */
export async function watchTable(options: WatchOptions): Promise<void> {
  const { convention } = options;
  // Without the lock table's stream, a lock written or deleted there would go unseen: never watch by half.
  if (convention.lockTable !== undefined && options.lockStreamArn === undefined)
    throw new Error(`the convention keeps its locks in table ${convention.lockTable}: its stream must be read too`);
  // One signal for the reader and the checks: a reader that fails must stop the checks too.
  const inner = new AbortController();
  const signal = inner.signal;
  // Every concurrent re-read listens on it: more than Node's default of 10 is expected, not a leak.
  setMaxListeners(Math.max(64, (options.concurrency ?? 8) * 4), signal);
  const stop = (): void => inner.abort();
  if (options.signal.aborted) stop();
  options.signal.addEventListener('abort', stop, { once: true });
  const compiled = compileConvention(convention);
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const queue = new SettleQueue(convention, { settleMs, ...(options.maxPending ? { maxPending: options.maxPending } : {}) });
  const tracker = options.tracker ?? new ProblemTracker();
  const concurrency = options.concurrency ?? 8;
  const tick = Math.max(20, Math.min(250, Math.floor(settleMs / 4)));
  const context = {
    client: options.client,
    table: options.table,
    convention,
    signal,
    ...(options.confirmOrphans === undefined ? {} : { confirmOrphans: options.confirmOrphans }),
  };

  async function check(due: DueCheck): Promise<readonly WatchEvent[]> {
    try {
      const fresh = await recheckScope(context, due.scope);
      if (due.confirm || !tracker.differs(due.scope, fresh)) return tracker.update(due.scope, fresh, due.cause);
      // A change is reported after a second look one window later: the table read may be ahead of the
      // stream (a write landed after the records that queued this check), and that write's record —
      // the real cause — has arrived by then. A change gone by the second look was never real.
      queue.add([due.scope], due.cause, Date.now(), true);
      return [];
    } catch (error) {
      if (signal.aborted) return [];
      // Judge it again later rather than drop it: an unreadable moment is not a healthy one.
      options.onNotice?.({
        kind: 'retrying',
        message: `re-check of ${due.scope.id} failed (${error instanceof Error ? error.message : String(error)}); retrying`,
      });
      queue.add([due.scope], due.cause, Date.now());
      return [];
    }
  }

  async function checker(): Promise<void> {
    while (!signal.aborted) {
      const due = queue.takeDue(Date.now());
      for (let i = 0; i < due.length && !signal.aborted; i += concurrency) {
        // Events go out in the order the scopes settled, a chunk at a time: an event implies every earlier-settled scope was judged.
        const events = await Promise.all(due.slice(i, i + concurrency).map(check));
        if (!signal.aborted) for (const event of events.flat()) options.onEvent(event);
      }
      await sleep(tick, signal).catch(() => undefined);
    }
  }

  const checking = checker();
  const sources: { arn: string; from: RecordSource }[] = [
    { arn: options.streamArn, from: 'table' },
    ...(options.lockStreamArn ? [{ arn: options.lockStreamArn, from: 'lock-table' as const }] : []),
  ];
  let ready = 0;
  try {
    const readers = sources.map(({ arn, from }) =>
      readStream({
        streams: options.streams,
        streamArn: arn,
        signal,
        ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
        ...(options.describeEveryMs === undefined ? {} : { describeEveryMs: options.describeEveryMs }),
        ...(options.onNotice ? { onNotice: options.onNotice } : {}),
        onReady: () => {
          // "watching" once every shard of every stream is read: nothing written after it is missed.
          if (++ready < sources.length) return;
          options.onEvent({
            event: 'watching',
            table: options.table.name,
            streamArn: options.streamArn,
            ...(options.lockStreamArn && convention.lockTable
              ? { lockTable: convention.lockTable, lockStreamArn: options.lockStreamArn }
              : {}),
          });
          options.onStatus?.('live');
        },
        onRecords: async (changes) => {
          const now = Date.now();
          for (const change of changes) queue.add(scopesOf(compiled, change, from), causeOf(change, convention), now);
          // Back-pressure: a reader far ahead of the checks waits instead of growing the queue.
          if (!queue.full) return;
          options.onStatus?.('lagging');
          while (queue.full && !signal.aborted) await sleep(tick, signal).catch(() => undefined);
          if (!signal.aborted) options.onStatus?.('live');
        },
      }).catch((error: unknown) => {
        // One stream lost stops the other: half a watch would report a healthy table.
        stop();
        throw error;
      }),
    );
    const ended = await Promise.allSettled(readers);
    const failed = ended.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    options.signal.removeEventListener('abort', stop);
    stop();
    await checking;
  }
}
