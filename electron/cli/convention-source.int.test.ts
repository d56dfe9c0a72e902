import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { formatLockKey } from '../../shared/conventions/format';
import { normalizeValue } from '../../shared/conventions/normalize';
import { PRESET_KEYS } from '../../shared/conventions/presets';
import type { Item } from '../../shared/model';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { resolveConvention } from './convention-source';

const endpoint = inject('dynamoEndpoint');
const s = (value: string): { S: string } => ({ S: value });
// A tiny seed-1 table: every stored value is lower-case, so the sample alone cannot show the normalization.
const ITEMS: Item[] = [
  { PK: s('ACCT#a1'), SK: s('PROFILE'), email: s('ada@lovelace.io'), username: s('ada') },
  { PK: s('UNIQ#EMAIL#ada@lovelace.io'), SK: s('LOCK') },
  { PK: s('UNIQ#HANDLE#ada'), SK: s('LOCK') },
  { PK: s('ACCT#b2'), SK: s('PROFILE'), email: s('bob@example.com'), username: s('bob') },
];

let client: DynamoDBClient;
let table: string;

beforeAll(async () => {
  client = testClient(endpoint);
  table = await createTempTable(client, PRESET_KEYS.uniq, 'convention-source');
  await putItems(client, table, ITEMS);
});

afterAll(async () => {
  await deleteTable(client, table);
  client.destroy();
});

describe('resolveConvention --preset uniq on a small table', () => {
  it('keeps the documented trim+lowercase, so a claim of ADA addresses the stored lock of ada', async () => {
    const resolved = await resolveConvention({ client, table, keys: PRESET_KEYS.uniq, values: { preset: 'uniq' } });
    expect(resolved.source).toBe('preset');
    expect(resolved.convention.rules.map((r) => [r.name, r.normalize.join('+')])).toEqual([
      ['EMAIL', 'trim+lowercase'],
      ['HANDLE', 'trim+lowercase'],
    ]);
    const handle = resolved.convention.rules.find((r) => r.name === 'HANDLE');
    if (!handle) throw new Error('no HANDLE rule');
    // The claim's lock key is the stored one, so attribute_not_exists refuses the second claim.
    expect(formatLockKey(handle, normalizeValue(' ADA ', handle.normalize))).toEqual({ hash: 'UNIQ#HANDLE#ada', range: 'LOCK' });
  });
});
