/**
 * The library is the judge: a table written by the real dynamodb-onetable (unique fields, one of
 * them scoped to an org), drift made the way production makes it (raw deletes, raw puts, OneTable's
 * own remove-without-scope footgun), audited by `locksmith audit`, repaired by `locksmith repair
 * --execute` — and then OneTable itself must refuse a claimed value and accept a released one.
 */
import { DeleteItemCommand, GetItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { Table } from 'dynamodb-onetable';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditReport } from '../../../shared/audit/types';
import { createTempTable, deleteTable, testClient } from '../dynamo-fixtures';
import { auditJson, cliOn, expectExportAuditMatchesLive } from './library-judge';
import { ONETABLE_ORG_SCHEMA } from './onetable-schema';

const endpoint = inject('dynamoEndpoint');
let client: DynamoDBClient;
let tableName = '';

type UserInput = { id: string; orgId: string; email: string; nickname?: string };
let User: { create(u: UserInput): Promise<unknown>; remove(key: Record<string, string>): Promise<unknown> };

const cli = cliOn(endpoint, () => tableName);

async function audit(): Promise<{ code: number; report: AuditReport }> {
  const { code, report, err } = await auditJson(cli);
  expect(err).toBe('');
  return { code, report };
}

/** Problems as [kind, rule, value, scope] rows, sorted. */
const rows = (report: AuditReport): string[] =>
  report.problems.map((p) => JSON.stringify([p.kind, p.rule, p.value, p.scope ?? null])).sort();

beforeAll(async () => {
  client = testClient(endpoint);
  tableName = await createTempTable(client, { hash: { name: 'pk', type: 'S' }, range: { name: 'sk', type: 'S' } }, 'onetable');
  const table = new Table({ client, name: tableName, schema: ONETABLE_ORG_SCHEMA, partial: false });
  User = table.getModel('User') as unknown as typeof User;
  // Healthy data as OneTable writes it: one nickname in two orgs is legal.
  await User.create({ id: 'u1', orgId: 'acme', email: 'ada@lovelace.io', nickname: 'ada' });
  await User.create({ id: 'u2', orgId: 'globex', email: 'ada@globex.io', nickname: 'ada' });
  await User.create({ id: 'u3', orgId: 'acme', email: 'bob@acme.io', nickname: 'bob' });
  await User.create({ id: 'u5', orgId: 'globex', email: 'eve@globex.io', nickname: 'eve' });
  // Drift 1: a raw delete of an account leaves both its locks behind.
  await client.send(new DeleteItemCommand({ TableName: tableName, Key: { pk: { S: 'User#u3' }, sk: { S: 'User#' } } }));
  // Drift 2: an account written outside the transaction has no locks — its email with a capital
  // letter, while every lock is lower-case: OneTable writes values as given, so must the repair.
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: {
        pk: { S: 'User#u4' },
        sk: { S: 'User#' },
        _type: { S: 'User' },
        id: { S: 'u4' },
        orgId: { S: 'acme' },
        email: { S: 'Dan@acme.io' },
        nickname: { S: 'dan' },
      },
    }),
  );
  // Drift 3: OneTable's own footgun — remove without the scope property deletes the account, its
  // unscoped email lock and `_unique#undefined#…`, and leaves the real scoped lock of `eve` in globex.
  await User.remove({ id: 'u5' });
});

afterAll(async () => {
  await deleteTable(client, tableName);
  client.destroy();
});

