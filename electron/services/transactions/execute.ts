/**
 * Sending a previewed TransactWriteItems request: exactly the previewed input, retried with the
 * same ClientRequestToken (so a retry can never apply twice) on TransactionConflict, throttling and
 * dropped connections; never on a failed condition. Cancellations are mapped to actions by position.
 */
import { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AppError } from '../../../shared/result';
import { explainReasons, type RawReason } from '../../../shared/transactions/reasons';
import type { ActionMeta, Outcome, TransactWriteInputJson } from '../../../shared/transactions/types';
import { isRetryable, mayHaveBeenApplied, toAppError, type ErrorContext } from '../dynamo/errors';
import { backoffDelay, DEFAULT_RETRY, sleep, type RetryPolicy } from '../dynamo/retry';
import { fromSdkItem, toSdkInput } from './sdk-json';

/** Cancellation codes that mean "try again later", not "the state is wrong". */
const RETRYABLE_CODES = new Set(['TransactionConflict', 'ProvisionedThroughputExceeded', 'ThrottlingError']);

/** Options of one send. */
export interface SendOptions {
  readonly client: DynamoDBClient;
  readonly input: TransactWriteInputJson;
  readonly actions?: readonly ActionMeta[];
  readonly ownerAttribute?: string;
  readonly retry?: RetryPolicy;
  /** Waits between attempts; injectable so unit tests need not sleep. */
  readonly wait?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  readonly errorContext?: ErrorContext;
}

/** The result of sending: an outcome, or an error that happened after the request may have been sent. */
export type SendResult =
  | { readonly ok: true; readonly value: Exclude<Outcome, { status: 'refused' }> }
  | { readonly ok: false; readonly error: AppError; readonly attempts: number };

interface ErrorFields {
  readonly name?: unknown;
  readonly CancellationReasons?: readonly { Code?: string; Message?: string; Item?: Parameters<typeof fromSdkItem>[0] }[];
}

function reasonsOf(error: unknown): RawReason[] | undefined {
  const e = (typeof error === 'object' && error !== null ? error : {}) as ErrorFields;
  if (e.name !== 'TransactionCanceledException') return undefined;
  return (e.CancellationReasons ?? []).map((r) => {
    const item = fromSdkItem(r.Item);
    return { ...(r.Code ? { Code: r.Code } : {}), ...(r.Message ? { Message: r.Message } : {}), ...(item ? { Item: item } : {}) };
  });
}

/** Explains IdempotentParameterMismatch: the token was already used, within 10 minutes, for a different request. */
export function idempotencyMismatchError(token: string): AppError {
  return {
    kind: 'conflict',
    message: `DynamoDB refused the request: the ClientRequestToken ${token} was already used in the last 10 minutes with a different request (IdempotentParameterMismatch). Nothing was written by this request; a token can only ever repeat the exact request it was first used with.`,
    fix: 'preview again to get a new token',
  };
}

/** The error of a send that may have been applied: never read as "nothing was written". */
export function unknownOutcome(failure: AppError, token: string): AppError {
  return {
    ...failure,
    outcome: 'unknown',
    message: `the outcome is unknown — the request may have been applied before the connection failed (${failure.message}); ClientRequestToken ${token}`,
    fix: 'look the values up (lookup) to see what was written before trying again; within 10 minutes, sending the same request with the same ClientRequestToken cannot apply it twice',
  };
}

/** Sends the input until it succeeds, is cancelled by a condition, fails for good, or runs out of attempts. */
export async function sendTransaction(options: SendOptions): Promise<SendResult> {
  const policy = options.retry ?? DEFAULT_RETRY;
  const wait = options.wait ?? ((ms: number) => sleep(ms));
  const token = options.input.ClientRequestToken;
  const command = new TransactWriteItemsCommand(toSdkInput(options.input));
  // An attempt whose answer was lost may have been applied: if the last attempt fails too, the outcome is unknown.
  let maybeApplied = false;
  for (let attempt = 1; ; attempt++) {
    try {
      await options.client.send(command);
      return {
        ok: true,
        value: {
          status: 'succeeded',
          token,
          attempts: attempt,
          message: `done: ${options.input.TransactItems.length} action(s) applied together`,
        },
      };
    } catch (error) {
      const name = (error as ErrorFields | undefined)?.name;
      if (name === 'IdempotentParameterMismatchException') return { ok: false, error: idempotencyMismatchError(token), attempts: attempt };
      const raw = reasonsOf(error);
      const codes = raw?.map((r) => r.Code ?? 'None').filter((c) => c !== 'None') ?? [];
      // A conflict or throttle alone is worth another try; a failed condition never is.
      const retry = raw
        ? codes.length > 0 && codes.every((c) => RETRYABLE_CODES.has(c))
        : name === 'TransactionInProgressException' || isRetryable(error);
      if (!raw) maybeApplied ||= mayHaveBeenApplied(error);
      if (retry && attempt < policy.maxAttempts) {
        await wait(backoffDelay(attempt, policy, options.random));
        continue;
      }
      if (raw) {
        const reasons = explainReasons(raw, options.input.TransactItems, options.actions, options.ownerAttribute);
        const failed = reasons.filter((r) => r.code !== 'None');
        return {
          ok: true,
          value: {
            status: 'cancelled',
            token,
            attempts: attempt,
            message: failed.map((r) => r.message).join('; ') || 'the transaction was cancelled',
            reasons,
          },
        };
      }
      const failure = toAppError(error, options.errorContext);
      return { ok: false, error: maybeApplied ? unknownOutcome(failure, token) : failure, attempts: attempt };
    }
  }
}
