import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DeleteItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../shared/model';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { md5Base64 } from '../services/export/layout';
import { openExport } from '../services/export/read-export';
import { readHistory } from '../services/history/audit-history';
import { PRESET_TABLES } from './testing/preset-tables';
import { main } from './main';
import { captureIo } from './testing-io';

const endpoint = inject('dynamoEndpoint');
const tables = new Map<string, string>();
const exports = new Map<string, string>();
let admin: DynamoDBClient;
let work = '';

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ LOCKSMITH_DATA_DIR: join(work, 'data') });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(async () => {
  admin = testClient(endpoint);
  work = await mkdtemp(join(tmpdir(), 'locksmith-audit-export-'));
  await Promise.all(
    PRESET_TABLES.map(async (t) => {
      const name = await createTempTable(admin, t.keys, `ae-${t.preset}`);
      await putItems(admin, name, t.items);
      tables.set(t.preset, name);
      const out = join(work, t.preset);
      const run = await cli(['export', '--endpoint', endpoint, '--table', name, '--out', out, '--partitions', '3', '--json']);
      expect(run.code).toBe(0);
      exports.set(t.preset, (JSON.parse(run.out) as { dir: string }).dir);
    }),
  );
});

afterAll(async () => {
  await Promise.all([...tables.values()].map((t) => deleteTable(admin, t)));
  admin.destroy();
  await rm(work, { recursive: true, force: true });
});

