/**
 * A scoped rule's account can move to another scope between the preview and Execute (a correct
 * transaction, by the application), and someone else can then lock its old value in the old scope.
 * Execute must then refuse: it would delete that other account's lock. Real DynamoDB Local.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand, ScanCommand, TransactWriteItemsCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AuditEngine } from '../../../shared/audit/engine';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import type { TransactionOperation } from '../../../shared/transactions/types';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { PreviewStore } from './preview-store';
import { executePreview, previewTransaction, type TransactionContext } from './service';

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const convention = layoutFor('onetable', { rules: [{ attribute: 'nickname', scope: 'orgId' }] }).convention;
const tables: string[] = [];
let dataDir = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'locksmith-scoped-'));
});
afterAll(async () => {
  await Promise.all(tables.map((t) => deleteTable(admin, t)));
  await rm(dataDir, { recursive: true, force: true });
});

const S = (s: string): AttributeValue => ({ S: s });
const lock = (org: string, v: string) => ({ pk: S(`_unique#${org}#User#nickname#${v}`), sk: S('_unique#'), _type: S('_Unique') });
const user = (id: string, org: string, v: string) => ({
  pk: S(`User#${id}`),
  sk: S('User#'),
  _type: S('User'),
  orgId: S(org),
  nickname: S(v),
});

function context(): TransactionContext {
  return {
    client: admin,
    connectionId: 'test-local',
    connection: { label: 'test-local', region: 'us-east-1', endpoint },
    writable: true,
    deps: { store: new PreviewStore(), dataDir, retry: { maxAttempts: 8, baseMs: 5, capMs: 50 }, holderSegments: 2 },
  };
}

/** u1 holds `bob` in acme (with its lock); after the preview it moves to beta, and u2 takes `bob` in acme. */
async function moveAfterPreview(operation: TransactionOperation) {
  const table = await createTempTable(admin, convention.keys, 'scoped');
  tables.push(table);
  await putItems(admin, table, [user('u1', 'acme', 'bob'), lock('acme', 'bob')]);
  const ctx = context();
  const preview = await previewTransaction(ctx, { table, convention, operation });
  if (!preview.ok) throw new Error(preview.error.message);
  await admin.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        {
          Update: {
            TableName: table,
            Key: { pk: S('User#u1'), sk: S('User#') },
            UpdateExpression: 'SET orgId = :b',
            ConditionExpression: 'orgId = :a',
            ExpressionAttributeValues: { ':a': S('acme'), ':b': S('beta') },
          },
        },
        { Delete: { TableName: table, Key: { pk: S('_unique#acme#User#nickname#bob'), sk: S('_unique#') } } },
        { Put: { TableName: table, Item: lock('beta', 'bob'), ConditionExpression: 'attribute_not_exists(pk)' } },
      ],
    }),
  );
  await admin.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        { Put: { TableName: table, Item: user('u2', 'acme', 'bob'), ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: table, Item: lock('acme', 'bob'), ConditionExpression: 'attribute_not_exists(pk)' } },
      ],
    }),
  );
  const outcome = await executePreview(ctx, { previewId: preview.value.id, confirmation: preview.value.confirm });
  const items = (await admin.send(new ScanCommand({ TableName: table, ConsistentRead: true }))).Items ?? [];
  const engine = new AuditEngine(convention, { trackDeltas: false });
  engine.addItems(items);
  const u2Lock = await admin.send(
    new GetItemCommand({ TableName: table, Key: { pk: S('_unique#acme#User#nickname#bob'), sk: S('_unique#') }, ConsistentRead: true }),
  );
  return { outcome, problems: engine.problems(), u2LockKept: u2Lock.Item !== undefined, items };
}

describe('a scoped account that moved since the preview', () => {
  it("delete-account is cancelled: the other account's lock in the old scope stays, the table stays clean", async () => {
    const { outcome, problems, u2LockKept, items } = await moveAfterPreview({
      kind: 'delete-account',
      account: { pk: 'User#u1', sk: 'User#' },
    });
    expect(outcome).toMatchObject({ ok: true, value: { status: 'cancelled' } });
    expect(u2LockKept).toBe(true);
    expect(items.some((i) => i['pk']?.S === 'User#u1')).toBe(true);
    expect(problems).toEqual([]);
  });

  it("change-value is cancelled: no lock written in the old scope, the other account's lock stays", async () => {
    const { outcome, problems, u2LockKept, items } = await moveAfterPreview({
      kind: 'change-value',
      account: { pk: 'User#u1', sk: 'User#' },
      rule: 'User.nickname',
      from: 'bob',
      to: 'rob',
    });
    expect(outcome).toMatchObject({ ok: true, value: { status: 'cancelled' } });
    expect(u2LockKept).toBe(true);
    expect(items.some((i) => i['pk']?.S === '_unique#acme#User#nickname#rob')).toBe(false);
    expect(problems).toEqual([]);
  });
});
