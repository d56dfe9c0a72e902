/**
 * The run of a single guarded write (claim, release, change-value, delete-account): the table and
 * its convention (table-command.ts), the warned-rule gate for the operations that name one rule
 * the last audit may have warned about, then the one transaction flow (transaction-flow.ts).
 */
import type { PlainKey } from '../../../shared/model';
import type { TransactionOperation } from '../../../shared/transactions/types';
import type { CliIo, FlagSpecs, FlagValues } from '../command';
import { usageError } from '../command';
import { tablePlace } from '../cache-file';
import { withConvention } from '../table-command';
import { warnedRuleGate } from '../warning-memory';
import { lockRulesWritten } from '../../../shared/transactions/lock-rules';
import { EXIT_REFUSED, keyFlag, runWrite, transactionContext } from './transaction-flow';

/** The flag naming the account a write acts for. */
export const ACCOUNT_FLAG: FlagSpecs = {
  account: { type: 'string', valueName: 'JSON', description: `the account's key, e.g. '{"PK":"ACCT#a1","SK":"PROFILE"}'` },
};

/** The required --account key of `command`. */
export function accountFlag(values: FlagValues, command: string): PlainKey {
  return keyFlag(values, 'account') ?? usageError(`${command}: --account is required`, 'account');
}

/** Runs one guarded write on `--table` and returns the exit code. */
export function runTableWrite(values: FlagValues, io: CliIo, command: string, operation: TransactionOperation): Promise<number> {
  return withConvention(values, io, command, async ({ connection, table, resolved }) => {
    // A write to the locks of a rule the last audit found the table contradicts takes a reviewed --convention FILE (warning-memory.ts).
    for (const rule of lockRulesWritten(operation, resolved.convention)) {
      const refused = await warnedRuleGate(io, {
        place: tablePlace(connection.target, table.name),
        resolved,
        rule,
        dryRun: values['dry-run'] === true,
        refusedCode: EXIT_REFUSED,
      });
      if (refused !== undefined) return refused;
    }
    const { effectiveEndpoint } = await import('../../services/dynamo/client');
    const ctx = transactionContext(connection, values, io.env, effectiveEndpoint(connection.target, io.env).url);
    return runWrite({ io, values, ctx, table: table.name, resolved, operation });
  });
}
