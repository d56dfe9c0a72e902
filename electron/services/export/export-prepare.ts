/**
 * The first half of an audit from an export, shared by `locksmith audit --export` and the app's
 * `audit.startExport`: s3:// exports come down into the cache (resumable, MD5-verified), the full
 * export's manifests are opened and checked, and a sample is read for detection and key inference.
 * The DuckDB half is run-export-audit.ts; confirming against the live table is confirm.ts.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Convention, Item } from '../../../shared/model';
import { tableFromArn } from './layout';
import { sampleExport } from './export-sample';
import { openExport, type OpenedExport } from './read-export';
import { downloadExport, type S3Progress } from './s3-download';

/** Items sampled for convention and key detection (sampleExport's default). */
export const SAMPLE_ITEMS = 2_000;

/** How s3:// exports come down. */
export interface LocalizeOptions {
  /** Made on the first s3:// path only (local folders need none); destroyed by the caller. */
  readonly s3: () => S3Client;
  /** The cache folder; an export lands under `<cache>/<bucket>/<prefix…>/AWSDynamoDB/<id>`. */
  readonly cacheDir: string;
  /** Only the manifests and the detection sample's files (Athena reads the rest on S3; the app fetches the rest in the background). */
  readonly sampleOnly?: boolean;
  readonly signal?: AbortSignal;
  readonly onProgress?: (url: string, progress: S3Progress) => void;
}

/** Downloads every s3:// export into the cache and returns local folders, in order (local folders unchanged). */
export async function localExports(paths: readonly string[], options: LocalizeOptions): Promise<string[]> {
  let client: S3Client | undefined;
  const out: string[] = [];
  for (const path of paths) {
    if (!path.startsWith('s3://')) {
      out.push(path);
      continue;
    }
    client ??= options.s3();
    const onProgress = options.onProgress;
    out.push(
      await downloadExport({
        client,
        url: path,
        cacheDir: options.cacheDir,
        ...(options.sampleOnly ? { sampleItems: SAMPLE_ITEMS } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(onProgress ? { onProgress: (p: S3Progress) => onProgress(path, p) } : {}),
      }),
    );
  }
  return out;
}

/** The full export opened (manifests checked) and a sample of its items. */
export interface PreparedExport {
  readonly full: OpenedExport;
  readonly sample: Item[];
}

/** Opens the full export (the first path) and samples it; throws an ExportError naming the file at fault. */
export async function prepareExport(localPaths: readonly string[]): Promise<PreparedExport> {
  const full = await openExport(localPaths[0]!);
  return { full, sample: await sampleExport(full, SAMPLE_ITEMS) };
}

/**
 * Why `convention` cannot be audited from an export of `table`, or undefined when it can. A
 * convention whose locks live in another table: one table's export holds none of them, so every
 * held value would read as a missing lock (and confirming would look for the locks in the wrong table).
 */
export function exportConventionRefusal(convention: Convention, table: string): string | undefined {
  if (!convention.lockTable) return undefined;
  return `the convention keeps its locks in another table (${convention.lockTable}): an export of ${table} holds none of them, so every value would read as a missing lock; audit the live tables instead`;
}

/**
 * Why an export cannot be confirmed against (or audited as) `table`, or undefined: the manifest names
 * the table it was exported from, and findings re-checked against another table would be meaningless.
 */
export function exportTableRefusal(full: OpenedExport, table: string): string | undefined {
  const exported = tableFromArn(full.summary.tableArn ?? full.summary.exportArn);
  if (exported === undefined || exported === table) return undefined;
  return `this export is of table ${exported} (${full.summary.tableArn ?? full.summary.exportArn}), not ${table}: audit it from ${exported}, or give --table ${exported}`;
}
