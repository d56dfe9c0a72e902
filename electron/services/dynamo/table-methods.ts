/** The app's table methods over a request context: the connection check, `tables.list`, `tables.describe`. */
import type { TableDetails, TablesPage } from '../../../shared/contract/views';
import { ok, type Result } from '../../../shared/result';
import type { ConnectionContext, TableContext } from '../context/request-context';
import { listTables } from './tables';

/** Lists one table name: proof that the endpoint answers and the credentials are accepted. */
export async function checkConnection(ctx: ConnectionContext): Promise<Result<void>> {
  const listed = await listTables(ctx.client, undefined, { local: ctx.local, limit: 1 });
  return listed.ok ? ok(undefined) : listed;
}

/** One page of table names. */
export async function listTablesPage(
  ctx: ConnectionContext,
  args: { readonly cursor?: string | undefined; readonly limit?: number | undefined },
): Promise<Result<TablesPage>> {
  const listed = await listTables(ctx.client, args.cursor, { local: ctx.local, ...(args.limit ? { limit: args.limit } : {}) });
  if (!listed.ok) return listed;
  return ok({
    tables: listed.value.names,
    ...(listed.value.cursor ? { nextCursor: listed.value.cursor } : {}),
    ...(listed.value.hint ? { hint: listed.value.hint } : {}),
  });
}

/** The described table as the UI shows it. */
export async function tableDetails(ctx: TableContext): Promise<Result<TableDetails>> {
  const { name, keys, gsis, itemCount, sizeBytes, status } = ctx.table;
  const indexes = gsis.map((g) => ({
    name: g.name,
    kind: 'global' as const,
    keys: { hash: g.hash, ...(g.range ? { range: g.range } : {}) },
  }));
  return ok({ name, keys, indexes, itemCount, sizeBytes, status });
}
