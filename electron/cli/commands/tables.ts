/** `locksmith tables`: list the tables at a connection (with the empty-list hint for DynamoDB Local). */
import type { CliCommand } from '../command';
import { EXIT_OK, unwrap } from '../command';
import { openConnection } from '../connection';

/** The tables command. */
export const tablesCommand: CliCommand = {
  name: 'tables',
  summary: 'List the tables at a connection.',
  usage: 'tables [--json]',
  flags: { json: { type: 'boolean', description: 'print {"endpoint","region","tables","hint"?} as JSON' } },
  async run({ values, io }) {
    const connection = await openConnection(values, io);
    try {
      const [{ listAllTables }, { effectiveEndpoint }] = await Promise.all([
        import('../../services/dynamo/tables'),
        import('../../services/dynamo/client'),
      ]);
      const page = unwrap(
        await listAllTables(connection.client, { local: connection.local, signal: io.signal, errorContext: connection.errorContext }),
      );
      const endpoint = effectiveEndpoint(connection.target, io.env).url ?? `aws (${connection.target.region})`;
      if (values.json === true) {
        io.stdout(
          `${JSON.stringify({ endpoint, region: connection.target.region, tables: page.names, ...(page.hint ? { hint: page.hint } : {}) })}\n`,
        );
      } else {
        io.stdout(
          `${[`${connection.target.label} — endpoint ${endpoint}, region ${connection.target.region}`, ...page.names.map((t) => `  ${t}`)].join('\n')}\n`,
        );
        if (page.hint) io.stderr(`locksmith: ${page.hint}\n`);
      }
      return EXIT_OK;
    } finally {
      connection.client.destroy();
    }
  },
};
