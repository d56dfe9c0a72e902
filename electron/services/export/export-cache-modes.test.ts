/**
 * The export cache holds the whole exported table (PII included): `audit --export s3://…` keeps it
 * to its owner (folders 0700, files 0600) and refuses a data folder others can write to, as the
 * data folder's guard promises. Checked by stat after a real download from s3rver.
 */
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item, KeySchema } from '../../../shared/model';
import { main } from '../../cli/main';
import { captureIo } from '../../cli/testing-io';
import { writeExport } from './write-export';

const keys: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
let work = '';
let server: S3rver;
let endpoint = '';

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [dir];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else out.push(p);
  }
  return out;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'locksmith-cache-modes-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(work, 's3') });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await client.send(new CreateBucketCommand({ Bucket: 'exports' }));
  const items: Item[] = Array.from({ length: 20 }, (_, i) => ({ PK: { S: `ACCT#${i}` }, SK: { S: 'PROFILE' }, email: { S: `u${i}@x` } }));
  await writeExport({ out: join(work, 'src'), keys, tableArn: 'arn:aws:dynamodb:us-east-1:0:table/users', partitions: 2 }, items);
  for (const path of await walk(join(work, 'src'))) {
    if ((await stat(path)).isDirectory()) continue;
    await client.send(
      new PutObjectCommand({ Bucket: 'exports', Key: `team/${relative(join(work, 'src'), path)}`, Body: await readFile(path) }),
    );
  }
  client.destroy();
});

afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

const run = (data: string) => {
  const io = captureIo({ LOCKSMITH_DATA_DIR: data, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' });
  return main(['audit', '--export', 's3://exports/team', '--s3-endpoint', endpoint, '--preset', 'uniq', '--json'], io).then((code) => ({
    code,
    io,
  }));
};

describe('audit --export s3://…: the cache\u2019s modes', () => {
  it('creates the data folder and every cache folder 0700, every downloaded file 0600', { timeout: 60_000 }, async () => {
    const data = join(work, 'fresh');
    const { code, io } = await run(data);
    expect(io.err()).toBe('');
    expect(code).toBe(1);
    const cached = await walk(join(data, 'cache', 's3'));
    expect(cached.some((p) => p.endsWith('.json.gz'))).toBe(true);
    const loose: string[] = [];
    for (const path of [data, join(data, 'cache'), ...cached]) {
      const info = await stat(path);
      const mode = info.mode & 0o777;
      if (mode !== (info.isDirectory() ? 0o700 : 0o600)) loose.push(`${relative(data, path) || '.'} ${mode.toString(8)}`);
    }
    expect(loose).toEqual([]);
  });

  it('tightens a data folder others can read (0755, as mkdir leaves it) to 0700', { timeout: 60_000 }, async () => {
    const data = join(work, 'readable');
    await mkdir(data, { mode: 0o755 });
    await chmod(data, 0o755);
    await run(data);
    expect((await stat(data)).mode & 0o777).toBe(0o700);
  });

  it('refuses a world-writable data folder: nothing is downloaded', { timeout: 60_000 }, async () => {
    const data = join(work, 'open');
    await mkdir(data);
    await chmod(data, 0o777);
    const { code, io } = await run(data);
    expect(code).toBe(2);
    expect(io.err()).toContain('writable by every user');
    expect(await readdir(data)).toEqual([]);
  });
});
