/** `locksmith lookup`: one value, a verdict per rule (free, held, orphan, unprotected, duplicate). */
import { CONVENTION_FLAGS, optionalInt, optionalString, requireString, SCOPE_FLAG, scopeFlag, TABLE_FLAG } from '../args';
import type { CliCommand } from '../command';
import { EXIT_OK, EXIT_PROBLEMS, unwrap } from '../command';
import { incomplete, progressPrinter } from '../session';
import { withConvention } from '../table-command';
import { styleFor } from '../style';
import { lookupText } from '../report-text';

/** The lookup command. */
export const lookupCommand: CliCommand = {
  name: 'lookup',
  summary: 'Look one value up: which lock exists, which accounts hold it, and the verdict per rule.',
  usage: 'lookup --table T --value V [--rule R] [--scope ATTR=V] [--confirm] [--preset P | --convention FILE] [--json]',
  flags: {
    ...TABLE_FLAG,
    value: { type: 'string', valueName: 'V', description: 'the value, e.g. ada@lovelace.io' },
    rule: { type: 'string', valueName: 'R', description: 'only this rule (names as audit reports them, e.g. EMAIL)' },
    ...SCOPE_FLAG,
    ...CONVENTION_FLAGS,
    segments: { type: 'string', valueName: 'N', description: 'segments of the holder scan, when no index fits' },
    confirm: {
      type: 'boolean',
      description:
        'when an index finds no holder, confirm it with a consistent scan (an index is eventually consistent and finds the stored spelling only)',
    },
    json: { type: 'boolean', description: 'print only the JSON answer on stdout' },
  },
  details: `
Locks are read with consistent GetItem (every template, legacy forms included). Holders are found
through a GSI whose partition key is the rule's attribute when the table has one, else by a scan;
every index hit is re-read by key, and --confirm checks an index's "no holder" with a consistent scan.
A scoped rule (unique within an org, a tenant…) is looked up in the --scope given; without one,
one scan finds its locks and holders in every scope and answers once per scope found.
Exit codes: 0 free or held, 1 orphan, unprotected or duplicate, 2 error or incomplete.
Example:
  locksmith lookup --endpoint http://localhost:8000 --table accounts --value ada@lovelace.io`,
  async run({ values, io }) {
    const value = requireString(values, 'value', 'lookup');
    const rule = optionalString(values, 'rule');
    const scope = scopeFlag(values, 'lookup');
    const segmentsFlag = optionalInt(values, 'segments', 'lookup', 1, 1_000_000);
    return withConvention(
      values,
      io,
      'lookup',
      async ({ connection, table, resolved, segments }) => {
        const { lookupValue } = await import('../../services/lookup/lookup');
        const progress = progressPrinter(io);
        const answer = unwrap(
          await lookupValue({
            client: connection.client,
            table,
            convention: resolved.convention,
            value,
            rule,
            ...(scope ? { scope } : {}),
            ...(values.confirm === true ? { confirmAbsenceWithScan: true } : {}),
            segments,
            signal: io.signal,
            onProgress: progress.update,
            errorContext: connection.errorContext,
          }),
        );
        progress.done();
        io.stdout(values.json === true ? `${JSON.stringify(answer)}\n` : lookupText(answer, table.keys, styleFor(io)));
        if (!answer.complete) return incomplete(io, answer.reason ?? 'the holder scan did not finish');
        return answer.rules.some((r) => r.verdict === 'orphan' || r.verdict === 'unprotected' || r.verdict === 'duplicate')
          ? EXIT_PROBLEMS
          : EXIT_OK;
      },
      segmentsFlag ?? 'default',
    );
  },
};
