/**
 * A manifest is input: the keys it names are read only below the export's `AWSDynamoDB/` folder,
 * whatever the S3 prefix, and a hostile key (`..`, a Windows separator, NUL) is refused, not joined.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import { localKey, md5Base64 } from './layout';
import { ExportError, openExport } from './read-export';
import { writeExport, type WrittenExport } from './write-export';

const work: string[] = [];
afterAll(async () => Promise.all(work.map((dir) => rm(dir, { recursive: true, force: true }))));

/** An export of one account, in a folder removed after the tests. */
async function oneAccountExport(): Promise<{ dir: string; written: WrittenExport }> {
  const dir = await mkdtemp(join(tmpdir(), 'locksmith-manifest-'));
  work.push(dir);
  const layout = layoutFor('uniq');
  const written = await writeExport(
    { out: dir, keys: layout.convention.keys, tableArn: 'arn:aws:dynamodb:us-east-1:0:table/users', partitions: 1 },
    [layout.account('a1', { email: 'a@x', username: 'a' })],
  );
  return { dir, written };
}

describe('localKey', () => {
  it('keeps the key from AWSDynamoDB/ on, dropping any S3 prefix', () => {
    expect(localKey('AWSDynamoDB/0123-ab/data/x.json.gz')).toBe('AWSDynamoDB/0123-ab/data/x.json.gz');
    expect(localKey('team/prod/AWSDynamoDB/0123-ab/manifest-files.json')).toBe('AWSDynamoDB/0123-ab/manifest-files.json');
  });

  it.each([
    ['outside the export root', 'team/data/x.json.gz'],
    ['a parent segment', 'AWSDynamoDB/0123-ab/../../../etc/passwd'],
    ['an empty segment', 'AWSDynamoDB//etc/passwd'],
    ['a Windows separator', 'AWSDynamoDB/0123-ab/data/..\\..\\..\\secret'],
    ['a NUL byte', 'AWSDynamoDB/0123-ab/data/x\u0000.json.gz'],
  ])('refuses %s', (_what, key) => {
    expect(localKey(key)).toBeUndefined();
  });
});

describe('openExport on a hostile manifest', () => {
  it('refuses a data file key that climbs out of the export, naming the manifest, and reads nothing of it', async () => {
    const { dir, written } = await oneAccountExport();
    const files = join(written.dir, 'manifest-files.json');
    const line = JSON.parse((await readFile(files, 'utf8')).trim()) as { dataFileS3Key: string };
    // A consistent manifest (its checksum file rewritten too), pointing outside.
    const hostile = `${JSON.stringify({ ...line, dataFileS3Key: 'AWSDynamoDB/../../../../etc/passwd' })}\n`;
    await writeFile(files, hostile);
    await writeFile(join(written.dir, 'manifest-files.md5'), md5Base64(hostile));
    const opened = openExport(dir);
    await expect(opened).rejects.toBeInstanceOf(ExportError);
    await expect(opened).rejects.toThrow(/is not below AWSDynamoDB/);
  });
});

describe('openExport checks a manifest against its checksum file under either name', () => {
  it('refuses a manifest that differs from manifest-*.checksum (AWS’s current name), and reads a checksum file of another form as no check', async () => {
    const { dir, written } = await oneAccountExport();
    const summaryPath = join(written.dir, 'manifest-summary.json');
    const text = await readFile(summaryPath, 'utf8');
    await rm(join(written.dir, 'manifest-summary.md5'));
    await writeFile(join(written.dir, 'manifest-summary.checksum'), md5Base64(text));
    await expect(openExport(dir)).resolves.toMatchObject({ type: 'FULL_EXPORT' });
    // The same manifest, altered after the checksum was written.
    await writeFile(summaryPath, text.replace('"itemCount":1', '"itemCount":1 '));
    await expect(openExport(dir)).rejects.toThrow(/manifest-summary.json does not match its checksum file manifest-summary.checksum/);
    await writeFile(
      join(written.dir, 'manifest-summary.checksum'),
      'sha256:0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
    );
    await expect(openExport(dir)).resolves.toMatchObject({ type: 'FULL_EXPORT' });
  });
});
