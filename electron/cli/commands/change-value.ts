/** `locksmith change-value`: seed 1's change of a protected value — new lock, old lock deleted, account updated — in one guarded transaction. */
import { CONVENTION_FLAGS, optionalString, requireString, TABLE_FLAG } from '../args';
import type { CliCommand } from '../command';
import { WRITE_EXIT_CODES, WRITE_FLAGS } from './transaction-flow';
import { ACCOUNT_FLAG, accountFlag, runTableWrite } from './write-command';

/** The change-value command. */
export const changeValueCommand: CliCommand = {
  name: 'change-value',
  summary: 'Change an account’s protected value: Put the new lock, delete the old one, update the account — one guarded transaction.',
  usage: "change-value --table T --account '<key json>' --rule R --to V [--from V] [--dry-run] [--yes] [--json] [--allow-writes]",
  flags: {
    ...TABLE_FLAG,
    ...ACCOUNT_FLAG,
    rule: { type: 'string', valueName: 'R', description: 'the rule, as audit --json reports it (e.g. EMAIL)' },
    to: { type: 'string', valueName: 'V', description: 'the new value' },
    from: { type: 'string', valueName: 'V', description: 'the value as stored now (default: read from the account at preview)' },
    ...CONVENTION_FLAGS,
    ...WRITE_FLAGS,
  },
  details: `
One TransactWriteItems: Put the new lock with attribute_not_exists(<hash key>), Delete the old lock
with attribute_exists (and its owner, when the convention has one), Update the account only if it
still holds the old value. After executing, every written item is re-read (consistent reads):
"applied and verified", or what differs. Every execution is appended to the activity log.
${WRITE_EXIT_CODES}
Example:
  locksmith change-value --endpoint http://localhost:8000 --table accounts \\
    --account '{"PK":"ACCT#a1f9c3","SK":"PROFILE"}' --rule EMAIL --to ada@analytical.engine`,
  async run({ values, io }) {
    const rule = requireString(values, 'rule', 'change-value');
    const to = requireString(values, 'to', 'change-value');
    const from = optionalString(values, 'from');
    const account = accountFlag(values, 'change-value');
    return runTableWrite(values, io, 'change-value', { kind: 'change-value', account, rule, to, ...(from === undefined ? {} : { from }) });
  },
};
