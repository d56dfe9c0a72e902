/**
 * A corpus of damaged DynamoDB exports: a clean export of a `uniq` table (4,500 items in two data
 * files; the larger one is damaged) with one kind of damage each. `listed`: the manifest keeps the
 * MD5 of the good file (a copy damaged on the way: verification finds it, while the detection sample
 * may read the file first); `written`: the manifest lists the damaged file's own MD5 (an export
 * written damaged: only reading it finds it).
 */
import { createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import { md5Base64 } from '../../services/export/layout';
import { openExport } from '../../services/export/read-export';
import { writeExport } from '../../services/export/write-export';

/** The layout every corpus export is written in (audit it with `--preset uniq`). */
export const CORPUS_LAYOUT = layoutFor('uniq');

/** Accounts in the corpus export: its larger data file holds more lines than the detection sample reads, so damage near its end is met after the sample stopped. */
const ACCOUNTS = 1_500;

/** What a damage does to the data file's bytes; `undefined` removes the file. */
type Damage = (bytes: Buffer) => Buffer | undefined | Promise<Buffer | undefined>;

const flip =
  (at: (n: number) => number): Damage =>
  (bytes) => {
    const out = Buffer.from(bytes);
    const i = at(out.length);
    out[i] = out[i]! ^ 0xff;
    return out;
  };
const truncate =
  (fraction: number): Damage =>
  (bytes) =>
    bytes.subarray(0, Math.floor(bytes.length * fraction));
const text = (bytes: Buffer): string => gunzipSync(bytes).toString('utf8');

/** One case: how the data file is damaged and whether the manifest's MD5 follows the damage. */
export interface CorpusCase {
  readonly name: string;
  readonly damage: Damage;
  /** `written`: the manifest lists the damaged file's MD5; `listed`: the good file's. */
  readonly md5: 'listed' | 'written';
  /** The manifest's item count of the file, off by this much. */
  readonly countOffBy?: number;
}

/** Every case of the corpus. */
export const CORPUS: readonly CorpusCase[] = [
  ...(['listed', 'written'] as const).flatMap((md5): CorpusCase[] => [
    { name: `byte flipped in the gzip header (MD5 ${md5})`, damage: flip(() => 2), md5 },
    { name: `byte flipped in the middle (MD5 ${md5})`, damage: flip((n) => Math.floor(n / 2)), md5 },
    { name: `byte flipped near the end (MD5 ${md5})`, damage: flip((n) => n - 20), md5 },
    { name: `byte flipped in the CRC trailer (MD5 ${md5})`, damage: flip((n) => n - 7), md5 },
    { name: `truncated at 10% (MD5 ${md5})`, damage: truncate(0.1), md5 },
    { name: `truncated at 50% (MD5 ${md5})`, damage: truncate(0.5), md5 },
    { name: `truncated at 90% (MD5 ${md5})`, damage: truncate(0.9), md5 },
    { name: `truncated in the trailer (MD5 ${md5})`, damage: (b) => b.subarray(0, b.length - 4), md5 },
  ]),
  { name: 'emptied', damage: () => Buffer.alloc(0), md5: 'written' },
  { name: 'removed', damage: () => undefined, md5: 'listed' },
  {
    name: 'a line that is not JSON',
    damage: (b) =>
      gzipSync(
        text(b)
          .split('\n')
          .map((l, i) => (i === 3 ? '{"Item": {"PK": {"S": "UNIQ#' : l))
          .join('\n'),
      ),
    md5: 'written',
  },
  { name: 'one item fewer than the manifest says', damage: (b) => b, md5: 'written', countOffBy: 1 },
  {
    name: 'trailing garbage after the gzip member',
    damage: (b) => Buffer.concat([b, Buffer.from('garbage after the end\n')]),
    md5: 'written',
  },
  { name: 'not gzip at all', damage: (b) => Buffer.from(text(b)), md5: 'written' },
  { name: 'a gzip bomb: one line of 700 MiB', damage: async () => bomb(), md5: 'written' },
];

/** One line of 700 MiB (`{"Item":{"PK":{"S":"aaa…`), gzipped to well under 1 MB. */
async function bomb(): Promise<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  const parts: Buffer[] = [];
  const gzip = createGzip({ level: 9 });
  gzip.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<void>((resolve, reject) => {
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  gzip.write('{"Item":{"PK":{"S":"');
  for (let i = 0; i < 700; i++) if (!gzip.write(chunk)) await new Promise((resolve) => gzip.once('drain', resolve));
  gzip.end('"}}}\n');
  await done;
  return Buffer.concat(parts);
}

/** A built case: the export folder and the name of the file at fault. */
export interface BuiltCase {
  readonly name: string;
  readonly dir: string;
  readonly file: string;
}

/** Writes the clean export under `out` and damages it as `c` says. */
export async function buildCase(c: CorpusCase, out: string): Promise<BuiltCase> {
  const items = Array.from({ length: ACCOUNTS }, (_, i) => [
    CORPUS_LAYOUT.account(`a${i}`, { email: `u${i}@example.com`, username: `user${i}` }),
    CORPUS_LAYOUT.lock('EMAIL', `u${i}@example.com`),
    CORPUS_LAYOUT.lock('HANDLE', `user${i}`),
  ]).flat();
  const { dir } = await writeExport(
    { out, keys: CORPUS_LAYOUT.convention.keys, tableArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/users', partitions: 2 },
    items,
  );
  const opened = await openExport(dir);
  const target = [...opened.files].sort((a, b) => b.itemCount - a.itemCount)[0]!;
  const damaged = await c.damage(await readFile(target.path));
  if (damaged === undefined) await rm(target.path);
  else await writeFile(target.path, damaged);
  if (c.md5 === 'written' || c.countOffBy) {
    const manifestPath = join(dir, 'manifest-files.json');
    const manifest = (await readFile(manifestPath, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { dataFileS3Key: string; md5Checksum: string; itemCount: number });
    for (const line of manifest) {
      if (basename(line.dataFileS3Key) !== basename(target.path)) continue;
      if (c.md5 === 'written' && damaged !== undefined) line.md5Checksum = md5Base64(damaged);
      if (c.countOffBy) line.itemCount += c.countOffBy;
    }
    const text = manifest.map((l) => `${JSON.stringify(l)}\n`).join('');
    await writeFile(manifestPath, text);
    await writeFile(join(dir, 'manifest-files.md5'), md5Base64(text));
    if (c.countOffBy) {
      const summaryPath = join(dir, 'manifest-summary.json');
      const summary = JSON.parse(await readFile(summaryPath, 'utf8')) as { itemCount: number };
      summary.itemCount += c.countOffBy;
      const summaryText = JSON.stringify(summary);
      await writeFile(summaryPath, summaryText);
      await writeFile(join(dir, 'manifest-summary.md5'), md5Base64(summaryText));
    }
  }
  return { name: c.name, dir, file: basename(target.path) };
}
