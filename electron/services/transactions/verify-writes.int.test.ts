import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { PreviewStore } from './preview-store';
import { executePreview, previewTransaction, type TransactionContext } from './service';
import { rereadWrites } from './verify-writes';

const endpoint = inject('dynamoEndpoint');
const client = testClient(endpoint);
const layout = layoutFor('uniq');
let dataDir = '';
let table = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'locksmith-verify-'));
  table = await createTempTable(client, layout.convention.keys, 'verify');
  await putItems(client, table, [
    layout.account('a1', { username: 'ada', email: 'ada@x.io' }),
    layout.lock('HANDLE', 'ada'),
    layout.lock('EMAIL', 'ada@x.io'),
  ]);
});
afterAll(async () => {
  await deleteTable(client, table);
  client.destroy();
  await rm(dataDir, { recursive: true, force: true });
});

describe('"verified" means verified', () => {
  it('re-reads a change-value as applied, then names what differs once something else changed an item', async () => {
    const ctx: TransactionContext = {
      connectionId: 'test',
      client,
      connection: { label: 'test', region: 'us-east-1', endpoint },
      writable: true,
      deps: { store: new PreviewStore(), dataDir },
    };
    const preview = await previewTransaction(ctx, {
      table,
      convention: layout.convention,
      operation: { kind: 'change-value', account: { PK: 'ACCT#a1', SK: 'PROFILE' }, rule: 'HANDLE', to: 'bea' },
    });
    if (!preview.ok) throw new Error(preview.error.message);
    const executed = await executePreview(ctx, { previewId: preview.value.id, confirmation: preview.value.confirm });
    expect(executed.ok && executed.value.status).toBe('succeeded');
    expect(await rereadWrites(client, preview.value)).toEqual({ verified: true, differences: [], unchecked: [] });

    await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'UNIQ#HANDLE#bea' }, SK: { S: 'LOCK' } } }));
    const after = await rereadWrites(client, preview.value);
    expect(after.verified).toBe(false);
    expect(after.differences).toEqual([expect.stringMatching(/^UNIQ#HANDLE#bea .*is missing \(the Put should have written it\)$/)]);
  });
});
