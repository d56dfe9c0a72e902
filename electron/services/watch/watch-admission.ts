/** Which live watches may start: how many readers run at once, how many read one table's stream, and which reader a start joins. */
import { err, type Result } from '../../../shared/result';
import type { ConventionContext } from '../context/request-context';
import { canonicalJson } from '../audit/audit-index';
import type { WatcherStore } from './watcher-store';

/** Stream readers running at once (each holds a reader on every shard of its table). */
export const MAX_LIVE_WATCHES = 8;

/** Readers of one table's stream at once: DynamoDB Streams throttles a shard read by more than two. */
export const MAX_READERS_PER_TABLE = 2;

/** The table a start watches, and its reader's key: a reader judges records by its convention, so a watch joins only one reading with the very same one. */
export function readerKeys(ctx: ConventionContext): { readonly tableKey: string; readonly key: string } {
  const tableKey = JSON.stringify([ctx.connectionId, ctx.table.name]);
  return { tableKey, key: `${tableKey}|${canonicalJson(ctx.convention)}` };
}

/** Why a new reader of `tableKey` may not open now, or undefined when it may. */
export function admissionRefusal(store: WatcherStore, tableKey: string, table: string): Result<never> | undefined {
  if (store.readers.size + store.opening.size >= MAX_LIVE_WATCHES)
    return err('conflict', `${MAX_LIVE_WATCHES} live watches are running already; stop one first.`);
  if (store.readersOf(tableKey) >= MAX_READERS_PER_TABLE) {
    return err(
      'conflict',
      `${table} is watched live with ${MAX_READERS_PER_TABLE} other conventions already (another window or tab), and a stream takes at most ${MAX_READERS_PER_TABLE} readers: switch Live off there, or audit with the same convention.`,
    );
  }
  return undefined;
}
