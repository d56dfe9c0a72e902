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
import { EXIT_REFUSED, keyFlag, runWrite, transactionContext } from './transaction-flow';

/** The flag naming the account a write acts for. */
export const ACCOUNT_FLAG: FlagSpecs = {
  account: { type: 'string', valueName: 'JSON', description: `the account's key, e.g. '{"PK":"ACCT#a1","SK":"PROFILE"}'` },
};

/** The required --account key of `command`. */
export function accountFlag(values: FlagValues, command: string): PlainKey {
  return keyFlag(values, 'account') ?? usageError(`${command}: --account is required`, 'account');
}

/** The operations that claim or release one rule's value: a rule the last audit warned about takes a reviewed --convention FILE. */
function gatedRule(operation: TransactionOperation): string | undefined {
  return operation.kind === 'claim' || operation.kind === 'release' ? operation.rule : undefined;
}

/** Runs one guarded write on `--table` and returns the exit code. */
export function runTableWrite(values: FlagValues, io: CliIo, command: string, operation: TransactionOperation): Promise<number> {
  return withConvention(values, io, command, async ({ connection, table, resolved }) => {
    const rule = gatedRule(operation);
    if (rule !== undefined) {
      // A rule the last audit found the table contradicts takes a reviewed --convention FILE (warning-memory.ts).
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
