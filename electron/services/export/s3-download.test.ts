import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { StartQueryExecutionCommand } from '@aws-sdk/client-athena';
import { PRESET_DEFAULTS, presetConvention } from '../../../shared/conventions/presets';
import type { Item, KeySchema } from '../../../shared/model';
import { main } from '../../cli/main';
import { captureIo } from '../../cli/testing-io';
import { openExport, verifyExport } from './read-export';
import { downloadExport, parseS3Url, type S3Progress } from './s3-download';
import { athena, duckAnswers, fakeAthena, kindOf, paged } from './testing-athena';
import { writeExport } from './write-export';

const keys: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
let work = '';
let server: S3rver;
let client: S3Client;
let gets = 0;
let endpoint = '';
const uploaded: string[] = [];

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else out.push(p);
  }
  return out;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'locksmith-s3-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(work, 's3') });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  client.middlewareStack.add(
    (next, context) => (args) => {
      if (context.commandName === 'GetObjectCommand') gets++;
      return next(args);
    },
    { step: 'initialize' },
  );
  await client.send(new CreateBucketCommand({ Bucket: 'exports' }));
  const items: Item[] = Array.from({ length: 300 }, (_, i) => ({ PK: { S: `ACCT#${i}` }, SK: { S: 'PROFILE' }, email: { S: `u${i}@x` } }));
  await writeExport({ out: join(work, 'src'), keys, tableArn: 'arn:aws:dynamodb:us-east-1:0:table/users', partitions: 6 }, items);
  for (const path of await walk(join(work, 'src'))) {
    const key = `team/prod/${relative(join(work, 'src'), path)}`;
    await client.send(new PutObjectCommand({ Bucket: 'exports', Key: key, Body: await readFile(path) }));
    uploaded.push(key);
  }
});

afterAll(async () => {
  client.destroy();
  await server.close();
  await rm(work, { recursive: true, force: true });
});

