/** The transaction context of a request's connection: the one mapping, used by the app and the CLI alike (no SDK loaded here). */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { PreviewConnection } from '../../../shared/transactions/types';
import type { ConnectionContext } from '../context/request-context';
import type { ErrorContext } from '../dynamo/errors';
import type { RetryPolicy } from '../dynamo/retry';
import type { PreviewStore } from './preview-store';

/** Replaceable parts (tests inject a clock, a data folder, a fast retry policy). */
export interface TransactionDeps {
  readonly store: PreviewStore;
  /** Data folder of the activity log; default LOCKSMITH_DATA_DIR or the OS app-data folder. */
  readonly dataDir?: string;
  readonly retry?: RetryPolicy;
  readonly wait?: (ms: number) => Promise<void>;
  /** Segments of the consistent holder scan before a release. */
  readonly holderSegments?: number;
  /**
   * Told before a write is sent and once it is answered (or failed, when it may have landed): the
   * app retires the audits of this connection that started before, so lookups stop lending them.
   */
  readonly onWrite?: () => void;
}

/** One connection as the service sees it: a client, what to show and log, and whether it may write. */
export interface TransactionContext {
  /** The connection's id: a preview remembers it, and only an execute on the same connection may send it. */
  readonly connectionId: string;
  readonly client: DynamoDBClient;
  /** Label, region, effective endpoint and profile (never credentials). */
  readonly connection: PreviewConnection;
  readonly writable: boolean;
  /** What to do to allow writes (the shell's words), said when a read-only connection refuses. */
  readonly allowWrites?: string;
  /** Strings to scrub from messages and the log (the connection's static keys, if any). */
  readonly secrets?: readonly string[];
  readonly deps?: Partial<TransactionDeps>;
}

/** Maps a request's connection context to what preview and execute take. */
export function transactionContext(ctx: ConnectionContext, deps?: Partial<TransactionDeps>): TransactionContext {
  return {
    connectionId: ctx.connectionId,
    client: ctx.client,
    connection: {
      label: ctx.label,
      region: ctx.target.region,
      ...(ctx.endpoint ? { endpoint: ctx.endpoint } : {}),
      ...(ctx.target.profile ? { profile: ctx.target.profile } : {}),
    },
    writable: ctx.writable,
    allowWrites: ctx.allowWrites,
    ...(ctx.secrets ? { secrets: ctx.secrets } : {}),
    ...(deps ? { deps } : {}),
  };
}

/** What an error on this connection may name (table, endpoint, profile) and must scrub (its secrets). */
export function errorContextOf(ctx: TransactionContext, table: string): ErrorContext {
  return { table, endpoint: ctx.connection.endpoint, profile: ctx.connection.profile, secrets: ctx.secrets };
}
