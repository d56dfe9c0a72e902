/**
 * The one shape of a table command: open the connection and describe the table, resolve the
 * convention from its source (--convention FILE, --preset, or detection), run one service function
 * on that context, and close the connection whatever happened. The command keeps only its flags,
 * its service call and its formatter.
 */
import type { CliIo, FlagValues } from './command';
import { resolveConvention, type ResolvedConvention } from './convention-source';
import type { Item } from '../../shared/model';
import { closeSession, openTable, type TableSession } from './session';

/** A described table on an open connection. */
export type TableRun = TableSession;

/** A described table on an open connection, with the convention to read it by. */
export interface ConventionRun extends TableSession {
  readonly resolved: ResolvedConvention;
  /** The scan segments detection read with, for the command's own scans to use alike. */
  readonly segments: number | undefined;
}

/** Runs `body` on the described `--table`; the connection is closed after, whatever happened. */
export async function withTable<T>(values: FlagValues, io: CliIo, command: string, body: (run: TableRun) => Promise<T>): Promise<T> {
  let session: TableSession | undefined;
  try {
    session = await openTable(values, io, command);
    return await body(session);
  } finally {
    closeSession(session);
  }
}

/** How the convention's detection reads: its scan segments (default: the connection's), or none given. */
export type SegmentsChoice = number | 'default' | undefined;

/** The scan segments a command uses on a connection: the flag's, the connection's default, or none. */
async function segmentsFor(session: TableSession, io: CliIo, choice: SegmentsChoice): Promise<number | undefined> {
  if (choice !== 'default') return choice;
  const { defaultSegments } = await import('../services/dynamo/client');
  return defaultSegments(session.connection.target, io.env);
}

/**
 * Resolves the convention `--table`'s flags choose: a file, a preset, or detection read with
 * `segments` (from `sample` when the command already holds one).
 */
export async function conventionFor(
  session: TableSession,
  values: FlagValues,
  io: CliIo,
  segments?: number,
  sample?: Promise<Item[]>,
): Promise<ResolvedConvention> {
  const { connection, table } = session;
  return resolveConvention({
    client: connection.client,
    table: table.name,
    keys: table.keys,
    values,
    signal: io.signal,
    errorContext: connection.errorContext,
    ...(segments === undefined ? {} : { segments }),
    ...(sample ? { sample: () => sample } : {}),
  });
}

/**
 * Runs `body` on the described `--table` and the convention its flags choose. `segments`: the
 * scan segments detection reads with, handed on to the command's own scans.
 */
export function withConvention<T>(
  values: FlagValues,
  io: CliIo,
  command: string,
  body: (run: ConventionRun) => Promise<T>,
  segments?: SegmentsChoice,
): Promise<T> {
  return withTable(values, io, command, async (session) => {
    const count = await segmentsFor(session, io, segments);
    return body({ ...session, resolved: await conventionFor(session, values, io, count), segments: count });
  });
}
