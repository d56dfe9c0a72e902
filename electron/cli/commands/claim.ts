/** `locksmith claim`: write the lock for a value an account holds, guarded, previewed, confirmed. */
import { CONVENTION_FLAGS, requireString, TABLE_FLAG } from '../args';
import type { CliCommand } from '../command';
import { WRITE_EXIT_CODES, WRITE_FLAGS } from './transaction-flow';
import { ACCOUNT_FLAG, accountFlag, runTableWrite } from './write-command';

/** The claim command. */
export const claimCommand: CliCommand = {
  name: 'claim',
  summary: 'Claim a value for an account: Put its lock only if nobody holds it, while the account still holds the value.',
  usage: "claim --table T --rule R --value V --account '<key json>' [--dry-run] [--yes] [--json] [--allow-writes]",
  flags: {
    ...TABLE_FLAG,
    rule: { type: 'string', valueName: 'R', description: 'the rule, as audit --json reports it (e.g. HANDLE)' },
    value: { type: 'string', valueName: 'V', description: 'the value to claim' },
    ...ACCOUNT_FLAG,
    ...CONVENTION_FLAGS,
    ...WRITE_FLAGS,
  },
  details: `
One TransactWriteItems: Put the lock with attribute_not_exists(<hash key>) (naming the owner when
the convention has an owner attribute) + ConditionCheck that the account still holds the value as
stored. Without --yes the value must be typed back on a terminal; with no terminal, nothing is sent.
A rule the last complete audit of the table warned about (the table contradicts the convention) is
refused (exit 1, nothing sent) unless the convention is passed as a reviewed --convention FILE; a
detected or preset convention is not enough. --dry-run still shows the request, with the warning.
${WRITE_EXIT_CODES}
Example:
  locksmith claim --endpoint http://localhost:8000 --table accounts --rule HANDLE --value ada \\
    --account '{"PK":"ACCT#a1f9c3","SK":"PROFILE"}'`,
  async run({ values, io }) {
    const rule = requireString(values, 'rule', 'claim');
    const value = requireString(values, 'value', 'claim');
    const account = accountFlag(values, 'claim');
    return runTableWrite(values, io, 'claim', { kind: 'claim', rule, value, account });
  },
};
