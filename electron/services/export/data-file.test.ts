import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDataFile, readDataFile } from './data-file';
import { ExportError } from './export-error';
import { md5Base64 } from './layout';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-data-file-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const lines = (n: number): string =>
  Array.from({ length: n }, (_, i) => `{"Item":{"PK":{"S":"ACCT#${i}"},"SK":{"S":"PROFILE"}}}\n`).join('');
async function file(name: string, bytes: Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}
async function readAll(path: string, limits = {}): Promise<number> {
  let n = 0;
  for await (const _ of readDataFile(path, limits)) n += 1;
  return n;
}

describe('readDataFile', () => {
  it('reads every line, across chunks, of a good file', async () => {
    expect(await readAll(await file('good.json.gz', gzipSync(lines(5_000))))).toBe(5_000);
  });

  it('refuses a line longer than the limit without holding it, naming the file', async () => {
    const path = await file('long.json.gz', gzipSync(`{"Item":{"PK":{"S":"${'a'.repeat(300_000)}"}}}\n`));
    await expect(readAll(path, { maxLineBytes: 100_000 })).rejects.toThrow(/^long\.json\.gz: line 1 is longer than 100000 bytes/);
  });

  it('stops quietly when the shared byte budget runs out', async () => {
    const path = await file('budget.json.gz', gzipSync(lines(50_000)));
    const budget = { remaining: 100_000 };
    const n = await readAll(path, { budget });
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(50_000);
    expect(budget.remaining).toBeLessThanOrEqual(0);
  });

  it('a caller that stops early on a file damaged near its end sees no late error, ever', async () => {
    const good = gzipSync(lines(50_000));
    const path = await file('late.json.gz', good.subarray(0, good.length - 100));
    const late: unknown[] = [];
    const onError = (error: unknown): void => void late.push(error);
    process.on('uncaughtException', onError);
    try {
      for (let run = 0; run < 5; run++) {
        for await (const _ of readDataFile(path)) break;
      }
      // The abandoned streams end on their own; an unhandled 'error' would land here.
      await new Promise((resolve) => setImmediate(resolve));
      await readAll(path).catch(() => undefined);
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(late).toEqual([]);
  });

  it.each([
    ['not gzip', Buffer.from(lines(3)), /not a readable gzip file \(incorrect header check\)/],
    ['truncated', gzipSync(lines(3)).subarray(0, 30), /not a readable gzip file \(unexpected end of file\)/],
    ['not JSON', gzipSync('{"Item":\n'), /line 1 is not a JSON object/],
  ])('%s: one ExportError naming the file', async (name, bytes, message) => {
    const path = await file(`${name}.json.gz`, bytes);
    const error = await readAll(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportError);
    expect((error as ExportError).message).toMatch(message);
    expect((error as ExportError).message).not.toContain('\n');
    expect((error as ExportError).file).toBe(path);
  });
});

describe('checkDataFile', () => {
  const listed = async (name: string, bytes: Buffer, itemCount: number) => ({
    path: await file(name, bytes),
    itemCount,
    md5Checksum: md5Base64(bytes),
  });

  it('passes a whole file with the listed MD5 and count', async () => {
    await expect(checkDataFile(await listed('ok.json.gz', gzipSync(lines(10)), 10))).resolves.toBeUndefined();
  });

  it.each([
    [
      'a damaged CRC (DuckDB reads past it)',
      (b: Buffer) => Buffer.concat([b.subarray(0, b.length - 8), Buffer.from([b[b.length - 8]! ^ 0xff]), b.subarray(b.length - 7)]),
      10,
      /incorrect data check/,
    ],
    ['trailing garbage', (b: Buffer) => Buffer.concat([b, Buffer.from('garbage')]), 10, /not a readable gzip file/],
    ['one item fewer than listed', (b: Buffer) => b, 11, /holds 10 items, manifest-files.json says 11/],
  ])('%s, with the MD5 the manifest lists: refused, naming the file', async (_name, damage, count, message) => {
    const entry = await listed(`${_name}.json.gz`, damage(gzipSync(lines(10))), count);
    await expect(checkDataFile(entry)).rejects.toThrow(message);
  });

  it('a gzip bomb is refused at the line limit, not inflated to its end', async () => {
    const entry = await listed('bomb.json.gz', gzipSync(Buffer.alloc(64 * 1024 * 1024, 'a')), 1);
    await expect(checkDataFile(entry, 1024 * 1024)).rejects.toThrow(/line 1 is longer than 1048576 bytes/);
  });
});
