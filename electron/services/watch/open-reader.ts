/** Opening one table's stream reader for the live watches: find its stream(s), start watchTable, and wire its events to the store. */
import { ok, type Result } from '../../../shared/result';
import { ProblemTracker } from '../../../shared/watch/tracker';
import type { ConventionContext } from '../context/request-context';
import { createDynamoClient } from '../dynamo/client';
import { toAppError } from '../dynamo/errors';
import { createStreamsClient } from './streams-client';
import { findLockStream, findWatchableStream, watchTable } from './watch';
import type { Reader, WatcherStore } from './watcher-store';

/** What opening a reader needs beside the context. */
export interface OpenReaderOptions {
  readonly store: WatcherStore;
  readonly env?: NodeJS.ProcessEnv;
  readonly settleMs: number;
  readonly pollMs?: number;
}

/** Starts a reader on the table's stream under `key` (or refuses, starting nothing). */
export async function openReader(ctx: ConventionContext, key: string, options: OpenReaderOptions): Promise<Result<Reader>> {
  const { convention } = ctx;
  const { store } = options;
  const table = ctx.table.name;
  // Its own clients: a watch outlives requests, and its long polls should not share the request pool's sockets.
  const client = createDynamoClient(ctx.target, options.env ? { env: options.env } : {});
  try {
    const arn = await findWatchableStream(client, table);
    if (!arn.ok) {
      client.destroy();
      return arn;
    }
    // Locks kept in a table of their own change on that table's stream: read it too, or refuse.
    const lockArn = await findLockStream(client, convention);
    if (!lockArn.ok) {
      client.destroy();
      return lockArn;
    }
    const streams = createStreamsClient(ctx.target, options.env);
    let resolveReady: () => void = () => undefined;
    const reader: Reader = {
      key,
      streamArn: arn.value,
      ...(lockArn.value === undefined ? {} : { lockStreamArn: lockArn.value }),
      controller: new AbortController(),
      tracker: new ProblemTracker(),
      watchers: new Set(),
      ready: new Promise<void>((resolve) => (resolveReady = resolve)),
      done: Promise.resolve(),
      status: 'lagging',
    };
    reader.done = watchTable({
      client,
      streams,
      table: ctx.table,
      convention,
      streamArn: arn.value,
      ...(lockArn.value === undefined ? {} : { lockStreamArn: lockArn.value }),
      signal: reader.controller.signal,
      settleMs: options.settleMs,
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      tracker: reader.tracker,
      onEvent: (event) => {
        if (event.event === 'watching') resolveReady();
        else store.broadcast(reader, event);
      },
      onStatus: (status) => store.setStatus(reader, status),
      onNotice: (notice) => {
        if (notice.kind !== 'gap') return;
        reader.gap = notice.message;
        store.setStatus(reader, 'gap');
      },
    })
      .then(
        () => store.setStatus(reader, 'stopped', 'stopped on request'),
        (error: unknown) => store.setStatus(reader, 'stopped', toAppError(error, { table }).message),
      )
      .finally(() => {
        resolveReady();
        streams.destroy();
        client.destroy();
        store.retire(reader);
      });
    store.readers.set(key, reader);
    return ok(reader);
  } catch (error) {
    client.destroy();
    return { ok: false, error: toAppError(error, { table }) };
  }
}