describe('a table written by dynamodb-onetable 2.7', () => {
  it('is audited exactly: scoped values joined within their org, the drift found, nothing else', async () => {
    const { code, report } = await audit();
    expect(code).toBe(1);
    expect(report.complete).toBe(true);
    expect(report.convention.preset).toBe('onetable');
    expect(report.convention.rules.map((r) => [r.name, r.normalize])).toEqual([
      ['User.email', []],
      ['User.nickname', []],
    ]);
    expect(report.convention.rules.find((r) => r.attribute === 'nickname')?.scope).toEqual({ scope: 'orgId' });
    expect(rows(report)).toEqual(
      [
        ['orphan-lock', 'User.email', 'bob@acme.io', null],
        ['orphan-lock', 'User.nickname', 'bob', { orgId: 'acme' }],
        ['orphan-lock', 'User.nickname', 'eve', { orgId: 'globex' }],
        ['missing-lock', 'User.email', 'Dan@acme.io', null],
        ['missing-lock', 'User.nickname', 'dan', { orgId: 'acme' }],
      ]
        .map((r) => JSON.stringify(r))
        .sort(),
    );
  });

  it('audited from its DynamoDB export (confirmed against the live table), reports exactly what the live audit reports', async () => {
    await expectExportAuditMatchesLive(cli);
  });

  it('lookup answers per org: ada is held in acme and in globex; bob is an orphan in acme only', async () => {
    const ada = await cli(['lookup', '--value', 'ada', '--rule', 'User.nickname', '--json']);
    const answer = JSON.parse(ada.out) as { rules: { scope?: Record<string, string>; verdict: string }[] };
    expect(answer.rules.map((r) => [r.scope, r.verdict])).toEqual([
      [{ orgId: 'acme' }, 'held'],
      [{ orgId: 'globex' }, 'held'],
    ]);
    const bob = await cli(['lookup', '--value', 'bob', '--rule', 'User.nickname', '--scope', 'orgId=acme', '--json']);
    expect(bob.code).toBe(1);
    expect((JSON.parse(bob.out) as { rules: { verdict: string }[] }).rules.map((r) => r.verdict)).toEqual(['orphan']);
    const elsewhere = await cli(['lookup', '--value', 'bob', '--rule', 'User.nickname', '--scope', 'orgId=globex', '--json']);
    expect((JSON.parse(elsewhere.out) as { rules: { verdict: string }[] }).rules.map((r) => r.verdict)).toEqual(['free']);
  });

  it('after repair --execute, OneTable itself refuses the claimed values and accepts the released ones', async () => {
    const repair = await cli(['repair', '--execute', '--yes', '--json']);
    expect(repair.err).toBe('');
    expect(repair.code).toBe(0);
    // The claimed scoped lock is the key OneTable checks, written as OneTable writes it.
    const lock = await client.send(
      new GetItemCommand({
        TableName: tableName,
        Key: { pk: { S: '_unique#acme#User#nickname#dan' }, sk: { S: '_unique#' } },
        ConsistentRead: true,
      }),
    );
    expect(lock.Item).toEqual({ pk: { S: '_unique#acme#User#nickname#dan' }, sk: { S: '_unique#' }, _type: { S: '_Unique' } });

    const email = await client.send(
      new GetItemCommand({
        TableName: tableName,
        Key: { pk: { S: '_unique#User#email#Dan@acme.io' }, sk: { S: '_unique#' } },
        ConsistentRead: true,
      }),
    );
    expect(email.Item).toEqual({ pk: { S: '_unique#User#email#Dan@acme.io' }, sk: { S: '_unique#' }, _type: { S: '_Unique' } });

    await expect(User.create({ id: 'u6', orgId: 'acme', email: 'Dan@acme.io' })).rejects.toThrow();
    await expect(User.create({ id: 'u7', orgId: 'acme', email: 'other@acme.io', nickname: 'dan' })).rejects.toThrow();
    await expect(User.create({ id: 'u8', orgId: 'globex', email: 'dan@globex.io', nickname: 'dan' })).resolves.toBeTruthy();
    await expect(User.create({ id: 'u9', orgId: 'acme', email: 'bob@acme.io', nickname: 'bob' })).resolves.toBeTruthy();
    await expect(User.create({ id: 'u10', orgId: 'globex', email: 'eve@globex.io', nickname: 'eve' })).resolves.toBeTruthy();
    // To OneTable `dan@acme.io` is another value than `Dan@acme.io`: both held, each with its lock, and no duplicate below.
    await expect(User.create({ id: 'u11', orgId: 'globex', email: 'dan@acme.io' })).resolves.toBeTruthy();

    const after = await audit();
    expect(rows(after.report)).toEqual([]);
    expect(after.code).toBe(0);
  });
});
