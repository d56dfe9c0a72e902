/**
 * The library is the judge, for the AWS reference pattern (unique constraints with
 * TransactWriteItems and `email#…` / `userName#…` marker items, one table, hash key `pk`), written
 * through the SDK's DocumentClient as the reference code does — with a number-typed value (`phone`
 * stored as N, marker `phone#<number>`) — then drift, `repair --execute`, and the application's own
 * transactions must refuse the claimed values and accept the released ones.
 */
import { DeleteItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditReport } from '../../../shared/audit/types';
import { createTempTable, deleteTable, testClient } from '../dynamo-fixtures';
import { cliOn, expectExportAuditMatchesLive } from './library-judge';

const endpoint = inject('dynamoEndpoint');
let client: DynamoDBClient;
let doc: DynamoDBDocumentClient;
let table = '';

interface User {
  readonly id: string;
  readonly email: string;
  readonly userName: string;
  readonly phone: number;
}

/** The reference code's createUser: the user and one marker per unique attribute, all attribute_not_exists. */
async function createUser(user: User): Promise<boolean> {
  const put = (Item: Record<string, unknown>) => ({ Put: { TableName: table, Item, ConditionExpression: 'attribute_not_exists(pk)' } });
  try {
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          put({ pk: user.id, email: user.email, userName: user.userName, phone: user.phone }),
          put({ pk: `email#${user.email}` }),
          put({ pk: `userName#${user.userName}` }),
          put({ pk: `phone#${user.phone}` }),
        ],
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'TransactionCanceledException') return false;
    throw error;
  }
}

/** The reference code's updateEmail: new marker guarded, old marker deleted, user updated on the old value. */
async function updateEmail(id: string, from: string, to: string): Promise<void> {
  await doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: table, Item: { pk: `email#${to}` }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Delete: { TableName: table, Key: { pk: `email#${from}` }, ConditionExpression: 'attribute_exists(pk)' } },
        {
          Update: {
            TableName: table,
            Key: { pk: id },
            UpdateExpression: 'SET email = :to',
            ConditionExpression: 'email = :from',
            ExpressionAttributeValues: { ':to': to, ':from': from },
          },
        },
      ],
    }),
  );
}

const cli = cliOn(endpoint, () => table);

beforeAll(async () => {
  client = testClient(endpoint);
  doc = DynamoDBDocumentClient.from(client);
  table = await createTempTable(client, { hash: { name: 'pk', type: 'S' } }, 'awsref');
  expect(await createUser({ id: 'u-1', email: 'ada@lovelace.io', userName: 'ada', phone: 4155550100 })).toBe(true);
  expect(await createUser({ id: 'u-2', email: 'grace@hopper.io', userName: 'grace', phone: 4155550101 })).toBe(true);
  expect(await createUser({ id: 'u-3', email: 'alan@turing.io', userName: 'alan', phone: 4155550102 })).toBe(true);
  expect(await createUser({ id: 'u-4', email: 'ada@lovelace.io', userName: 'ada2', phone: 4155550103 })).toBe(false);
  await updateEmail('u-2', 'grace@hopper.io', 'grace@navy.mil');
  // Drift: alan deleted without his markers; a user imported without any, whose email has capitals
  // (the reference code writes `email#${user.email}` as given, so must the repair).
  await client.send(new DeleteItemCommand({ TableName: table, Key: { pk: { S: 'u-3' } } }));
  await client.send(
    new PutItemCommand({
      TableName: table,
      Item: { pk: { S: 'u-5' }, email: { S: 'Edsger@Dijkstra.nl' }, userName: { S: 'edsger' }, phone: { N: '4155550104' } },
    }),
  );
});

afterAll(async () => {
  await deleteTable(client, table);
  client.destroy();
});

describe('a table written by the AWS reference code through the DocumentClient', () => {
  it('is detected (phone as a number) and audited exactly', async () => {
    const run = await cli(['audit', '--json']);
    expect(run.err).toBe('');
    const report = JSON.parse(run.out) as AuditReport;
    expect(report.convention.preset).toBe('aws-blog');
    expect(report.convention.rules.find((r) => r.attribute === 'phone')?.valueType).toBe('N');
    expect(report.convention.rules.map((r) => r.normalize)).toEqual([[], [], []]);
    expect(report.problems.map((p) => [p.kind, p.rule, p.value])).toEqual([
      ['orphan-lock', 'email', 'alan@turing.io'],
      ['orphan-lock', 'phone', '4155550102'],
      ['orphan-lock', 'userName', 'alan'],
      ['missing-lock', 'email', 'Edsger@Dijkstra.nl'],
      ['missing-lock', 'phone', '4155550104'],
      ['missing-lock', 'userName', 'edsger'],
    ]);
  });

  it('audited from its DynamoDB export (confirmed against the live table), reports exactly what the live audit reports', async () => {
    await expectExportAuditMatchesLive(cli);
  });

  it('after repair --execute, the application refuses the claimed values and accepts the released ones', async () => {
    const repair = await cli(['repair', '--execute', '--yes', '--json']);
    expect(repair.err).toBe('');
    expect(repair.code).toBe(0);
    expect(await createUser({ id: 'u-6', email: 'Edsger@Dijkstra.nl', userName: 'e2', phone: 4155550199 })).toBe(false);
    expect(await createUser({ id: 'u-7', email: 'e3@dijkstra.nl', userName: 'e3', phone: 4155550104 })).toBe(false);
    expect(await createUser({ id: 'u-8', email: 'alan@turing.io', userName: 'alan', phone: 4155550102 })).toBe(true);
    const after = await cli(['audit', '--json']);
    expect((JSON.parse(after.out) as AuditReport).problems).toEqual([]);
    expect(after.code).toBe(0);
  });
});