describe('downloading an export from S3 (s3rver)', () => {
  it('parses s3 URLs', () => {
    expect(parseS3Url('s3://exports/team/prod/')).toEqual({ bucket: 'exports', prefix: 'team/prod' });
    expect(parseS3Url('s3://exports')).toEqual({ bucket: 'exports', prefix: '' });
    expect(parseS3Url('/tmp/x')).toBeUndefined();
  });

  it('fetches manifests and every listed file in parallel, MD5-verified, with progress; a second run fetches nothing', async () => {
    const cacheDir = join(work, 'cache1');
    const seen: S3Progress[] = [];
    const dir = await downloadExport({ client, url: 's3://exports/team/prod', cacheDir, onProgress: (p) => seen.push(p) });
    const opened = await openExport(dir);
    await verifyExport(opened);
    expect(opened.summary.itemCount).toBe(300);
    expect(seen.at(-1)).toMatchObject({ files: 6, filesDone: 6, filesKept: 0 });
    gets = 0;
    await downloadExport({ client, url: 's3://exports/team/prod', cacheDir, onProgress: (p) => seen.push(p) });
    expect(seen.at(-1)).toMatchObject({ files: 6, filesDone: 6, filesKept: 6 });
    // Only the manifests (and their checksum files under both names, _started) are read again.
    expect(gets).toBe(7);
  });

  it('resumes a partial file with a ranged GET and replaces a corrupted one', async () => {
    const cacheDir = join(work, 'cache2');
    const dir = await downloadExport({ client, url: 's3://exports/team/prod', cacheDir });
    const [a, b] = (await openExport(dir)).files.filter((f) => f.itemCount > 0);
    const whole = await readFile(a!.path);
    await rm(a!.path);
    await writeFile(`${a!.path}.part`, whole.subarray(0, 10));
    await writeFile(b!.path, 'garbage');
    const seen: S3Progress[] = [];
    await downloadExport({ client, url: 's3://exports/team/prod', cacheDir, onProgress: (p) => seen.push(p) });
    expect(await readFile(a!.path)).toEqual(whole);
    expect(seen.at(-1)).toMatchObject({ filesKept: 4, bytes: whole.length - 10 + (await readFile(b!.path)).length });
    await verifyExport(await openExport(dir));
  });

  it('names the object it cannot read, and the URL without an export', async () => {
    const dataKey = uploaded.find((k) => k.includes('/data/'))!;
    const body = await readFile(join(work, 'src', dataKey.slice('team/prod/'.length)));
    await client.send(new DeleteObjectCommand({ Bucket: 'exports', Key: dataKey }));
    try {
      await expect(downloadExport({ client, url: 's3://exports/team/prod', cacheDir: join(work, 'cache3') })).rejects.toThrow(
        `cannot read s3://exports/${dataKey}`,
      );
    } finally {
      await client.send(new PutObjectCommand({ Bucket: 'exports', Key: dataKey, Body: body }));
    }
    await expect(downloadExport({ client, url: 's3://exports/elsewhere', cacheDir: join(work, 'cache4') })).rejects.toThrow(
      'no export under s3://exports/elsewhere/AWSDynamoDB/',
    );
  });

  // Two CLI audits, each with its DuckDB child process: seconds on a busy machine.
  it('audit --export s3://… reports exactly what the same export on disk reports', { timeout: 60_000 }, async () => {
    const env = { LOCKSMITH_DATA_DIR: join(work, 'data'), AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
    const fromS3 = captureIo(env);
    const code = await main(
      ['audit', '--export', 's3://exports/team/prod', '--s3-endpoint', endpoint, '--preset', 'uniq', '--json'],
      fromS3,
    );
    const local = captureIo(env);
    const localCode = await main(['audit', '--export', join(work, 'src'), '--preset', 'uniq', '--json'], local);
    expect(fromS3.err()).toBe('');
    expect(code).toBe(1);
    expect(localCode).toBe(1);
    expect(fromS3.out()).toBe(local.out());
    const missing = captureIo(env);
    expect(await main(['audit', '--export', 's3://exports/nothing-here', '--s3-endpoint', endpoint, '--preset', 'uniq'], missing)).toBe(2);
    expect(missing.err()).toContain('no export under s3://exports/nothing-here/AWSDynamoDB/');
  });

  it(
    '--print-sql athena prints the external table over the data folder on S3 and the queries; --engine athena refuses a local folder',
    { timeout: 60_000 },
    async () => {
      const env = { LOCKSMITH_DATA_DIR: join(work, 'data'), AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
      const io = captureIo(env);
      expect(
        await main(
          ['audit', '--export', 's3://exports/team/prod', '--s3-endpoint', endpoint, '--preset', 'uniq', '--print-sql', 'athena'],
          io,
        ),
      ).toBe(0);
      expect(io.out()).toMatch(/LOCATION 's3:\/\/exports\/team\/prod\/AWSDynamoDB\/[0-9]{13}-[0-9a-f]{8}\/data\/'/);
      expect(io.out()).toContain('UNTESTED against real Athena');
      const local = captureIo(env);
      expect(
        await main(
          ['audit', '--export', join(work, 'src'), '--preset', 'uniq', '--engine', 'athena', '--athena-output', 's3://results/'],
          local,
        ),
      ).toBe(2);
      expect(local.err()).toContain('--engine athena reads one full export where it is, on S3');
    },
  );

  it('sampleItems: only the manifests and the first data files holding that many items', async () => {
    const cacheDir = join(work, 'cache5');
    gets = 0;
    const dir = await downloadExport({ client, url: 's3://exports/team/prod', cacheDir, sampleItems: 1 });
    const files = (await openExport(dir)).files;
    const first = files.findIndex((f) => f.itemCount > 0);
    expect(gets).toBe(7 + 1);
    expect(await readFile(files[first]!.path)).toBeTruthy();
    await expect(readFile(files.filter((f) => f.itemCount > 0)[1]!.path)).rejects.toThrow(/ENOENT/);
  });

  /** Every query done at the first poll: the CLI polls with real delays (250 ms first). */
  const DONE_AT_ONCE = { ddl: ['SUCCEEDED'], counts: ['SUCCEEDED'], pulled: ['SUCCEEDED'], drop: ['SUCCEEDED'] } as const;

  // Athena cannot run here: its SDK is mocked (testing-athena.ts) and answers what the same SQL answers on DuckDB.
  it('audit --engine athena prints what the DuckDB engine prints; a FAILED query exits 2 with no report', { timeout: 60_000 }, async () => {
    const env = { LOCKSMITH_DATA_DIR: join(work, 'data-athena'), AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
    const convention = presetConvention('uniq', keys, PRESET_DEFAULTS.uniq);
    const opened = await openExport(join(work, 'src'));
    const answers = await duckAnswers(
      convention,
      opened.files.filter((f) => f.itemCount > 0).map((f) => f.path),
    );
    const fake = fakeAthena(
      {
        counts: answers.counts,
        pulled: paged(
          answers.pulled[0]!.columns,
          answers.pulled.flatMap((p) => p.rows),
          100,
        ),
      },
      DONE_AT_ONCE,
    );
    const args = [
      'audit',
      '--export',
      's3://exports/team/prod',
      '--s3-endpoint',
      endpoint,
      '--preset',
      'uniq',
      '--engine',
      'athena',
      '--athena-output',
      's3://results/locksmith/',
      '--athena-workgroup',
      'audits',
      '--athena-database',
      'exports_db',
      '--json',
    ];
    const io = captureIo(env);
    const code = await main(args, io);
    const duck = captureIo(env);
    const duckCode = await main(['audit', '--export', join(work, 'src'), '--preset', 'uniq', '--json'], duck);
    expect(io.err()).toBe('');
    expect([code, duckCode]).toEqual([1, 1]);
    expect(io.out()).toBe(duck.out());
    const sent = fake.sent();
    expect(sent.map(kindOf)).toEqual(['ddl', 'counts', 'pulled', 'drop']);
    expect(sent[0]).toMatch(/LOCATION 's3:\/\/exports\/team\/prod\/AWSDynamoDB\/[0-9]{13}-[0-9a-f]{8}\/data\/'/);
    expect(athena.commandCalls(StartQueryExecutionCommand)[0]!.args[0].input).toMatchObject({
      WorkGroup: 'audits',
      QueryExecutionContext: { Database: 'exports_db' },
      ResultConfiguration: { OutputLocation: 's3://results/locksmith/' },
    });
    athena.reset();
    fakeAthena({ counts: answers.counts }, { ...DONE_AT_ONCE, counts: ['FAILED'] });
    const failed = captureIo(env);
    expect(await main(args, failed)).toBe(2);
    expect(JSON.parse(failed.out())).toMatchObject({ complete: false });
    expect(failed.err()).toMatch(/counts query FAILED .*HIVE_BAD_DATA/);
  });
});
