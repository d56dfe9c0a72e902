import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import type { TransactWriteInputJson } from '../../../shared/transactions/types';
import { sendTransaction } from './execute';

const INPUT: TransactWriteInputJson = {
  TransactItems: [
    {
      Put: {
        TableName: 'accounts',
        Item: { PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' }, bin: { B: 'AAE=' } },
        ConditionExpression: 'attribute_not_exists(#pk)',
        ExpressionAttributeNames: { '#pk': 'PK' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
  ],
  ClientRequestToken: 'tok-1',
};

const cancelled = (...codes: string[]): Error =>
  Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const named = (name: string): Error => Object.assign(new Error(name), { name });

/** A client whose send replays scripted failures (an edge fake: AWS itself), recording each command's input. */
function fakeClient(script: (Error | 'ok')[]): { client: DynamoDBClient; inputs: unknown[] } {
  const inputs: unknown[] = [];
  const client = {
    send: async (command: TransactWriteItemsCommand) => {
      inputs.push(command.input);
      const next = script.shift() ?? 'ok';
      if (next !== 'ok') throw next;
      return {};
    },
  } as unknown as DynamoDBClient;
  return { client, inputs };
}

const fast = { retry: { maxAttempts: 5, baseMs: 1, capMs: 1 }, wait: async () => undefined };

describe('sendTransaction', () => {
  it('sends exactly the input, with bytes for B values', async () => {
    const { client, inputs } = fakeClient(['ok']);
    const r = await sendTransaction({ client, input: INPUT, ...fast });
    expect(r).toMatchObject({ ok: true, value: { status: 'succeeded', attempts: 1, token: 'tok-1' } });
    expect(inputs[0]).toMatchObject({
      ClientRequestToken: 'tok-1',
      TransactItems: [{ Put: { Item: { bin: { B: new Uint8Array([0, 1]) } }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } }],
    });
  });

  it.each([
    ['TransactionConflict', cancelled('TransactionConflict')],
    ['throttling inside a cancellation', cancelled('ThrottlingError')],
    ['ProvisionedThroughputExceededException', named('ProvisionedThroughputExceededException')],
    ['TransactionInProgressException', named('TransactionInProgressException')],
  ])('retries %s with the same token', async (_name, error) => {
    const { client, inputs } = fakeClient([error, error, 'ok']);
    const r = await sendTransaction({ client, input: INPUT, ...fast });
    expect(r).toMatchObject({ ok: true, value: { status: 'succeeded', attempts: 3 } });
    expect(inputs.map((i) => (i as { ClientRequestToken: string }).ClientRequestToken)).toEqual(['tok-1', 'tok-1', 'tok-1']);
  });

  it('never retries a failed condition, even next to a conflict', async () => {
    const { client, inputs } = fakeClient([cancelled('ConditionalCheckFailed'), 'ok']);
    const r = await sendTransaction({ client, input: INPUT, ...fast });
    expect(inputs).toHaveLength(1);
    expect(r.ok && r.value.status === 'cancelled' && r.value.reasons[0]?.code).toBe('ConditionalCheckFailed');
  });

  it('gives up after the last attempt and reports the conflict', async () => {
    const { client, inputs } = fakeClient(Array.from({ length: 9 }, () => cancelled('TransactionConflict')));
    const r = await sendTransaction({ client, input: INPUT, ...fast });
    expect(inputs).toHaveLength(5);
    expect(r.ok && r.value.status === 'cancelled' && r.value.message).toMatch(/TransactionConflict/);
  });

  it('explains IdempotentParameterMismatch without retrying', async () => {
    const { client, inputs } = fakeClient([named('IdempotentParameterMismatchException')]);
    const r = await sendTransaction({ client, input: INPUT, ...fast });
    expect(inputs).toHaveLength(1);
    expect(!r.ok && r.error).toMatchObject({ kind: 'conflict', fix: 'preview again to get a new token' });
  });

  it('maps other errors to AppError without retrying a validation error', async () => {
    const { client, inputs } = fakeClient([named('ValidationException')]);
    const r = await sendTransaction({ client, input: INPUT, ...fast });
    expect(inputs).toHaveLength(1);
    expect(!r.ok && r.error.kind).toBe('validation');
  });
});