describe('locksmith audit --export', () => {
  for (const t of PRESET_TABLES) {
    it(`prints the live audit's report, byte for byte, plus source (${t.preset})`, async () => {
      const table = tables.get(t.preset)!;
      const live = await cli(['audit', '--endpoint', endpoint, '--table', table, '--preset', t.preset, '--json']);
      const fromExport = await cli(['audit', '--export', exports.get(t.preset)!, '--table', table, '--preset', t.preset, '--json']);
      expect(fromExport.err).toBe('');
      expect(fromExport.code).toBe(live.code);
      const { source, ...rest } = JSON.parse(fromExport.out) as Record<string, unknown> & {
        source: { exportArn: string; itemsRead: number };
      };
      expect(`${JSON.stringify(rest)}\n`).toBe(live.out);
      expect(source.exportArn).toContain(`table/${table}/export/`);
      expect(source.itemsRead).toBe(t.items.length);
    });
  }

  it('records both audits in the history: the live one, and the one from the export, which says so', async () => {
    const entries = await readHistory(join(work, 'data'), { table: tables.get('uniq')! });
    expect(entries.map((e) => [e.source, e.complete])).toEqual([
      ['live', true],
      ['export', true],
    ]);
    expect(entries[1]?.summary).toEqual(entries[0]?.summary);
    expect(entries[0]?.target).toEqual({ endpoint, region: 'us-east-1' });
    expect(entries[1]?.target).toEqual({});
  });

  it('confirms findings against the live table: what was fixed since the export goes to stale', async () => {
    const t = PRESET_TABLES.find((p) => p.preset === 'uniq')!;
    const table = await createTempTable(admin, t.keys, 'ae-confirm');
    try {
      // An orphan that is still there when the findings are confirmed.
      await putItems(admin, table, [...t.items, { PK: { S: 'UNIQ#HANDLE#still-orphan' }, SK: { S: 'LOCK' } }]);
      const out = join(work, 'confirm');
      const exported = await cli(['export', '--endpoint', endpoint, '--table', table, '--out', out, '--json']);
      // After the export: the orphan lock is released and the missing lock is claimed.
      await admin.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'UNIQ#HANDLE#ghost#1' }, SK: { S: 'LOCK' } } }));
      await admin.send(new PutItemCommand({ TableName: table, Item: { PK: { S: 'UNIQ#HANDLE#lost' }, SK: { S: 'LOCK' } } }));
      const dir = (JSON.parse(exported.out) as { dir: string }).dir;
      const unconfirmed = await cli(['audit', '--export', dir, '--preset', 'uniq', '--json']);
      expect(unconfirmed.code).toBe(1);
      const confirmed = await cli(['audit', '--export', dir, '--endpoint', endpoint, '--table', table, '--preset', 'uniq', '--json']);
      const report = JSON.parse(confirmed.out) as {
        summary: Record<string, number>;
        problems: unknown[];
        stale: { kind: string; value: string }[];
      };
      expect(report.stale.map((p) => [p.kind, p.value])).toEqual([
        ['orphan-lock', 'ghost#1'],
        ['missing-lock', 'lost'],
      ]);
      expect(report.problems).toEqual([
        { kind: 'orphan-lock', rule: 'HANDLE', value: 'still-orphan', lock: { PK: 'UNIQ#HANDLE#still-orphan', SK: 'LOCK' } },
      ]);
      expect(report.summary).toEqual({
        'orphan-lock': 1,
        'missing-lock': 0,
        'duplicate-value': 0,
        'owner-mismatch': 0,
        'malformed-lock': 0,
      });
      expect(confirmed.code).toBe(1);
    } finally {
      await deleteTable(admin, table);
    }
  });

  it('refuses to confirm an export against a table it was not taken from: exit 2, both tables named', async () => {
    const [from, other] = [...tables.values()];
    const preset = [...tables.entries()].find(([, name]) => name === from)![0];
    const wrong = await cli([
      'audit',
      '--export',
      exports.get(preset)!,
      '--endpoint',
      endpoint,
      '--table',
      other!,
      '--preset',
      preset,
      '--json',
    ]);
    expect(wrong.code).toBe(2);
    expect(JSON.parse(wrong.out)).toMatchObject({ complete: false, reason: expect.stringContaining(`this export is of table ${from}`) });
    expect(JSON.parse(wrong.out).reason).toContain(`not ${other}`);
  });

  it('never reports a complete audit of a damaged export: exit 2, the file named', async () => {
    const t = PRESET_TABLES[0]!;
    const out = join(work, 'damaged');
    await cli(['export', '--endpoint', endpoint, '--table', tables.get(t.preset)!, '--out', out, '--partitions', '2']);
    const opened = await openExport(out);
    const file = opened.files.find((f) => f.itemCount > 0)!;
    const original = await readFile(file.path);
    await writeFile(file.path, original.subarray(0, original.length - 5));
    const truncated = await cli(['audit', '--export', out, '--preset', t.preset, '--json']);
    expect(truncated.code).toBe(2);
    expect(truncated.err).toContain(file.path);
    expect(JSON.parse(truncated.out)).toMatchObject({ complete: false });
    await rm(file.path);
    const missing = await cli(['audit', '--export', out, '--preset', t.preset]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(new RegExp(`missing.*${file.path}`));
    await writeFile(file.path, original);
    const summaryPath = join(opened.dir, 'manifest-summary.json');
    const summary = JSON.parse(await readFile(summaryPath, 'utf8')) as Record<string, unknown>;
    await rm(join(opened.dir, 'manifest-summary.md5'));
    await writeFile(summaryPath, JSON.stringify({ ...summary, outputFormat: 'ION' }));
    const ion = await cli(['audit', '--export', out, '--preset', t.preset]);
    expect(ion.code).toBe(2);
    expect(ion.err).toMatch(/outputFormat is ION/);
  });

  it('applies incrementals by key, in order: a NewImage replaces, no NewImage deletes', async () => {
    const t = PRESET_TABLES.find((p) => p.preset === 'uniq')!;
    const full = exports.get('uniq')!;
    const lock = (v: string): Item => ({ PK: { S: `UNIQ#HANDLE#${v}` }, SK: { S: 'LOCK' } });
    const first = await writeIncremental(
      join(work, 'inc'),
      'a',
      [
        // Claims the missing lock, deletes the orphan, then a stray lock that the second incremental deletes again.
        { keys: lock('lost'), image: lock('lost'), micros: 1 },
        { keys: lock('ghost#1'), micros: 2 },
        { keys: lock('later'), image: lock('later'), micros: 3 },
      ],
      full,
    );
    const second = await writeIncremental(
      join(work, 'inc'),
      'b',
      [
        { keys: lock('later'), micros: 4 },
        {
          keys: { PK: { S: 'ACCT#u2' }, SK: { S: 'PROFILE' } },
          image: { PK: { S: 'ACCT#u2' }, SK: { S: 'PROFILE' }, email: { S: 'c#dev@example.com' }, username: { S: 'renamed' } },
          micros: 5,
        },
      ],
      full,
    );
    const run = await cli(['audit', '--export', full, '--export', first, '--export', second, '--preset', 'uniq', '--json']);
    const report = JSON.parse(run.out) as {
      scanned: number;
      problems: { kind: string; value: string }[];
      source: { itemsRead: number; incrementals: unknown[] };
    };
    expect(report.problems.map((p) => [p.kind, p.value])).toEqual([
      ['orphan-lock', '백과'],
      ['missing-lock', 'renamed'],
    ]);
    expect(report.scanned).toBe(t.items.length - 1 + 1);
    expect(report.source.itemsRead).toBe(t.items.length + 5);
    expect(report.source.incrementals).toHaveLength(2);
    // Swapped, or with the first missing: the later state would be rolled back or a window's changes left out — refused, nothing audited.
    const swapped = await cli(['audit', '--export', full, '--export', second, '--export', first, '--preset', 'uniq', '--json']);
    expect(swapped.code).toBe(2);
    expect(swapped.err).toMatch(/before .* does: give the incrementals in time order/);
    const gap = await cli(['audit', '--export', full, '--export', second, '--preset', 'uniq', '--json']);
    expect(gap.code).toBe(2);
    expect(gap.err).toMatch(/the changes in between are in no export given/);
  });
});

