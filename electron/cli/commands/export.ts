/** `locksmith export`: write a table in DynamoDB's export-to-S3 layout, from a parallel scan. */
import { optionalInt, requireString } from '../args';
import type { CliCommand } from '../command';
import { CliError, EXIT_OK } from '../command';
import { progressPrinter } from '../session';
import { withTable } from '../table-command';
import { tableArnFor } from '../../services/export/layout';

/** The export command. */
export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'Write a table in the layout of a DynamoDB export to S3 (manifests, MD5s, gzipped DynamoDB JSON), from a parallel scan.',
  usage: 'export --table T --out DIR [--partitions N] [--segments N] [--json]',
  flags: {
    table: { type: 'string', valueName: 'T', description: 'the table to export' },
    out: { type: 'string', valueName: 'DIR', description: "the folder to write AWSDynamoDB/<ExportId>/ into (the S3 prefix's local twin)" },
    partitions: {
      type: 'string',
      valueName: 'N',
      description: 'data files, items routed by a hash of the partition key (default 8; empty partitions give empty files)',
    },
    segments: { type: 'string', valueName: 'N', description: 'parallel scan segments (default 4 on an endpoint, 8 on AWS)' },
    json: { type: 'boolean', description: 'print {"exportArn","dir","itemCount","files"} as JSON' },
  },
  details: `
For DynamoDB Local (which cannot ExportTableToPointInTime) and as fixtures: the result reads exactly like an
AWS export, e.g. with \`locksmith audit --export DIR\`. Unlike a real export it is a Scan: it uses read capacity.
Nothing is left behind when the scan fails or is cancelled.
Examples:
  locksmith export --endpoint http://localhost:8000 --table accounts --out ./exports`,
  async run({ values, io }) {
    const out = requireString(values, 'out', 'export');
    const partitions = optionalInt(values, 'partitions', 'export', 1, 10_000);
    const segmentsFlag = optionalInt(values, 'segments', 'export', 1, 1_000_000);
    return withTable(values, io, 'export', async ({ connection, table }) => {
      const [{ exportTable }, { defaultSegments }] = await Promise.all([
        import('../../services/export/export-table'),
        import('../../services/dynamo/client'),
      ]);
      const progress = progressPrinter(io);
      let written;
      try {
        written = await exportTable({
          client: connection.client,
          table: table.name,
          keys: table.keys,
          tableArn: tableArnFor(table.name, connection.target.region),
          out,
          partitions,
          segments: segmentsFlag ?? defaultSegments(connection.target, io.env),
          signal: io.signal,
          errorContext: connection.errorContext,
          onProgress: progress.update,
        });
      } catch (error) {
        throw new CliError({ kind: 'aws', message: (error as Error).message });
      } finally {
        progress.done();
      }
      if (values.json === true)
        io.stdout(
          `${JSON.stringify({ exportArn: written.exportArn, dir: written.dir, itemCount: written.itemCount, files: written.files.length })}\n`,
        );
      else io.stdout(`exported ${written.itemCount} items of ${table.name} in ${written.files.length} files to ${written.dir}\n`);
      return EXIT_OK;
    });
  },
};
