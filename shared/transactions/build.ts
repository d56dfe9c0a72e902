/** One entry point for the pure builders: a resolved spec in, a checked transaction out. */
import type { Convention, KeySchema } from '../model';
import { assertNever, err, type Result } from '../result';
import { buildChangeValue, buildDeleteAccount, buildSignup } from './build-lifecycle';
import { buildClaim, buildRelease } from './build-locks';
import { lockDeleteViolations, preflight } from './preflight';
import type { BuiltTransaction, TransactionSpec } from './types';

/** Builds the transaction for a resolved spec, then runs the pre-flight checks on the exact items. */
export function buildTransaction(table: string, convention: Convention, spec: TransactionSpec): Result<BuiltTransaction> {
  const ctx = { table, convention };
  let built: Result<BuiltTransaction>;
  switch (spec.kind) {
    case 'claim':
      built = buildClaim(ctx, spec);
      break;
    case 'release':
      built = buildRelease(ctx, spec);
      break;
    case 'signup':
      built = buildSignup(ctx, spec);
      break;
    case 'change-value':
      built = buildChangeValue(ctx, spec);
      break;
    case 'delete-account':
      built = buildDeleteAccount(ctx, spec);
      break;
    default:
      return assertNever(spec);
  }
  if (!built.ok) return built;
  const [wrongDelete] = lockDeleteViolations(built.value.items, built.value.actions, convention);
  if (wrongDelete) return err('validation', `${wrongDelete.field}: ${wrongDelete.message}`, { field: wrongDelete.field });
  const checked = preflight({ TransactItems: built.value.items, ClientRequestToken: 'preflight-token' }, keySchemas(table, convention));
  return checked.ok ? built : checked;
}

/** The key schema of every table a transaction of this convention may touch (the accounts' table and its lock table). */
export function keySchemas(table: string, convention: Convention): Record<string, KeySchema> {
  return { [table]: convention.keys, ...(convention.lockTable ? { [convention.lockTable]: convention.keys } : {}) };
}
