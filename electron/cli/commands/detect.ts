/** `locksmith detect`: sample a table and propose a convention file, with the evidence. */
import { shownText, terminalSafeJson } from '../../../shared/terminal-text';
import { optionalInt, TABLE_FLAG } from '../args';
import type { CliCommand } from '../command';
import { CliError, EXIT_OK, unwrap } from '../command';
import { withTable } from '../table-command';
import { presetFlag } from '../convention-source';

/** The detect command. */
export const detectCommand: CliCommand = {
  name: 'detect',
  summary: 'Sample a table and propose its convention file, with the evidence behind it.',
  usage: 'detect --table T [--preset P] [--sample N] [--json]',
  flags: {
    ...TABLE_FLAG,
    preset: { type: 'string', valueName: 'P', description: 'only consider this preset' },
    sample: { type: 'string', valueName: 'N', description: 'items to sample (default 2000)' },
    json: { type: 'boolean', description: 'print {"table","confidence","evidence","convention"} as JSON' },
  },
  details: `
Without --json the evidence is printed first, then the convention file; save the file and pass
it to audit with --convention FILE after checking it.
Example:
  locksmith detect --endpoint http://localhost:8000 --table users`,
  async run({ values, io }) {
    const sampleSize = optionalInt(values, 'sample', 'detect', 1, 100_000);
    return withTable(values, io, 'detect', async ({ connection, table }) => {
      const [{ sampleItems }, { detectConvention }, { conventionToFile }] = await Promise.all([
        import('../../services/audit/sample'),
        import('../../../shared/conventions/detect'),
        import('../../../shared/conventions/file'),
      ]);
      const preset = presetFlag(values);
      const sample = unwrap(
        await sampleItems(connection.client, table.name, sampleSize, { signal: io.signal, errorContext: connection.errorContext }),
      );
      const detection = detectConvention(table.keys, sample, preset ? { preset } : {});
      if (!detection.ok)
        throw new CliError({ ...detection.error, message: `cannot detect the convention of ${table.name}: ${detection.error.message}` });
      const { convention, evidence, confidence } = detection.value;
      const file = conventionToFile(convention);
      if (values.json === true) {
        io.stdout(`${JSON.stringify({ table: table.name, sampled: sample.length, confidence, evidence, convention: file })}\n`);
      } else {
        const lines = [
          `Table ${table.name}: proposed convention ${convention.preset} (confidence ${confidence}, ${sample.length} items sampled)`,
          ...evidence.map((e) => `  - ${shownText(e)}`),
          '',
          terminalSafeJson(JSON.stringify(file, null, 2)),
        ];
        io.stdout(`${lines.join('\n')}\n`);
      }
      return EXIT_OK;
    });
  },
};
