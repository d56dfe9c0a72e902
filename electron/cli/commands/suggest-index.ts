/** `locksmith suggest-index`: the GSI per rule that makes lookups one Query instead of a scan, as the exact UpdateTable to run. */
import { CONVENTION_FLAGS, optionalString, TABLE_FLAG } from '../args';
import type { CliCommand } from '../command';
import { CliError, EXIT_OK } from '../command';
import { withConvention } from '../table-command';
import { suggestIndexes } from '../../../shared/conventions/suggest-index';

/** The suggest-index command. */
export const suggestIndexCommand: CliCommand = {
  name: 'suggest-index',
  summary: 'Print the GSI that would make lookups of each rule instant, as the exact UpdateTable input and AWS CLI command.',
  usage: 'suggest-index --table T [--rule R] [--preset P | --convention FILE] [--json]',
  flags: {
    ...TABLE_FLAG,
    rule: { type: 'string', valueName: 'R', description: 'only this rule (names as audit reports them, e.g. EMAIL)' },
    ...CONVENTION_FLAGS,
    json: { type: 'boolean', description: 'print only the JSON suggestions on stdout' },
  },
  details: `
Without a GSI whose partition key is the rule's attribute, a lookup scans the whole table (or, in the
app, answers from an audit it just ran). This prints, per rule, the index that already serves it, or
the UpdateTable input that adds one (keys-only projection) and the same as an AWS CLI command. Nothing
is created: run the command yourself. Building an index reads the table once.
JSON (--json): [{"rule", "attribute", "existing"?, "updateTable"?, "awsCli"?, "notes"}]
Example:
  locksmith suggest-index --profile prod --table users --rule EMAIL`,
  async run({ values, io }) {
    const rule = optionalString(values, 'rule');
    return withConvention(values, io, 'suggest-index', async ({ table, resolved }) => {
      let suggestions;
      try {
        suggestions = suggestIndexes(table, resolved.convention, rule);
      } catch (error) {
        throw new CliError({ kind: 'validation', field: 'rule', message: error instanceof Error ? error.message : String(error) });
      }
      if (values.json === true) {
        io.stdout(`${JSON.stringify(suggestions)}\n`);
        return EXIT_OK;
      }
      const lines: string[] = [];
      for (const s of suggestions) {
        lines.push(
          s.existing
            ? `${s.rule} (${s.attribute}): index ${s.existing} already serves lookups`
            : `${s.rule} (${s.attribute}): no index; to add one:`,
          ...(s.awsCli ? [`  ${s.awsCli}`] : []),
          ...s.notes.map((n) => `  note: ${n}`),
          '',
        );
      }
      io.stdout(`${lines.join('\n')}`);
      return EXIT_OK;
    });
  },
};
