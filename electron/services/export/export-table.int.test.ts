import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/model';
import { main } from '../../cli/main';
import { captureIo } from '../../cli/testing-io';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { HOSTILE_VALUES } from '../../testing/reliability/hostile-corpus';
import { openExport, readDataFile, verifyExport } from './read-export';
import { partitionOf } from './write-export';

const endpoint = inject('dynamoEndpoint');
const keys = { hash: { name: 'PK', type: 'S' as const }, range: { name: 'SK', type: 'S' as const } };
let admin: DynamoDBClient;
let table = '';
let work = '';
const items: Item[] = [
  ...HOSTILE_VALUES.map((v, i) => ({
    PK: { S: `ACCT#${i}` },
    SK: { S: 'PROFILE' },
    username: { S: v },
    n: { N: String(i) },
    tags: { SS: ['a', v] },
    nested: { M: { l: { L: [{ BOOL: true }, { NULL: true }] } } },
  })),
  ...HOSTILE_VALUES.map((v) => ({ PK: { S: `UNIQ#HANDLE#${v}` }, SK: { S: 'LOCK' } })),
  { PK: { S: 'bin' }, SK: { S: 'x' }, blob: { B: new Uint8Array([0, 255, 1]) } },
];

beforeAll(async () => {
  admin = testClient(endpoint);
  table = await createTempTable(admin, keys, 'export-rt');
  await putItems(admin, table, items);
  work = await mkdtemp(join(tmpdir(), 'locksmith-export-'));
});

afterAll(async () => {
  await deleteTable(admin, table);
  admin.destroy();
  await rm(work, { recursive: true, force: true });
});

async function exportTo(out: string, partitions: number): Promise<{ code: number; dir: string }> {
  const io = captureIo();
  const code = await main(
    ['export', '--endpoint', endpoint, '--table', table, '--out', out, '--partitions', String(partitions), '--json'],
    io,
  );
  const printed = code === 0 ? (JSON.parse(io.out()) as { dir: string }) : { dir: '' };
  return { code, dir: printed.dir };
}

describe('locksmith export', () => {
  it('round-trips every item, in the export layout, one file per partition with empty partitions as empty files', async () => {
    const out = join(work, 'rt');
    const { code, dir } = await exportTo(out, 64);
    expect(code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual([
      '_started',
      'data',
      'manifest-files.json',
      'manifest-files.md5',
      'manifest-summary.json',
      'manifest-summary.md5',
    ]);
    const opened = await openExport(out);
    expect(opened.summary.outputFormat).toBe('DYNAMODB_JSON');
    expect(opened.summary.exportArn).toContain(`:table/${table}/export/`);
    expect(opened.summary.itemCount).toBe(items.length);
    expect(opened.files).toHaveLength(64);
    await verifyExport(opened);
    const read: unknown[] = [];
    let empty = 0;
    for (const file of opened.files) {
      let n = 0;
      for await (const line of readDataFile(file.path)) {
        read.push(line);
        n++;
        // Routed by the partition key's hash: the file is the one its key maps to.
        expect(opened.files.indexOf(file)).toBe(partitionOf((line as { Item: Item }).Item, keys, 64));
      }
      expect(n).toBe(file.itemCount);
      if (n === 0) empty++;
    }
    expect(empty).toBeGreaterThan(0);
    const expected = items.map((item) =>
      JSON.stringify({
        Item: JSON.parse(
          JSON.stringify(item, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v)),
        ) as unknown,
      }),
    );
    // Sets come back in any order; maps in any key order.
    const sortKeys = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.every((x) => typeof x === 'string')
          ? [...(v as string[])].sort()
          : v.map(sortKeys)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([k, x]) => [k, sortKeys(x)]),
            )
          : v;
    expect(read.map((r) => JSON.stringify(sortKeys(r))).sort()).toEqual(
      expected.map((e) => JSON.stringify(sortKeys(JSON.parse(e)))).sort(),
    );
  });

  it('names the file when a data file is truncated, corrupted or missing, and refuses a wrong manifest', async () => {
    const out = join(work, 'bad');
    await exportTo(out, 2);
    const opened = await openExport(out);
    const [first] = opened.files.filter((f) => f.itemCount > 0);
    const original = await readFile(first!.path);
    await truncate(first!.path, original.length - 3);
    await expect(verifyExport(opened)).rejects.toMatchObject({ file: first!.path });
    await writeFile(first!.path, Buffer.from(original).fill(1, 20, 21));
    await expect(verifyExport(opened)).rejects.toThrow(/corrupted or truncated/);
    await rm(first!.path);
    await expect(verifyExport(opened)).rejects.toThrow(new RegExp(`missing.*${first!.path}`));
    const summaryPath = join(opened.dir, 'manifest-summary.json');
    const summary = JSON.parse(await readFile(summaryPath, 'utf8')) as Record<string, unknown>;
    await rm(join(opened.dir, 'manifest-summary.md5'));
    await writeFile(summaryPath, JSON.stringify({ ...summary, outputFormat: 'ION' }));
    await expect(openExport(out)).rejects.toThrow(/outputFormat is ION.*DYNAMODB_JSON exports only/);
    await writeFile(summaryPath, JSON.stringify({ ...summary, itemCount: 5 }));
    await expect(openExport(out)).rejects.toThrow(/lists \d+ items but manifest-summary.json says 5/);
  });

  it('leaves nothing behind when the table does not exist', async () => {
    const out = join(work, 'none');
    const io = captureIo();
    const code = await main(['export', '--endpoint', endpoint, '--table', 'no-such-table-xyz', '--out', out], io);
    expect(code).toBe(2);
    await expect(stat(out)).rejects.toThrow();
  });
});
