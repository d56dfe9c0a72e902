import { mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AuditReport } from '../../shared/audit/types';
import type { KeySchema } from '../../shared/model';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { ensureTable } from '../services/sandbox/demo-data';
import { verifyKeySchema } from '../services/dynamo/key-probe';
import { keySchemaCachePath } from './key-schema-cache';
import { main } from './main';
import { openTableForScan } from './session';
import { captureIo } from './testing-io';

const endpoint = inject('dynamoEndpoint');
const S = (name: string) => ({ name, type: 'S' as const });
const N = (name: string) => ({ name, type: 'N' as const });
const PK_SK: KeySchema = { hash: S('PK'), range: S('SK') };

let admin: DynamoDBClient;
let pair = '';
let single = '';
let dir = '';

beforeAll(async () => {
  admin = testClient(endpoint);
  pair = await createTempTable(admin, PK_SK, 'key-cache-pair');
  single = await createTempTable(admin, { hash: S('id') }, 'key-cache-single');
  dir = await mkdtemp(join(tmpdir(), 'locksmith-key-cache-'));
});

afterAll(async () => {
  await Promise.all([deleteTable(admin, pair), deleteTable(admin, single)]);
  admin.destroy();
  await rm(dir, { recursive: true, force: true });
});

describe('verifyKeySchema: one GetItem tells a cached key schema from the table’s own', () => {
  it.each<[string, () => string, KeySchema, string]>([
    ['the same hash + range', () => pair, PK_SK, 'same'],
    ['a range key of another type', () => pair, { hash: S('PK'), range: N('SK') }, 'different'],
    ['a hash key of another type', () => pair, { hash: N('PK'), range: S('SK') }, 'different'],
    ['the range key missing', () => pair, { hash: S('PK') }, 'different'],
    ['another range key name', () => pair, { hash: S('PK'), range: S('sk') }, 'different'],
    ['another hash key name', () => pair, { hash: S('pk'), range: S('SK') }, 'different'],
    ['the same hash key alone', () => single, { hash: S('id') }, 'same'],
    ['a range key the table does not have', () => single, { hash: S('id'), range: S('SK') }, 'different'],
    ['the hash key as a number', () => single, { hash: N('id') }, 'different'],
    ['no such table', () => 'key-cache-none', PK_SK, 'unknown'],
  ])('%s', async (_name, table, keys, expected) => {
    expect(await verifyKeySchema(admin, table(), keys)).toBe(expected);
  });
});

describe('openTableForScan', () => {
  const env = () => ({ LOCKSMITH_DATA_DIR: join(dir, 'data'), AWS_ACCESS_KEY_ID: 'locksmith', AWS_SECRET_ACCESS_KEY: 'locksmith' });
  const open = async (table: string) => {
    const io = captureIo(env());
    const session = await openTableForScan({ endpoint, table }, io, 'audit');
    session.connection.client.destroy();
    return session;
  };

  it('describes a table once, then starts from the checked cache; a table re-created with other keys is described again', async () => {
    const table = await createTempTable(admin, PK_SK, 'key-cache-flow');
    try {
      expect(await open(table)).toMatchObject({ keysFrom: 'described', table: { name: table, keys: PK_SK } });
      expect(await open(table)).toMatchObject({ keysFrom: 'cache', table: { name: table, keys: PK_SK } });

      // Re-created with the same two attributes swapped: GetItem accepts the cached key map, the hash-key Query does not.
      await deleteTable(admin, table);
      await ensureTable(admin, table, { hash: S('SK'), range: S('PK') });
      expect(await open(table)).toMatchObject({ keysFrom: 'described', table: { keys: { hash: S('SK'), range: S('PK') } } });
      expect((await open(table)).keysFrom).toBe('cache');

      await deleteTable(admin, table);
      await ensureTable(admin, table, { hash: N('userId') });
      expect(await open(table)).toMatchObject({ keysFrom: 'described', table: { keys: { hash: N('userId') } } });
      expect((await open(table)).keysFrom).toBe('cache');
    } finally {
      await deleteTable(admin, table);
    }
  });

  it('a missing table gets DescribeTable’s error even when a schema was cached for its name', async () => {
    const table = await createTempTable(admin, PK_SK, 'key-cache-gone');
    await open(table);
    await deleteTable(admin, table);
    await expect(open(table)).rejects.toThrow(new RegExp(`table ${table} not found`));
  });

  it('an unreadable cache file is no cache', async () => {
    await open(pair);
    await writeFile(keySchemaCachePath(env()), '{"version":1,"entries":[["x",{"hash":{"name":"PK","type":"Q"}}]');
    expect((await open(pair)).keysFrom).toBe('described');
    expect(JSON.parse(await readFile(keySchemaCachePath(env()), 'utf8'))).toMatchObject({ version: 1 });
  });

  it('a cache file that is a symbolic link is not read (the data folder rule)', async () => {
    await open(pair);
    const path = keySchemaCachePath(env());
    await rename(path, `${path}.real`);
    await symlink(`${path}.real`, path);
    expect((await open(pair)).keysFrom).toBe('described');
  });

  it('the audit from the cache prints the same report as the audit that described the table', async () => {
    const table = await createTempTable(admin, PK_SK, 'key-cache-audit');
    try {
      await putItems(admin, table, [
        { PK: { S: 'ACCT#1' }, SK: { S: 'PROFILE' }, email: { S: 'a@x.io' } },
        { PK: { S: 'UNIQ#EMAIL#a@x.io' }, SK: { S: 'LOCK' } },
        { PK: { S: 'UNIQ#EMAIL#ghost@x.io' }, SK: { S: 'LOCK' } },
      ]);
      const audit = async () => {
        const io = captureIo(env());
        const code = await main(['audit', '--endpoint', endpoint, '--table', table, '--preset', 'uniq', '--json'], io);
        return { code, report: JSON.parse(io.out()) as AuditReport };
      };
      const [first, second] = [await audit(), await audit()];
      expect(first.code).toBe(1);
      expect(first.report.summary['orphan-lock']).toBe(1);
      expect(second).toEqual(first);
    } finally {
      await deleteTable(admin, table);
    }
  });
});
