import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AuditReport } from '../../shared/audit/types';
import type { Convention, Item, KeySchema } from '../../shared/model';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { main } from './main';
import { conventionCachePath } from './speculative-audit';
import { captureIo } from './testing-io';

const endpoint = inject('dynamoEndpoint');
const PK_SK: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
const STARTED_EARLY = 'the audit started with the convention remembered for this table, confirmed by the sample';
const NOT_CONFIRMED = 'no remembered convention confirmed by the sample';

let admin: DynamoDBClient;
let table = '';
let dir = '';

const account = (n: number, extra: Item = {}): Item => ({
  PK: { S: `ACCT#${n}` },
  SK: { S: 'PROFILE' },
  email: { S: `u${n}@x.io` },
  ...extra,
});
const lock = (text: string): Item => ({ PK: { S: text }, SK: { S: 'LOCK' } });

beforeAll(async () => {
  admin = testClient(endpoint);
  table = await createTempTable(admin, PK_SK, 'speculative-audit');
  await putItems(admin, table, [account(1), lock('UNIQ#EMAIL#u1@x.io'), account(2), lock('UNIQ#EMAIL#ghost@x.io')]);
  dir = await mkdtemp(join(tmpdir(), 'locksmith-speculative-'));
});

afterAll(async () => {
  await deleteTable(admin, table);
  admin.destroy();
  await rm(dir, { recursive: true, force: true });
});

/** One `audit --json --debug` with the data folder `data` (a fresh one: nothing remembered). */
async function audit(data: string): Promise<{ code: number; report: AuditReport; err: string }> {
  const io = captureIo({ LOCKSMITH_DATA_DIR: join(dir, data), AWS_ACCESS_KEY_ID: 'key', AWS_SECRET_ACCESS_KEY: 'secret' });
  const code = await main(['audit', '--endpoint', endpoint, '--table', table, '--preset', 'uniq', '--json', '--debug'], io);
  return { code, report: JSON.parse(io.out()) as AuditReport, err: io.err() };
}

async function remembered(data: string): Promise<[string, string, Convention][]> {
  return (
    JSON.parse(await readFile(conventionCachePath({ LOCKSMITH_DATA_DIR: join(dir, data) }), 'utf8')) as {
      entries: [string, string, Convention][];
    }
  ).entries;
}

describe('audit with the convention remembered for the table (started before the sample confirms it)', () => {
  it('starts early on a second audit and reports exactly what the first did', async () => {
    const first = await audit('warm');
    expect(first.err).not.toContain(STARTED_EARLY);
    expect(first.report.summary).toMatchObject({ 'orphan-lock': 1, 'missing-lock': 1 });
    expect((await remembered('warm')).map((e) => e[2])).toEqual([first.report.convention]);
    const second = await audit('warm');
    expect(second.err).toContain(STARTED_EARLY);
    expect(second.code).toBe(first.code);
    expect(second.report).toEqual(first.report);
  });

  it('a remembered convention that detection no longer gives is dropped: the report is the detected convention’s', async () => {
    await audit('stale');
    const path = conventionCachePath({ LOCKSMITH_DATA_DIR: join(dir, 'stale') });
    const [place, request, convention] = (await remembered('stale'))[0]!;
    // Another lock prefix: no lock would match it, and every account would be missing its lock.
    const wrong: Convention = {
      ...convention,
      rules: convention.rules.map((r) => ({ ...r, lockKeys: r.lockKeys.map((k) => ({ ...k, hash: k.hash.replace('UNIQ#', 'OTHER#') })) })),
    };
    await writeFile(path, JSON.stringify({ version: 1, entries: [[place, request, wrong]] }));
    const fresh = await audit('fresh');
    const stale = await audit('stale');
    expect(stale.err).toContain(NOT_CONFIRMED);
    expect(stale.report).toEqual(fresh.report);
    // Detection's convention replaces the stale one, so the next audit starts early again.
    expect((await remembered('stale')).map((e) => e[2])).toEqual([fresh.report.convention]);
    expect((await audit('stale')).err).toContain(STARTED_EARLY);
  });

  it('a remembered convention on other keys than the described table’s is dropped: the audit runs on the described keys', async () => {
    await audit('other-keys');
    const path = conventionCachePath({ LOCKSMITH_DATA_DIR: join(dir, 'other-keys') });
    const [place, request, convention] = (await remembered('other-keys'))[0]!;
    // As if the table had been re-created with its two key attributes swapped since the last audit.
    const swapped: Convention = { ...convention, keys: { hash: PK_SK.range!, range: PK_SK.hash } };
    await writeFile(path, JSON.stringify({ version: 1, entries: [[place, request, swapped]] }));
    const fresh = await audit('fresh-keys');
    const other = await audit('other-keys');
    expect(other.err).toContain(NOT_CONFIRMED);
    expect(other.report).toEqual(fresh.report);
    expect(other.report.convention.keys).toEqual(PK_SK);
    expect((await remembered('other-keys')).map((e) => e[2])).toEqual([fresh.report.convention]);
  });

  it('a table whose data changed what detection gives is audited under the new convention', async () => {
    await audit('changed');
    await putItems(admin, table, [
      account(3, { username: { S: 'three' } }),
      lock('UNIQ#HANDLE#three'),
      account(4, { username: { S: 'four' } }),
    ]);
    const changed = await audit('changed');
    const fresh = await audit('fresh-after-change');
    expect(changed.err).toContain(NOT_CONFIRMED);
    expect(changed.report.convention.rules.map((r) => r.name)).toContain('HANDLE');
    expect(changed.report).toEqual(fresh.report);
  });
});
