/**
 * Writing items in exactly the layout of a DynamoDB full export: one gzipped DynamoDB-JSON file
 * per partition (items routed by a hash of the partition key, empty partitions as empty files),
 * manifests with each file's item count and base64 MD5. Written under a `.partial` folder and
 * renamed at the end, so a failed or cancelled export leaves nothing that looks complete.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createGzip, type Gzip } from 'node:zlib';
import type { Item, KeySchema } from '../../../shared/model';
import {
  DYNAMODB_JSON,
  EXPORT_ROOT,
  MANIFEST_VERSION,
  md5Base64,
  newDataFileName,
  newExportId,
  type ManifestFileLine,
  type ManifestSummary,
} from './layout';

/** What the writer needs to know about the export it writes. */
export interface ExportWriterOptions {
  /** The folder that will hold `AWSDynamoDB/<ExportId>/` (the S3 prefix's local twin). */
  readonly out: string;
  readonly keys: KeySchema;
  readonly tableArn: string;
  /** Number of data files (partitions); each gets a file, empty or not. */
  readonly partitions: number;
  readonly exportTime?: Date;
  /** Recorded as `s3Bucket` in the summary (no bucket is involved locally). */
  readonly bucket?: string;
}

/** The finished export: where it is and what it holds. */
export interface WrittenExport {
  readonly exportId: string;
  readonly exportArn: string;
  /** The export's own folder, `<out>/AWSDynamoDB/<ExportId>`. */
  readonly dir: string;
  readonly itemCount: number;
  readonly files: readonly ManifestFileLine[];
}

interface Partition {
  readonly name: string;
  gzip: Gzip | undefined;
  file: WriteStream | undefined;
  done: Promise<void> | undefined;
  readonly md5: ReturnType<typeof createHash>;
  items: number;
}

/** The partition an item's partition key goes to: MD5 of its typed value, modulo the partition count. */
export function partitionOf(item: Item, keys: KeySchema, partitions: number): number {
  const attr = item[keys.hash.name];
  const text = attr === undefined ? '' : JSON.stringify(attr);
  return createHash('md5').update(text).digest().readUInt32BE(0) % partitions;
}

/** One line of a data file: `{"Item":{…}}` in DynamoDB JSON, binary values (B, BS) as base64 as AWS writes them. */
export function exportLine(item: Item): string {
  return JSON.stringify({ Item: item }, function (this: Record<string, unknown>, key: string, value: unknown) {
    // `this[key]` is the value before toJSON: a Buffer would otherwise arrive as {type, data}.
    const raw = this[key];
    return raw instanceof Uint8Array ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64') : value;
  });
}

/** Streams items into an export folder; call finish() once, or abort() on failure. */
export class ExportWriter {
  readonly exportId: string;
  private readonly exportTime: Date;
  private readonly startTime = new Date();
  private readonly partial: string;
  private readonly partitions: Partition[];
  private total = 0;

  constructor(private readonly options: ExportWriterOptions) {
    if (!Number.isInteger(options.partitions) || options.partitions < 1)
      throw new Error(`partitions must be a positive integer (got ${options.partitions})`);
    this.exportTime = options.exportTime ?? new Date();
    this.exportId = newExportId(this.exportTime);
    this.partial = join(options.out, EXPORT_ROOT, `${this.exportId}.partial`);
    this.partitions = Array.from({ length: options.partitions }, () => ({
      name: newDataFileName(),
      gzip: undefined,
      file: undefined,
      done: undefined,
      md5: createHash('md5'),
      items: 0,
    }));
  }

  /** Creates the folders and the empty `_started` marker. */
  async start(): Promise<void> {
    await mkdir(join(this.partial, 'data'), { recursive: true });
    await writeFile(join(this.partial, '_started'), '');
  }

  /** Appends items; resolves when every written-to file can take more (backpressure). */
  async add(items: readonly Item[]): Promise<void> {
    // One drain wait per full stream, not one per item written after it filled.
    const waits = new Map<Gzip, Promise<void>>();
    for (const item of items) {
      const p = this.partitions[partitionOf(item, this.options.keys, this.partitions.length)]!;
      const gzip = p.gzip ?? this.open(p);
      p.items++;
      this.total++;
      if (!gzip.write(`${exportLine(item)}\n`) && !waits.has(gzip))
        waits.set(gzip, new Promise((resolve) => gzip.once('drain', () => resolve())));
    }
    await Promise.all(waits.values());
  }

  private open(p: Partition): Gzip {
    const gzip = createGzip();
    const file = createWriteStream(join(this.partial, 'data', p.name));
    gzip.on('data', (chunk: Buffer) => p.md5.update(chunk));
    gzip.pipe(file);
    p.gzip = gzip;
    p.file = file;
    p.done = new Promise((resolve, reject) => {
      file.on('finish', resolve);
      file.on('error', reject);
      gzip.on('error', reject);
    });
    return gzip;
  }

  /** Closes every file, writes the manifests and moves the export to its final folder. */
  async finish(): Promise<WrittenExport> {
    const { out, tableArn } = this.options;
    const base = `${EXPORT_ROOT}/${this.exportId}`;
    const files: ManifestFileLine[] = [];
    for (const p of this.partitions) {
      // An empty partition is a file with no items: a gzip of nothing, which every gzip reader (DuckDB's too) accepts.
      const gzip = p.gzip ?? this.open(p);
      gzip.end();
      await p.done;
      const md5 = p.md5.digest();
      files.push({
        itemCount: p.items,
        md5Checksum: md5.toString('base64'),
        etag: md5.toString('hex'),
        dataFileS3Key: `${base}/data/${p.name}`,
      });
    }
    const manifestFiles = files.map((f) => `${JSON.stringify(f)}\n`).join('');
    const exportArn = `${tableArn}/export/${this.exportId}`;
    const summary: ManifestSummary = {
      version: MANIFEST_VERSION,
      exportArn,
      startTime: this.startTime.toISOString(),
      endTime: new Date().toISOString(),
      tableArn,
      tableId: createHash('md5').update(tableArn).digest('hex').slice(0, 32),
      exportTime: this.exportTime.toISOString(),
      s3Bucket: this.options.bucket ?? 'local',
      s3Prefix: null,
      s3SseAlgorithm: 'AES256',
      s3SseKmsKeyId: null,
      manifestFilesS3Key: `${base}/manifest-files.json`,
      billedSizeBytes: 0,
      itemCount: this.total,
      outputFormat: DYNAMODB_JSON,
      exportType: 'FULL_EXPORT',
    };
    const summaryText = JSON.stringify(summary);
    await writeFile(join(this.partial, 'manifest-files.json'), manifestFiles);
    await writeFile(join(this.partial, 'manifest-files.md5'), md5Base64(manifestFiles));
    await writeFile(join(this.partial, 'manifest-summary.json'), summaryText);
    await writeFile(join(this.partial, 'manifest-summary.md5'), md5Base64(summaryText));
    const dir = join(out, base);
    await rename(this.partial, dir);
    return { exportId: this.exportId, exportArn, dir, itemCount: this.total, files };
  }

  /** Stops writing and removes the partial folder. */
  async abort(): Promise<void> {
    for (const p of this.partitions) p.gzip?.destroy();
    await rm(this.partial, { recursive: true, force: true });
  }
}

/** Writes `items` as one finished export (start, add, finish); a failure leaves no half-written export behind. */
export async function writeExport(options: ExportWriterOptions, items: readonly Item[]): Promise<WrittenExport> {
  const writer = new ExportWriter(options);
  try {
    await writer.start();
    await writer.add(items);
    return await writer.finish();
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
