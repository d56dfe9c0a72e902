/**
 * Load: 60 separate processes claim one value at the same moment (each previews, then all execute
 * on one signal), against the run's DynamoDB Local. Exactly one succeeds; every other is told who
 * holds it; the table holds exactly one lock and the activity log one success.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { build } from 'esbuild';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import { readActivity } from '../../services/transactions/service';
import { createTempTable, deleteTable, putItems, testClient } from '../dynamo-fixtures';
import { recordFigures } from './figures';

const CONTENDERS = 50;
const SOURCE = fileURLToPath(new URL('./claim-worker.ts', import.meta.url));
// Bundled once into the repo's .cache (so node_modules resolve): 50 processes then start as plain Node, not through tsx.
const WORKER = fileURLToPath(new URL('../../../.cache/reliability/claim-worker.mjs', import.meta.url));
const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq', { ownerAttribute: 'owner' });
let name = '';
let dataDir = '';
const children: ChildProcessWithoutNullStreams[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  if (name) await deleteTable(admin, name);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Contender {
  readonly child: ChildProcessWithoutNullStreams;
  readonly ready: Promise<void>;
  readonly done: Promise<{
    code: number | null;
    outcome: { status: string; stderr?: string; reasons?: { code: string; holder?: string; message: string }[] };
  }>;
}

function contender(accountId: string): Contender {
  const child = spawn(process.execPath, [WORKER, endpoint, name, accountId, 'ada', dataDir], {
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`contender ${accountId} exited ${code} before ready: ${out}${err}`)));
  });
  const done = new Promise<Contender['done'] extends Promise<infer T> ? T : never>((resolve) => {
    // 'close', not 'exit': 'exit' can come before the last stdout chunk is read (the outcome line
    // then looked missing, under load, in CI); 'close' comes after the child's stdio has ended.
    child.once('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '{}';
      // No outcome line: the worker died before answering; keep what it said on stderr, so the failure explains itself.
      resolve({
        code,
        outcome: last === 'ready' ? { status: 'none', stderr: err.slice(-2_000) } : (JSON.parse(last) as { status: string }),
      });
    });
  });
  return { child, ready, done };
}

describe('claims of one value from separate processes', () => {
  it(`${CONTENDERS} processes claim "ada" at once: one succeeds, the rest are told who holds it, one lock`, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'locksmith-race-'));
    await build({
      entryPoints: [SOURCE],
      outfile: WORKER,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'error',
    });
    const accounts = Array.from({ length: CONTENDERS }, (_, i) => layout.account(`p${i}`, { username: 'ada' }));
    name = await createTempTable(admin, layout.convention.keys, 'race');
    await putItems(admin, name, accounts);
    const t0 = Date.now();
    const racers = accounts.map((_, i) => contender(`p${i}`));
    await Promise.all(racers.map((r) => r.ready));
    const readyMs = Date.now() - t0;
    // Every process holds its preview: release them together.
    for (const r of racers) r.child.stdin.write('go\n');
    const results = await Promise.all(racers.map((r) => r.done));
    const raceMs = Date.now() - t0 - readyMs;

    const winners = results.filter((r) => r.outcome.status === 'succeeded');
    expect(winners).toHaveLength(1);
    expect(winners[0]?.code).toBe(0);
    const locks = ((await admin.send(new ScanCommand({ TableName: name, ConsistentRead: true }))).Items ?? []).filter((i) =>
      i.PK?.S?.startsWith('UNIQ#'),
    );
    expect(locks).toHaveLength(1);
    const holder = locks[0]?.owner?.S;
    const losers = results.filter((r) => r.outcome.status !== 'succeeded');
    expect(losers).toHaveLength(CONTENDERS - 1);
    for (const loser of losers) {
      expect(loser.outcome).toMatchObject({ status: 'cancelled' });
      expect(loser.code).toBe(1);
      expect(loser.outcome.reasons?.[0]).toMatchObject({ code: 'ConditionalCheckFailed', holder });
    }
    const log = await readActivity({ dataDir, limit: 1_000 });
    expect(log).toHaveLength(CONTENDERS);
    expect(log.filter((e) => e.outcome.status === 'succeeded')).toHaveLength(1);
    await recordFigures('claim-race', {
      processes: CONTENDERS,
      succeeded: 1,
      refused: CONTENDERS - 1,
      locks: locks.length,
      logLines: log.length,
      readyMs,
      raceMs,
    });
  }, 240_000);
});
