import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import type { Item } from '../../../shared/model';
import type { Outcome } from '../../../shared/transactions/types';
import type { Verification } from '../../../shared/transactions/verify';
import { testClient } from '../../testing/dynamo-fixtures';
import { runCli } from '../testing-cli';
import { writeFixture } from '../testing/write-fixture';

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
const conv = layout.convention;
const fx = writeFixture(admin, conv, 'cli-life');
const table = fx.table;

const get = async (name: string, pk: string, sk: string): Promise<Item | undefined> =>
  (await admin.send(new GetItemCommand({ TableName: name, Key: { PK: { S: pk }, SK: { S: sk } }, ConsistentRead: true }))).Item;
const base = (name: string): string[] => ['--endpoint', endpoint, '--table', name, '--convention', fx.conventionFile];
const ADA = JSON.stringify({ PK: 'ACCT#a1', SK: 'PROFILE' });
const seeded = (): Item[] => [
  layout.account('a1', { username: 'ada', email: 'ada@x.io' }),
  layout.lock('HANDLE', 'ada'),
  layout.lock('EMAIL', 'ada@x.io'),
];
const logged = async (name: string): Promise<{ table: string; kind: string }[]> =>
  (await readFile(join(fx.dataDir, 'audit-log.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { table: string; kind: string })
    .filter((l) => l.table === name);

describe('lifecycle commands through bin/locksmith', () => {
  it('change-value: new lock, old lock gone, account updated — applied and verified, logged', async () => {
    const name = await table(seeded());
    const run = await runCli(
      ['change-value', ...base(name), '--account', ADA, '--rule', 'HANDLE', '--to', 'bea', '--yes', '--json'],
      fx.env,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { outcome: Outcome; verification: Verification };
    expect(out.outcome.status).toBe('succeeded');
    expect(out.verification).toEqual({ verified: true, differences: [], unchecked: [] });
    expect(await get(name, 'UNIQ#HANDLE#bea', 'LOCK')).toBeDefined();
    expect(await get(name, 'UNIQ#HANDLE#ada', 'LOCK')).toBeUndefined();
    expect((await get(name, 'ACCT#a1', 'PROFILE'))?.username).toEqual({ S: 'bea' });
    expect(await logged(name)).toMatchObject([{ kind: 'change-value' }]);
  });

  it('change-value to a value someone holds is refused by its condition (exit 1), nothing written', async () => {
    const name = await table([...seeded(), layout.account('b2', { username: 'bea' }), layout.lock('HANDLE', 'bea')]);
    const run = await runCli(['change-value', ...base(name), '--account', ADA, '--rule', 'HANDLE', '--to', 'bea', '--yes'], fx.env);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/cancelled, nothing was written/);
    expect((await get(name, 'ACCT#a1', 'PROFILE'))?.username).toEqual({ S: 'ada' });
    expect(await get(name, 'UNIQ#HANDLE#ada', 'LOCK')).toBeDefined();
  });

  it('delete-account: the account and all its locks, applied and verified in words', async () => {
    const name = await table([...seeded(), layout.account('b2', { username: 'bea' }), layout.lock('HANDLE', 'bea')]);
    const run = await runCli(['delete-account', ...base(name), '--account', ADA, '--yes'], fx.env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('applied and verified: every written item re-read as written');
    const left = (await admin.send(new ScanCommand({ TableName: name, ConsistentRead: true }))).Items ?? [];
    expect(left.map((i) => i.PK?.S).sort()).toEqual(['ACCT#b2', 'UNIQ#HANDLE#bea']);
    expect(await logged(name)).toMatchObject([{ kind: 'delete-account' }]);
  });

  it('an AWS profile connection is read-only until --allow-writes; --dry-run sends nothing', async () => {
    const name = await table(seeded());
    const config = join(fx.dataDir, 'aws-config');
    await writeFile(
      config,
      `[profile sandboxed]\nregion = us-east-1\nendpoint_url = ${endpoint}\naws_access_key_id = locksmith\naws_secret_access_key = locksmith\n`,
    );
    const profileEnv = {
      ...fx.env,
      AWS_PROFILE: 'sandboxed',
      AWS_CONFIG_FILE: config,
      AWS_SHARED_CREDENTIALS_FILE: join(fx.dataDir, 'none'),
    };
    const args = [
      'delete-account',
      '--profile',
      'sandboxed',
      '--table',
      name,
      '--convention',
      fx.conventionFile,
      '--account',
      ADA,
      '--yes',
    ];
    const refused = await runCli(args, profileEnv);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/connection profile sandboxed is read-only: nothing was sent — to fix: pass --allow-writes/);
    const dry = await runCli(['change-value', ...base(name), '--account', ADA, '--rule', 'HANDLE', '--to', 'bea', '--dry-run'], fx.env);
    expect(dry.code).toBe(0);
    expect(await get(name, 'ACCT#a1', 'PROFILE')).toBeDefined();
    expect(await get(name, 'UNIQ#HANDLE#bea', 'LOCK')).toBeUndefined();
    expect(await logged(name).catch(() => [])).toEqual([]);
  });
});
