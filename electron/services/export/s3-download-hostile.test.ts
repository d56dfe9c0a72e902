/**
 * A hostile S3-compatible server: its listing names folders that climb out of the cache
 * (`../../…/AWSDynamoDB/<id>/`) or lie outside what was asked for. Nothing may be written or removed
 * outside the cache. The server is a small fake on loopback speaking the S3 protocol's XML.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadExport, isPlainKey } from './s3-download';

const ID = '01700000000000-abcdef12';
let work = '';
let server: Server;
let client: S3Client;
/** The CommonPrefixes the fake listing answers with (set per test). */
let listed: string[] = [];
const gets: string[] = [];

const xml = (prefixes: readonly string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>exports</Name><KeyCount>${prefixes.length}</KeyCount><MaxKeys>1000</MaxKeys><Delimiter>/</Delimiter><IsTruncated>false</IsTruncated>${prefixes.map((p) => `<CommonPrefixes><Prefix>${p}</Prefix></CommonPrefixes>`).join('')}</ListBucketResult>`;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'locksmith-s3-hostile-'));
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.searchParams.get('list-type') === '2') {
      res.writeHead(200, { 'content-type': 'application/xml' }).end(xml(listed));
      return;
    }
    const key = decodeURIComponent(url.pathname.replace(/^\/exports\//, ''));
    gets.push(key);
    const exportKey = key.slice(0, key.lastIndexOf('/'));
    if (key.endsWith('manifest-summary.json')) {
      res.writeHead(200).end(
        JSON.stringify({
          exportArn: 'arn:aws:dynamodb:us-east-1:0:table/t/export/x',
          manifestFilesS3Key: `${exportKey}/manifest-files.json`,
          itemCount: 1,
          outputFormat: 'DYNAMODB_JSON',
          exportType: 'FULL_EXPORT',
          exportTime: '2026-01-01T00:00:00Z',
        }),
      );
    } else if (key.endsWith('manifest-files.json')) {
      res
        .writeHead(200)
        .end(
          `${JSON.stringify({ dataFileS3Key: `${exportKey}/data/x.json.gz`, md5Checksum: 'AAAAAAAAAAAAAAAAAAAAAA==', itemCount: 1 })}\n`,
        );
    } else if (key.endsWith('.json.gz')) {
      res.writeHead(200).end('attacker data');
    } else {
      res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code><Message>no</Message></Error>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new S3Client({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'k', secretAccessKey: 's' },
  });
});

afterAll(async () => {
  client.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(work, { recursive: true, force: true });
});

/** A folder beside the cache with a file an attacker would like removed or overwritten. */
async function victim(name: string): Promise<{ dir: string; precious: string }> {
  const dir = join(work, name);
  const data = join(dir, 'AWSDynamoDB', ID, 'data');
  await mkdir(data, { recursive: true });
  const precious = join(data, 'x.json.gz');
  await writeFile(precious, 'precious');
  return { dir, precious };
}

describe('downloadExport against a hostile listing', () => {
  it('refuses a listed folder that climbs out of the cache: nothing outside is written or removed', async () => {
    const cache = join(work, 'cache-climb');
    const { dir, precious } = await victim('victim-climb');
    // <cache>/exports/../../victim-climb/ is the victim folder.
    listed = [`../../victim-climb/AWSDynamoDB/${ID}/`];
    await expect(downloadExport({ client, url: 's3://exports/team', cacheDir: cache })).rejects.toThrow(/refused/);
    expect(await readFile(precious, 'utf8')).toBe('precious');
    expect((await readdir(join(dir, 'AWSDynamoDB', ID))).sort()).toEqual(['data']);
    expect(gets).toEqual([]);
  });

  it('refuses a listed folder outside the requested prefix, or a nested one', async () => {
    for (const hostile of [
      `elsewhere/AWSDynamoDB/${ID}/`,
      `team/AWSDynamoDB/a/../${ID}/`,
      `team/AWSDynamoDB/./`,
      `team/AWSDynamoDB/a\\..\\b/`,
      `team/AWSDynamoDB//`,
    ]) {
      listed = [hostile];
      await expect(downloadExport({ client, url: 's3://exports/team', cacheDir: join(work, 'cache-outside') }), hostile).rejects.toThrow(
        /refused/,
      );
    }
    expect(gets).toEqual([]);
  });

  it('refuses a requested URL with `..`, `.` or empty segments', async () => {
    const { precious } = await victim('victim-url');
    for (const url of [
      `s3://exports/../../victim-url/AWSDynamoDB/${ID}`,
      `s3://exports/a/./AWSDynamoDB/${ID}`,
      `s3://exports/a//AWSDynamoDB/${ID}`,
    ]) {
      await expect(downloadExport({ client, url, cacheDir: join(work, 'cache-url') }), url).rejects.toThrow(/refused/);
    }
    expect(await readFile(precious, 'utf8')).toBe('precious');
    expect(gets).toEqual([]);
  });

  it('isPlainKey: plain segments only', () => {
    expect(isPlainKey(`team/prod/AWSDynamoDB/${ID}`)).toBe(true);
    for (const bad of ['..', 'a/../b', 'a/./b', 'a//b', '/a', 'a/', 'a\\b', 'a\u0000b']) expect(isPlainKey(bad), bad).toBe(false);
  });
});
