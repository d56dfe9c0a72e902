/**
 * A table written the way a library no preset knows writes it — the value repeated in both keys
 * (`PK = SK = User.email#<value>`) beside a custom rule with a literal sort key — audited, looked up
 * and repaired under a convention that says so; the judge is a reference writer that guards every
 * lock with `attribute_not_exists` on its own key, as the library does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand, PutItemCommand, TransactWriteItemsCommand, type TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Convention, Item, Problem } from '../../../shared/model';
import { createTempTable, deleteTable, testClient } from '../../testing/dynamo-fixtures';
import { runAudit } from '../audit/run-audit';
import { describeTable } from '../dynamo/tables';
import { lookupValue } from '../lookup/lookup';
import type { TransactionContext } from '../transactions/service';
import { RepairService } from './repair-service';

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const S = (value: string): { S: string } => ({ S: value });

const convention: Convention = {
  preset: 'custom',
  keys: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } },
  account: { kind: 'attribute-equals', attribute: '__typename', value: 'UserEntity' },
  rules: [
    { name: 'EMAIL', attribute: 'email', lockKeys: [{ hash: 'User.email#{value}', range: 'User.email#{value}' }], normalize: [] },
    { name: 'USERNAME', attribute: 'username', lockKeys: [{ hash: 'UNIQUE#USERNAME#{value}', range: 'UNIQUE' }], normalize: [] },
  ],
  lockPrefixes: [],
};

/** The reference library: an account and its unique items in one transaction, each Put guarded on its own key. */
function signup(table: string, id: string, email: string, username: string): TransactWriteItem[] {
  const put = (item: Item): TransactWriteItem => ({
    Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' },
  });
  return [
    put({ PK: S(`User#${id}`), SK: S(`User#${id}`), __typename: S('UserEntity'), email: S(email), username: S(username) }),
    put({ PK: S(`User.email#${email}`), SK: S(`User.email#${email}`) }),
    put({ PK: S(`UNIQUE#USERNAME#${username}`), SK: S('UNIQUE') }),
  ];
}

async function librarySignup(table: string, id: string, email: string, username: string): Promise<'accepted' | 'refused'> {
  try {
    await admin.send(new TransactWriteItemsCommand({ TransactItems: signup(table, id, email, username) }));
    return 'accepted';
  } catch (error) {
    if ((error as { name?: string }).name === 'TransactionCanceledException') return 'refused';
    throw error;
  }
}

const tables: string[] = [];
let dataDir = '';
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'locksmith-anywhere-'));
});
afterAll(async () => {
  await Promise.all(tables.map((t) => deleteTable(admin, t)));
  await rm(dataDir, { recursive: true, force: true });
});

function context(): TransactionContext {
  return {
    connectionId: 'test-local',
    client: admin,
    connection: { label: 'test-local', region: 'us-east-1', endpoint },
    writable: true,
    deps: { retry: { maxAttempts: 8, baseMs: 5, capMs: 50 }, holderSegments: 2 },
  };
}

async function problemsOf(table: string): Promise<readonly Problem[]> {
  const run = await runAudit({ client: admin, table, convention });
  expect(run.report.complete).toBe(true);
  return run.report.problems;
}

describe('a value in the sort key, end to end against DynamoDB Local', () => {
  it('audits the drift exactly, looks values up right, and a repair makes the library refuse a claimed value and accept a released one', async () => {
    const table = await createTempTable(admin, convention.keys, 'anywhere');
    tables.push(table);
    for (let i = 0; i < 12; i++) expect(await librarySignup(table, `u${i}`, `user${i}@x.io`, `user${i}`)).toBe('accepted');
    // Drift as production makes it: an account deleted without its locks, a lock deleted by hand, a user written outside the transaction.
    await admin.send(new DeleteItemCommand({ TableName: table, Key: { PK: S('User#u1'), SK: S('User#u1') } }));
    await admin.send(new DeleteItemCommand({ TableName: table, Key: { PK: S('User.email#user2@x.io'), SK: S('User.email#user2@x.io') } }));
    await admin.send(
      new PutItemCommand({
        TableName: table,
        Item: { PK: S('User#u99'), SK: S('User#u99'), __typename: S('UserEntity'), email: S('late@x.io'), username: S('late') },
      }),
    );

    const found = (await problemsOf(table)).map((p) => `${p.kind} ${p.rule} ${p.value}`).sort();
    expect(found).toEqual(
      [
        'missing-lock EMAIL late@x.io',
        'missing-lock EMAIL user2@x.io',
        'missing-lock USERNAME late',
        'orphan-lock EMAIL user1@x.io',
        'orphan-lock USERNAME user1',
      ].sort(),
    );

    const described = await describeTable(admin, table);
    if (!described.ok) throw new Error(described.error.message);
    const info = described.value;
    const verdict = async (value: string, rule: string): Promise<string | undefined> => {
      const answer = await lookupValue({ client: admin, table: info, convention, value, rule, confirmAbsenceWithScan: true });
      if (!answer.ok) throw new Error(answer.error.message);
      return answer.value.rules[0]?.verdict;
    };
    expect(await verdict('user3@x.io', 'EMAIL')).toBe('held');
    expect(await verdict('user1@x.io', 'EMAIL')).toBe('orphan');
    expect(await verdict('user2@x.io', 'EMAIL')).toBe('unprotected');
    expect(await verdict('nobody@x.io', 'EMAIL')).toBe('free');

    const service = new RepairService({ dataDir });
    const plan = await service.plan(context(), { owner: 'c1', table, convention, problems: await problemsOf(table) });
    if (!plan.ok) throw new Error(plan.error.message);
    const started = service.start(context(), { owner: 'c1', planId: plan.value.planId, confirmation: plan.value.confirmText });
    if (!started.ok) throw new Error(started.error.message);
    const status = await started.value.done;
    expect(status.phase).toBe('done');
    expect(status.fixes.every((f) => f.state === 'succeeded')).toBe(true);
    expect(await problemsOf(table)).toEqual([]);

    // The judge: the claimed values are refused by the library, the released ones accepted.
    expect(await librarySignup(table, 'x1', 'user2@x.io', 'fresh1')).toBe('refused');
    expect(await librarySignup(table, 'x2', 'late@x.io', 'fresh2')).toBe('refused');
    expect(await librarySignup(table, 'x3', 'fresh3@x.io', 'late')).toBe('refused');
    expect(await librarySignup(table, 'x4', 'user1@x.io', 'user1')).toBe('accepted');
  });
});
