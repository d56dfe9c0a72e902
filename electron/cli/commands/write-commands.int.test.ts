import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import type { Outcome, Preview } from '../../../shared/transactions/types';
import { testClient } from '../../testing/dynamo-fixtures';
import { runCli } from '../testing-cli';
import { writeFixture } from '../testing/write-fixture';

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
const conv = layout.convention;
const fx = writeFixture(admin, conv, 'cli-tx');
const table = fx.table;

const lockExists = async (name: string, value: string): Promise<boolean> =>
  (
    await admin.send(
      new GetItemCommand({ TableName: name, Key: { PK: { S: `UNIQ#HANDLE#${value}` }, SK: { S: 'LOCK' } }, ConsistentRead: true }),
    )
  ).Item !== undefined;

const base = (name: string): string[] => ['--endpoint', endpoint, '--table', name, '--convention', fx.conventionFile];
const ADA = JSON.stringify({ PK: 'ACCT#a1', SK: 'PROFILE' });

describe('claim and release through bin/locksmith', () => {
  it('--dry-run prints the exact TransactItems and sends nothing', async () => {
    const name = await table([layout.account('a1', { username: 'Ada' })]);
    const run = await runCli(
      ['claim', ...base(name), '--rule', 'HANDLE', '--value', 'ada', '--account', ADA, '--dry-run', '--json'],
      fx.env,
    );
    expect(run.code).toBe(0);
    const preview = JSON.parse(run.stdout) as Preview;
    expect(preview.input.TransactItems[0]).toMatchObject({
      Put: { TableName: name, Item: { PK: { S: 'UNIQ#HANDLE#ada' }, SK: { S: 'LOCK' } }, ConditionExpression: 'attribute_not_exists(#pk)' },
    });
    expect(preview.copyAs.awsCli).toContain('aws dynamodb transact-write-items');
    expect(await lockExists(name, 'ada')).toBe(false);
  });

  it('--dry-run without --json prints the readable plan and the request, no escaped SDK code', async () => {
    const name = await table([layout.account('a1', { username: 'Ada' })]);
    const run = await runCli(['claim', ...base(name), '--rule', 'HANDLE', '--value', 'ada', '--account', ADA, '--dry-run'], fx.env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Claim handle `ada` for ACCT#a1 \/ PROFILE/);
    expect(run.stdout).toContain('Guarded:');
    expect(run.stdout).toContain('"TransactItems"');
    expect(run.stdout).not.toContain('new TransactWriteItemsCommand');
    expect(run.stdout).toMatch(/Dry run: nothing was sent\./);
    expect(await lockExists(name, 'ada')).toBe(false);
  });

  it('a release of a lock that no longer exists is a refusal (exit 1) that says so', async () => {
    const name = await table([layout.account('a1', { username: 'ada' }), layout.lock('HANDLE', 'ada')]);
    const run = await runCli(['release', ...base(name), '--rule', 'HANDLE', '--value', 'gone', '--yes'], fx.env);
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 1 });
    expect(`${run.stdout}${run.stderr}`).toMatch(/no lock|does not exist|no longer exists/i);
  });

  it('without --yes and without a terminal, refuses with exit 2 and sends nothing', async () => {
    const name = await table([layout.account('a1', { username: 'ada' })]);
    const run = await runCli(['claim', ...base(name), '--rule', 'HANDLE', '--value', 'ada', '--account', ADA], fx.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no terminal to confirm on: nothing was sent — to fix: pass --yes/);
    expect(await lockExists(name, 'ada')).toBe(false);
  });

  it('claims with --yes (exit 0), then a second claim is told who holds it (exit 1), and both are in the activity log', async () => {
    const name = await table([layout.account('a1', { username: 'ada' }), layout.account('b2', { username: 'ADA' })]);
    const first = await runCli(['claim', ...base(name), '--rule', 'HANDLE', '--value', 'ada', '--account', ADA, '--yes', '--json'], fx.env);
    expect(first.code).toBe(0);
    expect((JSON.parse(first.stdout) as { outcome: Outcome }).outcome.status).toBe('succeeded');
    const second = await runCli(
      [
        'claim',
        ...base(name),
        '--rule',
        'HANDLE',
        '--value',
        'ADA',
        '--account',
        JSON.stringify({ PK: 'ACCT#b2', SK: 'PROFILE' }),
        '--yes',
      ],
      fx.env,
    );
    expect(second.code).toBe(1);
    expect(second.stdout).toMatch(/handle `ada` is already held by ACCT#a1 \/ PROFILE — the lock UNIQ#HANDLE#ada \/ LOCK exists/);
    const log = (await readFile(join(fx.dataDir, 'audit-log.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { table: string });
    expect(log.filter((l) => l.table === name)).toHaveLength(2);
  });

  it('release is refused while an account holds the value (exit 1), and releases an orphan (exit 0)', async () => {
    const name = await table([layout.account('a1', { username: 'ada' }), layout.lock('HANDLE', 'ada'), layout.lock('HANDLE', 'ghost')]);
    const held = await runCli(['release', ...base(name), '--rule', 'HANDLE', '--value', 'ada', '--yes'], fx.env);
    expect(held.code).toBe(1);
    expect(held.stdout).toMatch(/refused: ACCT#a1 \/ PROFILE holds `ada` right now/);
    expect(await lockExists(name, 'ada')).toBe(true);
    const orphan = await runCli(['release', ...base(name), '--rule', 'HANDLE', '--value', 'ghost', '--yes'], fx.env);
    expect(orphan.code).toBe(0);
    expect(orphan.stdout).toMatch(/^done: 1 action\(s\) applied together$/m);
    expect(orphan.stdout).not.toContain('done: done:');
    expect(await lockExists(name, 'ghost')).toBe(false);
  });

  it('an AWS profile connection is read-only until --allow-writes', async () => {
    const name = await table([layout.lock('HANDLE', 'ghost')]);
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
      'release',
      '--profile',
      'sandboxed',
      '--table',
      name,
      '--convention',
      fx.conventionFile,
      '--rule',
      'HANDLE',
      '--value',
      'ghost',
      '--yes',
    ];
    const refused = await runCli(args, profileEnv);
    expect(refused.stderr).toMatch(/read-only/);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/connection profile sandboxed is read-only: nothing was sent — to fix: pass --allow-writes/);
    expect(await lockExists(name, 'ghost')).toBe(true);
    const allowed = await runCli([...args, '--allow-writes'], profileEnv);
    expect(allowed.code).toBe(0);
    expect(await lockExists(name, 'ghost')).toBe(false);
  });
});

describe('repair through bin/locksmith', () => {
  it('plans release for orphans and claim for missing locks, then executes them', async () => {
    const name = await table([
      layout.account('a1', { username: 'ada', email: 'a@x.io' }),
      layout.lock('HANDLE', 'ada'),
      layout.lock('EMAIL', 'a@x.io'),
      layout.account('b2', { username: 'bob' }),
      layout.lock('HANDLE', 'ghost'),
    ]);
    const plan = await runCli(['repair', ...base(name), '--json'], fx.env);
    expect({ code: plan.code, stdout: plan.stdout, stderr: plan.stderr }).toMatchObject({ code: 1, stderr: '' });
    const parsed = JSON.parse(plan.stdout) as {
      fixes: { operation: { kind: string; value: string } }[];
      transactions: { input: { TransactItems: unknown[]; ClientRequestToken: string } }[];
      confirmText: string;
    };
    expect(parsed.fixes.map((f) => [f.operation.kind, f.operation.value]).sort()).toEqual([
      ['claim', 'bob'],
      ['release', 'ghost'],
    ]);
    // One batched transaction: the release's Delete, the claim's Put and its check of the account.
    expect(parsed.transactions.map((t) => t.input.TransactItems.length)).toEqual([3]);
    expect(parsed.confirmText).toBe('3');
    expect(await lockExists(name, 'ghost')).toBe(true);
    const executed = await runCli(['repair', ...base(name), '--execute', '--yes'], fx.env);
    expect(executed.code).toBe(0);
    expect(executed.stdout).toMatch(/release handle `ghost` \(orphan lock\): done/);
    expect(executed.stdout).toMatch(/Transaction 1 of 1: succeeded, applied and verified/);
    expect(executed.stdout.trimEnd().split('\n').at(-1)).toBe('Repair of ' + name + ': 2 of 2 fixes done, 0 refused, 0 failed.');
    const items = (await admin.send(new ScanCommand({ TableName: name, ConsistentRead: true }))).Items ?? [];
    expect(items.map((i) => i.PK?.S).sort()).toEqual(['ACCT#a1', 'ACCT#b2', 'UNIQ#EMAIL#a@x.io', 'UNIQ#HANDLE#ada', 'UNIQ#HANDLE#bob']);
    const clean = await runCli(['repair', ...base(name)], fx.env);
    expect(clean.code).toBe(0);
  });

  it('says what a detected convention rests on, and sends nothing unattended when detection was not sure', async () => {
    // A PHONE lock no account value matches: detection can pair that rule by its name only (confidence < 1).
    const name = await table([
      layout.account('a1', { username: 'ada', email: 'a@x.io' }),
      layout.lock('HANDLE', 'ada'),
      layout.lock('EMAIL', 'a@x.io'),
      layout.account('b2', { username: 'bob', email: 'b@x.io' }),
      layout.lock('HANDLE', 'bob'),
      layout.lock('HANDLE', 'ghost'),
      layout.raw('UNIQ#PHONE#5550100', 'LOCK'),
    ]);
    const detected = ['--endpoint', endpoint, '--table', name];
    const plan = await runCli(['repair', ...detected, '--json'], fx.env);
    const parsed = JSON.parse(plan.stdout) as { convention: { source: string; confidence: number; evidence: string[] } };
    expect(parsed.convention.source).toBe('detected');
    expect(parsed.convention.confidence).toBeLessThan(1);
    expect(parsed.convention.evidence.length).toBeGreaterThan(0);
    const text = await runCli(['repair', ...detected], fx.env);
    expect(text.stderr).toMatch(/convention detected \(confidence 0\.\d+\)/);
    const unattended = await runCli(['repair', ...detected, '--execute', '--yes'], fx.env);
    expect(unattended.code).toBe(1);
    expect(unattended.stderr).toMatch(/detected with confidence 0\.\d+.*nothing was sent.*--convention FILE/);
    expect(await lockExists(name, 'ghost')).toBe(true);
    // The single writes too: release --yes from the same guess says what it rests on and sends nothing.
    const release = await runCli(['release', ...detected, '--rule', 'HANDLE', '--value', 'ghost', '--yes'], fx.env);
    expect(release.code).toBe(1);
    expect(release.stderr).toMatch(/convention detected \(confidence 0\.\d+\)/);
    expect(release.stderr).toMatch(/writes from a guess are not sent unattended; nothing was sent/);
    const releaseJson = await runCli(['release', ...detected, '--rule', 'HANDLE', '--value', 'ghost', '--yes', '--json'], fx.env);
    expect(JSON.parse(releaseJson.stdout)).toMatchObject({
      error: { kind: 'refused', message: expect.stringMatching(/not sent unattended/) },
    });
    expect(await lockExists(name, 'ghost')).toBe(true);
    // A convention given by the user is what --yes needs.
    const given = await runCli(['repair', ...base(name), '--execute', '--yes', '--json'], fx.env);
    expect(JSON.parse(given.stdout)).toMatchObject({ convention: { source: 'file' }, unverified: 0 });
    expect(await lockExists(name, 'ghost')).toBe(false);
  });
});
