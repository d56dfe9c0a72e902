/** The common start of table commands: open the connection, describe the table, say clearly what is wrong. */
import type { ScanProgress } from '../../shared/scan-types';
import type { TableInfo } from '../services/dynamo/tables';
import type { CliIo, FlagValues } from './command';
import { CliError, EXIT_ERROR } from './command';
import type { Connection } from './connection';
import { openConnection } from './connection';
import { requireString } from './args';
import { progressLine } from './report-text';

/** What a table command without a connection should have been given. */
export const NO_CONNECTION_FIX = 'pass --endpoint http://localhost:8000 (DynamoDB Local) or --profile NAME (AWS)';

/** An open connection and the described table. */
export interface TableSession {
  readonly connection: Connection;
  readonly table: TableInfo;
}

/**
 * Opens the connection and describes `--table`; unknown tables get the list of what exists (or the empty-list hint).
 * `whileDescribing` starts work that needs only the connection (a sample) alongside DescribeTable.
 */
export async function openTable(
  values: FlagValues,
  io: CliIo,
  command: string,
  whileDescribing?: (connection: Connection, table: string) => void,
  opened?: Connection,
): Promise<TableSession> {
  const name = requireString(values, 'table', command);
  const connection = opened ?? (await openConnection(values, io));
  const { describeTable, listTables } = await import('../services/dynamo/tables');
  whileDescribing?.(connection, name);
  const described = await describeTable(connection.client, name, { signal: io.signal, errorContext: connection.errorContext });
  if (described.ok) return { connection, table: described.value };
  if (described.error.kind === 'credentials' && connection.target.endpoint === undefined && connection.target.profile === undefined) {
    // No --endpoint or --profile was given: the default AWS chain was a guess, so say what to pass.
    throw new CliError({ ...described.error, fix: NO_CONNECTION_FIX });
  }
  if (described.error.kind !== 'not-found') throw new CliError(described.error);
  const listed = await listTables(connection.client, undefined, { local: connection.local, limit: 20, signal: io.signal });
  // The region too: AWS_REGION overrides a profile's own region (as in the AWS CLI), and DynamoDB Local keeps tables per region.
  const where = `${connection.target.label}, region ${connection.target.region}`;
  if (listed.ok && listed.value.hint)
    throw new CliError({ kind: 'not-found', message: `table ${name} not found at ${where}: ${listed.value.hint}` });
  const known =
    listed.ok && listed.value.names.length > 0 ? ` (tables: ${listed.value.names.join(', ')}${listed.value.cursor ? ', …' : ''})` : '';
  throw new CliError({ kind: 'not-found', message: `table ${name} not found at ${where}${known}` });
}

/** Closes the client (sockets) — the CLI exits anyway, but tests run commands in-process. */
export function closeSession(session: Pick<TableSession, 'connection'> | undefined): void {
  session?.connection.client.destroy();
}

/** Exit code for a run that did not complete: the reason on stderr, exit 2. */
export function incomplete(io: CliIo, reason: string): number {
  io.stderr(`locksmith: incomplete: ${reason}\n`);
  return EXIT_ERROR;
}

/** A progress line on stderr, rewritten at most every 200 ms — only when stderr is a terminal. */
export function progressPrinter(io: CliIo, expectedItems?: number): { update?: (progress: ScanProgress) => void; done: () => void } {
  if (!io.interactive) return { done: () => undefined };
  let last = 0;
  let shown = false;
  return {
    update: (progress) => {
      const now = performance.now();
      if (now - last < 200) return;
      last = now;
      shown = true;
      io.stderr(`\r${progressLine(progress, expectedItems)}   `);
    },
    done: () => {
      if (shown) io.stderr('\n');
    },
  };
}
