/**
 * The library is the judge: ElectroDB's documented unique constraint (a `constraint` entity written
 * with `service.transaction.write`), drift made with raw SDK calls, audited and repaired by the CLI
 * with a detected convention — then ElectroDB's own `constraint.get`, its name index and its
 * transactions must see exactly what Locksmith wrote.
 */
import { CreateTableCommand, DeleteItemCommand, PutItemCommand, waitUntilTableExists, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { Entity, Service } from 'electrodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditReport } from '../../../shared/audit/types';
import { deleteTable, testClient, uniqueTableName } from '../dynamo-fixtures';
import { cliOn, expectExportAuditMatchesLive } from './library-judge';

const endpoint = inject('dynamoEndpoint');
let client: DynamoDBClient;
let table = '';

function entities(tableName: string) {
  const agent = new Entity(
    {
      // A capital letter: ElectroDB lower-cases it in keys (`$userprofile_1#…`) and stores it as given in __edb_e__.
      model: { entity: 'userProfile', version: '1', service: 'MI6' },
      attributes: { id: { type: 'string' }, designation: { type: 'string' }, email: { type: 'string', required: true } },
      indexes: { operatives: { pk: { field: 'pk', composite: ['designation'] }, sk: { field: 'sk', composite: ['id'] } } },
    },
    { table: tableName, client },
  );
  const constraint = new Entity(
    {
      model: { entity: 'constraint', version: '1', service: 'MI6' },
      attributes: {
        name: { type: 'string', required: true },
        value: { type: 'string', required: true },
        entity: { type: 'string', required: true },
      },
      indexes: {
        value: { pk: { field: 'pk', composite: ['value'] }, sk: { field: 'sk', composite: ['name', 'entity'] } },
        name: {
          index: 'gsi1pk-gsi1sk-index',
          pk: { field: 'gsi1pk', composite: ['name', 'entity'] },
          sk: { field: 'gsi1sk', composite: ['value'] },
        },
      },
    },
    { table: tableName, client },
  );
  return { agent, constraint, mi6: new Service({ agent, constraint }) };
}
let mi6: ReturnType<typeof entities>['mi6'];
let constraint: ReturnType<typeof entities>['constraint'];

/** ElectroDB's documented createNewAgent: the agent and its email constraint in one transaction. */
async function createNewAgent(agent: { id: string; designation: string; email: string }): Promise<boolean> {
  const out = await mi6.transaction
    .write(({ agent: a, constraint: c }) => [
      a.create(agent).commit({ response: 'all_old' }),
      c.create({ name: 'email', value: agent.email, entity: 'userProfile' }).commit(),
    ])
    .go();
  return !out.canceled;
}

const cli = cliOn(endpoint, () => table);

beforeAll(async () => {
  client = testClient(endpoint);
  table = uniqueTableName('electrodb');
  const S = 'S' as const;
  await client.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((AttributeName) => ({ AttributeName, AttributeType: S })),
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'gsi1pk-gsi1sk-index',
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: table });
  ({ mi6, constraint } = entities(table));
  expect(await createNewAgent({ id: '7', designation: '00', email: 'James.Bond@MI6.gov' })).toBe(true);
  expect(await createNewAgent({ id: '6', designation: '00', email: 'Alec.Trevelyan@MI6.gov' })).toBe(true);
  expect(await createNewAgent({ id: '1', designation: 'M', email: 'm@mi6.gov' })).toBe(true);
  // The constraint works: a second agent with Bond's email (any case) is refused by ElectroDB.
  expect(await createNewAgent({ id: '8', designation: '00', email: 'james.bond@mi6.gov' })).toBe(false);
  // Drift: 006 deleted without his constraint; Q written without one.
  await client.send(
    new DeleteItemCommand({ TableName: table, Key: { pk: { S: '$mi6#designation_00' }, sk: { S: '$userprofile_1#id_6' } } }),
  );
  await client.send(
    new PutItemCommand({
      TableName: table,
      Item: {
        pk: { S: '$mi6#designation_q' },
        sk: { S: '$userprofile_1#id_9' },
        id: { S: '9' },
        designation: { S: 'Q' },
        email: { S: 'Q@MI6.gov' },
        __edb_e__: { S: 'userProfile' },
        __edb_v__: { S: '1' },
      },
    }),
  );
});

afterAll(async () => {
  await deleteTable(client, table);
  client.destroy();
});

describe('a table written by electrodb 3.9 (documented constraint entity)', () => {
  it('is detected and audited exactly, case folded as ElectroDB folds keys', async () => {
    const run = await cli(['audit', '--json']);
    expect(run.err).toBe('');
    const report = JSON.parse(run.out) as AuditReport;
    expect(report.convention.preset).toBe('electrodb');
    expect(report.convention.account).toEqual({ kind: 'attribute-equals', attribute: '__edb_e__', value: 'userProfile' });
    expect(report.problems.map((p) => [p.kind, p.rule, p.value])).toEqual([
      ['orphan-lock', 'userProfile.email', 'alec.trevelyan@mi6.gov'],
      ['missing-lock', 'userProfile.email', 'q@mi6.gov'],
    ]);
    expect(run.code).toBe(1);
  });

  it('audited from its DynamoDB export (confirmed against the live table), reports exactly what the live audit reports', async () => {
    await expectExportAuditMatchesLive(cli);
  });

  it('after repair --execute, ElectroDB reads the claimed constraint, lists it in its index, and enforces it', async () => {
    const repair = await cli(['repair', '--execute', '--yes', '--json']);
    expect(repair.err).toBe('');
    expect(repair.code).toBe(0);
    const got = await constraint.get({ name: 'email', value: 'Q@MI6.gov', entity: 'userProfile' }).go();
    expect(got.data).toEqual({ name: 'email', value: 'Q@MI6.gov', entity: 'userProfile' });
    const listed = await constraint.query.name({ name: 'email', entity: 'userProfile' }).go();
    expect(listed.data.map((c) => c.value).sort()).toEqual(['James.Bond@MI6.gov', 'Q@MI6.gov', 'm@mi6.gov']);
    expect(await createNewAgent({ id: '10', designation: 'Q', email: 'q@mi6.gov' })).toBe(false);
    expect(await createNewAgent({ id: '11', designation: '00', email: 'Alec.Trevelyan@MI6.gov' })).toBe(true);
    const after = await cli(['audit', '--json']);
    expect((JSON.parse(after.out) as AuditReport).problems).toEqual([]);
    expect(after.code).toBe(0);
  });
});
