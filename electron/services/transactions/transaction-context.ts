/** The transaction context of a request's connection: the one mapping, used by the app and the CLI alike (no SDK loaded here). */
import type { ConnectionContext } from '../context/request-context';
import type { TransactionContext, TransactionDeps } from './service';

/** Maps a request's connection context to what preview and execute take. */
export function transactionContext(ctx: ConnectionContext, deps?: Partial<TransactionDeps>): TransactionContext {
  return {
    connectionId: ctx.connectionId,
    client: ctx.client,
    connection: { label: ctx.label, region: ctx.target.region, ...(ctx.endpoint ? { endpoint: ctx.endpoint } : {}), ...(ctx.target.profile ? { profile: ctx.target.profile } : {}) },
    writable: ctx.writable,
    allowWrites: ctx.allowWrites,
    ...(ctx.secrets ? { secrets: ctx.secrets } : {}),
    ...(deps ? { deps } : {}),
  };
}
