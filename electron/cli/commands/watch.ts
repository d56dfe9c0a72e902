/** `locksmith watch`: read the table's stream and report problems the moment a write causes them. */
import { CONVENTION_FLAGS, optionalInt } from '../args';
import type { CliCommand } from '../command';
import { CliError, EXIT_OK } from '../command';
import { closeSession, openTable } from '../session';
import type { TableSession } from '../session';
import { conventionFor } from '../table-command';
import { eventText, type WatchGapLine } from '../../../shared/watch/watch-events';
import { toAppError } from '../../services/dynamo/errors';

/** The watch command. */
export const watchCommand: CliCommand = {
  name: 'watch',
  summary: 'Read the table’s DynamoDB stream and report each problem as a write causes it, and when it is fixed.',
  usage: 'watch --table T [--preset P | --convention FILE] [--json]',
  flags: {
    table: { type: 'string', valueName: 'T', description: 'the table (its stream must carry NEW_AND_OLD_IMAGES)' },
    ...CONVENTION_FLAGS,
    json: { type: 'boolean', description: 'one JSON object per stdout line' },
    'settle-ms': { type: 'string', valueName: 'MS', description: 'settle window before a touched value is re-checked (default 2000)' },
    'poll-ms': { type: 'string', valueName: 'MS', description: 'pause between empty reads of a shard (default 1000)' },
  },
  details: `
Every shard is read from LATEST (and every shard created later, after its parent); with a
convention that keeps its locks in a lock table, that table's stream is read too (it needs one). A write that
touches an account's protected value or a lock gets the values involved re-checked with consistent
reads after the settle window, so the several records of one transaction never raise a false alarm.
Events (with --json, one object per line):
  {"event":"watching","table":…,"streamArn":…}
  {"event":"problem","problem":{kind,rule,value,lock?,accounts?},"cause":{eventName,keys,at,sequenceNumber}}
  {"event":"resolved","problem":{…},"cause":{…}}
  {"event":"gap","reason":…,"at":…}   changes were missed (an expired or trimmed position): run an audit
Gaps and retries are also said on stderr, in words.
A table without a stream (or with another view type) exits 2 with the update-table command to run;
Locksmith never enables a stream itself. Ctrl+C (SIGINT) or SIGTERM stops cleanly with exit 0.
Example:
  locksmith watch --endpoint http://localhost:8000 --table accounts --preset uniq --json`,
  async run({ values, io }) {
    const settleMs = optionalInt(values, 'settle-ms', 'watch', 0, 60_000);
    const pollMs = optionalInt(values, 'poll-ms', 'watch', 10, 60_000);
    let session: TableSession | undefined;
    let streams: { destroy: () => void } | undefined;
    try {
      session = await openTable(values, io, 'watch');
      const { connection, table } = session;
      const [{ findLockStream, findWatchableStream, watchTable }, { createStreamsClient }] = await Promise.all([
        import('../../services/watch/watch'),
        import('../../services/watch/streams-client'),
      ]);
      const arn = await findWatchableStream(connection.client, table.name, io.signal, connection.errorContext);
      if (!arn.ok) throw new CliError(arn.error);
      const resolved = await conventionFor(session, values, io);
      const lockArn = await findLockStream(connection.client, resolved.convention, io.signal, connection.errorContext);
      if (!lockArn.ok) throw new CliError(lockArn.error);
      const client = createStreamsClient(connection.target, io.env);
      streams = client;
      await watchTable({
        client: connection.client,
        streams: client,
        table,
        convention: resolved.convention,
        streamArn: arn.value,
        ...(lockArn.value === undefined ? {} : { lockStreamArn: lockArn.value }),
        signal: io.signal,
        ...(settleMs === undefined ? {} : { settleMs }),
        ...(pollMs === undefined ? {} : { pollMs }),
        onEvent: (event) => io.stdout(values.json === true ? `${JSON.stringify(event)}\n` : `${eventText(event)}\n`),
        onNotice: (notice) => {
          io.stderr(`locksmith: ${notice.message}\n`);
          // stderr alone would leave a script reading stdout with silence that reads as "no drift".
          if (notice.kind === 'gap' && values.json === true)
            io.stdout(`${JSON.stringify({ event: 'gap', reason: notice.message, at: new Date().toISOString() } satisfies WatchGapLine)}\n`);
        },
      });
      return EXIT_OK;
    } catch (error) {
      // Ctrl+C and SIGTERM end a watch: that is its normal way out.
      if (io.signal.aborted) return EXIT_OK;
      if (error instanceof CliError) throw error;
      throw new CliError(toAppError(error, { ...session?.connection.errorContext, table: session?.table.name }));
    } finally {
      streams?.destroy();
      closeSession(session);
    }
  },
};