/** Writes an incremental export as AWS lays it out: data in the shared AWSDynamoDB/data/ folder, selected by the manifest. */
async function writeIncremental(
  out: string,
  id: string,
  records: { keys: Item; image?: Item; micros: number }[],
  after: string,
): Promise<string> {
  // The window follows the full export (a) or the first incremental (b), of the full export's table, as AWS states them.
  const base = (await openExport(after)).summary;
  const hour = 3_600_000;
  const from = new Date(Date.parse(base.exportTime) + (id === 'a' ? 0 : hour)).toISOString();
  const to = new Date(Date.parse(base.exportTime) + (id === 'a' ? hour : 2 * hour)).toISOString();
  const exportId = `0170000000000${id === 'a' ? 1 : 2}-0000000${id === 'a' ? 1 : 2}`;
  const dir = join(out, 'AWSDynamoDB', exportId);
  await mkdir(join(out, 'AWSDynamoDB', 'data'), { recursive: true });
  await mkdir(dir, { recursive: true });
  const lines = records
    .map((r) =>
      JSON.stringify({
        Metadata: { WriteTimestampMicros: { N: String(r.micros) } },
        Keys: r.keys,
        ...(r.image ? { NewImage: r.image } : {}),
      }),
    )
    .join('\n');
  const gz = gzipSync(`${lines}\n`);
  const key = `AWSDynamoDB/data/${id}.json.gz`;
  await writeFile(join(out, key), gz);
  const files = `${JSON.stringify({ itemCount: records.length, md5Checksum: md5Base64(gz), etag: 'x', dataFileS3Key: key })}\n`;
  await writeFile(join(dir, 'manifest-files.json'), files);
  const summary = {
    version: '2023-08-01',
    exportArn: `${base.tableArn}/export/${exportId}`,
    tableArn: base.tableArn,
    exportFromTime: from,
    exportToTime: to,
    manifestFilesS3Key: `AWSDynamoDB/${exportId}/manifest-files.json`,
    itemCount: records.length,
    outputFormat: 'DYNAMODB_JSON',
    exportType: 'INCREMENTAL_EXPORT',
  };
  await writeFile(join(dir, 'manifest-summary.json'), JSON.stringify(summary));
  return dir;
}
