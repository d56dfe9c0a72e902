/** `locksmith change-value`: seed 1's change of a protected value — new lock, old lock deleted, account updated — in one guarded transaction. */
import { CONVENTION_FLAGS, optionalString, requireString } from '../args';
import type { CliCommand } from '../command';
import { usageError } from '../command';
import { closeSession, openTable } from '../session';
import type { TableSession } from '../session';
import { keyFlag, runWrite, transactionContext, WRITE_EXIT_CODES, WRITE_FLAGS } from './transaction-flow';

/** The change-value command. */
export const changeValueCommand: CliCommand = {
  name: 'change-value',
  summary: 'Change an account’s protected value: Put the new lock, delete the old one, update the account — one guarded transaction.',
  usage: "change-value --table T --account '<key json>' --rule R --to V [--from V] [--dry-run] [--yes] [--json] [--allow-writes]",
  flags: {
    table: { type: 'string', valueName: 'T', description: 'the table' },
    account: { type: 'string', valueName: 'JSON', description: `the account's key, e.g. '{"PK":"ACCT#a1","SK":"PROFILE"}'` },
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
    const account = keyFlag(values, 'account') ?? usageError('change-value: --account is required', 'account');
    let session: TableSession | undefined;
    try {
      session = await openTable(values, io, 'change-value');
      const { connection, table } = session;
      const [{ resolveConvention }, { effectiveEndpoint }] = await Promise.all([
        import('../convention-source'),
        import('../../services/dynamo/client'),
      ]);
      const resolved = await resolveConvention({
        client: connection.client,
        table: table.name,
        keys: table.keys,
        values,
        signal: io.signal,
        errorContext: connection.errorContext,
      });
      const ctx = transactionContext(connection, values, io.env, effectiveEndpoint(connection.target, io.env).url);
      return await runWrite({
        io,
        values,
        ctx,
        table: table.name,
        resolved,
        operation: { kind: 'change-value', account, rule, to, ...(from === undefined ? {} : { from }) },
      });
    } finally {
      closeSession(session);
    }
  },
};
