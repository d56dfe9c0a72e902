/**
 * A separate lock table: the application keeps accounts in `users` and their locks in
 * `users_unique`, written in one TransactWriteItems through the DocumentClient. Locksmith scans
 * both, reports drift across them, repairs with transactions that span both tables, and the
 * application's own transactions then agree.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditReport } from '../../../shared/audit/types';
import { createTempTable, deleteTable, testClient } from '../dynamo-fixtures';
import { cliOn } from './library-judge';

const endpoint = inject('dynamoEndpoint');
let client: DynamoDBClient;
let doc: DynamoDBDocumentClient;
let users = '';
let locks = '';
let otherKeys = '';
const dir = mkdtempSync(join(tmpdir(), 'locksmith-locktable-'));

function conventionFile(lockTable: string): string {
  const path = join(dir, `${lockTable}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      version: 2,
      account: { kind: 'not-lock' },
      rules: [{ name: 'EMAIL', attribute: 'email', lockKeys: [{ hash: 'EMAIL#{value}' }], normalize: ['lowercase'] }],
      lockTable,
    }),
  );
  return path;
}

async function signup(id: string, email: string): Promise<boolean> {
  try {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: users, Item: { pk: id, email }, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: locks, Item: { pk: `EMAIL#${email.toLowerCase()}` }, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'TransactionCanceledException') return false;
    throw error;
  }
}

async function cli(args: readonly string[], lockTable = locks) {
  return cliOn(
    endpoint,
    () => users,
    () => ['--convention', conventionFile(lockTable)],
  )(args);
}

beforeAll(async () => {
  client = testClient(endpoint);
  doc = DynamoDBDocumentClient.from(client);
  users = await createTempTable(client, { hash: { name: 'pk', type: 'S' } }, 'users');
  locks = await createTempTable(client, { hash: { name: 'pk', type: 'S' } }, 'users_unique');
  otherKeys = await createTempTable(client, { hash: { name: 'id', type: 'S' } }, 'users_other');
  expect(await signup('u1', 'ada@lovelace.io')).toBe(true);
  expect(await signup('u2', 'grace@hopper.io')).toBe(true);
  expect(await signup('u3', 'Ada@Lovelace.io')).toBe(false);
  await client.send(new DeleteItemCommand({ TableName: users, Key: { pk: { S: 'u2' } } }));
  await client.send(new PutItemCommand({ TableName: users, Item: { pk: { S: 'u4' }, email: { S: 'alan@turing.io' } } }));
  // A lock written into the accounts table protects nothing: the application checks users_unique.
  await client.send(new PutItemCommand({ TableName: users, Item: { pk: { S: 'EMAIL#stray@x.io' } } }));
});

afterAll(async () => {
  for (const t of [users, locks, otherKeys]) await deleteTable(client, t);
  client.destroy();
});

describe('a convention with a lock table', () => {
  it('audits both tables: orphans in the lock table, missing locks for accounts, a lock in the wrong table', async () => {
    const run = await cli(['audit', '--json']);
    expect(run.err).toBe('');
    const report = JSON.parse(run.out) as AuditReport;
    expect(report.scanned).toBe(5);
    expect(report.problems.map((p) => [p.kind, p.value])).toEqual([
      ['orphan-lock', 'grace@hopper.io'],
      ['missing-lock', 'alan@turing.io'],
      ['malformed-lock', 'EMAIL#stray@x.io'],
    ]);
    expect(report.problems[2]?.reason).toContain(`the locks live in ${locks}`);
  });

  it('repairs with transactions on the lock table; the application then agrees', async () => {
    const preview = await cli(['claim', '--rule', 'EMAIL', '--value', 'alan@turing.io', '--account', '{"pk":"u4"}', '--dry-run', '--json']);
    const input = (
      JSON.parse(preview.out) as { input: { TransactItems: { Put?: { TableName: string }; ConditionCheck?: { TableName: string } }[] } }
    ).input;
    expect(input.TransactItems.map((t) => t.Put?.TableName ?? t.ConditionCheck?.TableName)).toEqual([locks, users]);
    const repair = await cli(['repair', '--execute', '--yes', '--json']);
    expect(repair.err).toBe('');
    expect(await signup('u5', 'alan@turing.io')).toBe(false);
    expect(await signup('u6', 'grace@hopper.io')).toBe(true);
    const after = JSON.parse((await cli(['audit', '--json'])).out) as AuditReport;
    expect(after.problems.map((p) => p.kind)).toEqual(['malformed-lock']);
  });

  it('refuses a lock table that does not exist, or one keyed differently, naming the field', async () => {
    const missing = await cli(['audit', '--json'], 'no_such_table');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('lockTable: the table no_such_table does not exist');
    const other = await cli(['audit', '--json'], otherKeys);
    expect(other.code).toBe(2);
    expect(other.err).toContain(`lockTable: ${otherKeys} is keyed by id (S)`);
  });
});
