import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DescribeTableCommand, UpdateTableCommand, type UpdateTableCommandInput } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PRESET_KEYS } from '../../shared/conventions/presets';
import type { IndexSuggestion } from '../../shared/conventions/suggest-index';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { main } from './main';
import { captureIo } from './testing-io';

const endpoint = inject('dynamoEndpoint');
// Not `locksmith`: the CLI scrubs its secret from everything it prints, index names included.
const env = { AWS_ACCESS_KEY_ID: 'suggestkey', AWS_SECRET_ACCESS_KEY: 'suggestsecret' };
const s = (value: string): { S: string } => ({ S: value });
let admin: DynamoDBClient;
let table: string;

beforeAll(async () => {
  admin = testClient(endpoint);
  table = await createTempTable(admin, PRESET_KEYS.uniq, 'suggest-index');
  await putItems(admin, table, [
    { PK: s('ACCT#1'), SK: s('PROFILE'), email: s('ada@x.io'), username: s('ada') },
    { PK: s('UNIQ#EMAIL#ada@x.io'), SK: s('LOCK') },
    { PK: s('UNIQ#HANDLE#ada'), SK: s('LOCK') },
  ]);
});

afterAll(async () => {
  await deleteTable(admin, table);
  admin.destroy();
});

async function cli(command: string, args: readonly string[] = []): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(env);
  const code = await main([command, '--endpoint', endpoint, '--table', table, '--preset', 'uniq', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe('locksmith suggest-index', () => {
  it('prints an UpdateTable that DynamoDB accepts; afterwards it names the index and lookups query it', async () => {
    const first = await cli('suggest-index', ['--rule', 'EMAIL', '--json']);
    expect(first.code).toBe(0);
    const [email] = JSON.parse(first.out) as IndexSuggestion[];
    expect(email?.existing).toBeUndefined();
    await admin.send(new UpdateTableCommand(email?.updateTable as unknown as UpdateTableCommandInput));
    await expect
      .poll(
        async () => (await admin.send(new DescribeTableCommand({ TableName: table }))).Table?.GlobalSecondaryIndexes?.[0]?.IndexStatus,
        { timeout: 20_000 },
      )
      .toBe('ACTIVE');

    const again = await cli('suggest-index');
    expect(again.code).toBe(0);
    expect(again.out).toContain('EMAIL (email): index locksmith-by-email already serves lookups');
    expect(again.out).toContain(
      `HANDLE (username): no index; to add one:\n  aws dynamodb update-table --cli-input-json '{"TableName":"${table}"`,
    );
    const lookup = await cli('lookup', ['--value', 'ada@x.io', '--rule', 'EMAIL', '--json']);
    expect(JSON.parse(lookup.out)).toMatchObject({
      method: 'gsi',
      rules: [{ verdict: 'held', search: { kind: 'gsi', index: 'locksmith-by-email' } }],
    });
  });

  it('refuses an unknown rule in one line, exit 2', async () => {
    const run = await cli('suggest-index', ['--rule', 'PHONE']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/unknown rule PHONE \(rules: EMAIL, HANDLE\)/);
  });
});
