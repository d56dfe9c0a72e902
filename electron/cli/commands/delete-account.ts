/** `locksmith delete-account`: seed 1's account deletion — the account and every lock of its values — in one guarded transaction. */
import { CONVENTION_FLAGS, TABLE_FLAG } from '../args';
import type { CliCommand } from '../command';
import { WRITE_EXIT_CODES, WRITE_FLAGS } from './transaction-flow';
import { ACCOUNT_FLAG, accountFlag, runTableWrite } from './write-command';

/** The delete-account command. */
export const deleteAccountCommand: CliCommand = {
  name: 'delete-account',
  summary: 'Delete an account with all its locks, in one guarded transaction (no lock left behind).',
  usage: "delete-account --table T --account '<key json>' [--dry-run] [--yes] [--json] [--allow-writes]",
  flags: {
    ...TABLE_FLAG,
    ...ACCOUNT_FLAG,
    ...CONVENTION_FLAGS,
    ...WRITE_FLAGS,
  },
  details: `
One TransactWriteItems: Delete the account only if it still holds the values read at preview, and
Delete the lock of each value (attribute_exists, and the owner when the convention has one). After
executing, every written item is re-read (consistent reads): "applied and verified", or what
differs. Every execution is appended to the activity log.
${WRITE_EXIT_CODES}
Example:
  locksmith delete-account --endpoint http://localhost:8000 --table accounts --account '{"PK":"ACCT#a1f9c3","SK":"PROFILE"}'`,
  async run({ values, io }) {
    const account = accountFlag(values, 'delete-account');
    return runTableWrite(values, io, 'delete-account', { kind: 'delete-account', account });
  },
};
