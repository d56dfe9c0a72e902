/**
 * Fetching an export from S3 into a local cache: the manifests first, then every data file the
 * manifest lists (never a glob: incrementals share a data folder), in parallel, resumable (a file
 * already complete is kept, a `.part` continues with a ranged GET), each verified by the manifest's
 * MD5 before it counts. An object that cannot be read is an ExportError naming its S3 URL.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { EXPORT_ROOT, localKey } from './layout';
import { ExportError, openExport } from './read-export';

/** An `s3://bucket/prefix` URL, split. */
export interface S3Location {
  readonly bucket: string;
  /** Without a leading slash; may be empty; no trailing slash. */
  readonly prefix: string;
}

/** Parses `s3://bucket[/prefix]`; undefined when `url` is not one. */
export function parseS3Url(url: string): S3Location | undefined {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) return undefined;
  return { bucket: m[1]!, prefix: (m[2] ?? '').replace(/\/+$/, '') };
}

/** Download progress. */
export interface S3Progress {
  readonly files: number;
  readonly filesDone: number;
  /** Files found complete in the cache and not fetched again. */
  readonly filesKept: number;
  readonly bytes: number;
}

/** Options of one download. */
export interface DownloadOptions {
  readonly client: S3Client;
  readonly url: string;
  /** The cache folder; the export lands under `<cache>/<bucket>/<prefix…>/AWSDynamoDB/<id>`. */
  readonly cacheDir: string;
  readonly parallel?: number;
  /**
   * Only the first data files holding this many items (what sampleExport reads), not the whole
   * export: for the Athena engine, which reads the data on S3 itself and needs a sample only for detection.
   */
  readonly sampleItems?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: S3Progress) => void;
}

const s3url = (bucket: string, key: string): string => `s3://${bucket}/${key}`;

/**
 * True for a key whose every `/`-segment is a plain name: no empty, `.` or `..` segment (they would
 * climb out of the cache once mirrored to a path), no backslash (a separator on Windows), no NUL.
 */
export function isPlainKey(key: string): boolean {
  return key.split('/').every((part) => part !== '' && part !== '.' && part !== '..') && !/[\\\0]/.test(key);
}

/** Throws unless `path` resolves inside `dir`: the last check before anything is written or removed. */
function insideCache(dir: string, path: string, key: string): string {
  const rel = relative(resolve(dir), resolve(path));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    throw new ExportError(`${key} would be written outside the export cache (${dir}): refused`, key);
  return path;
}

async function getObject(options: DownloadOptions, bucket: string, key: string, range?: string): Promise<Readable> {
  try {
    const out = await options.client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: range } : {}) }), {
      abortSignal: options.signal,
    });
    if (!out.Body) throw new Error('empty response');
    return out.Body as Readable;
  } catch (error) {
    const name = (error as { name?: string }).name ?? 'Error';
    throw new ExportError(
      `cannot read ${s3url(bucket, key)}: ${name}${(error as Error).message && (error as Error).message !== name ? ` (${(error as Error).message})` : ''}`,
      s3url(bucket, key),
    );
  }
}

/** The export folder's key (`…/AWSDynamoDB/<id>`): the URL itself, or the one export below it. */
async function findExportKey(options: DownloadOptions, loc: S3Location): Promise<string> {
  if (/(^|\/)AWSDynamoDB\/[^/]+$/.test(loc.prefix)) return loc.prefix;
  const root = `${loc.prefix ? `${loc.prefix}/` : ''}${EXPORT_ROOT}/`;
  const ids: string[] = [];
  let token: string | undefined;
  do {
    let page;
    try {
      page = await options.client.send(
        new ListObjectsV2Command({ Bucket: loc.bucket, Prefix: root, Delimiter: '/', ContinuationToken: token }),
        { abortSignal: options.signal },
      );
    } catch (error) {
      throw new ExportError(`cannot list ${s3url(loc.bucket, root)}: ${(error as Error).name}`, s3url(loc.bucket, root));
    }
    for (const p of page.CommonPrefixes ?? []) {
      if (!p.Prefix || p.Prefix.endsWith('/data/')) continue;
      // A listing is input: only one plain folder right below what was asked for is an export.
      const id = p.Prefix.startsWith(root) && p.Prefix.endsWith('/') ? p.Prefix.slice(root.length, -1) : '';
      if (id === '' || id.includes('/') || !isPlainKey(id))
        throw new ExportError(
          `the listing of ${s3url(loc.bucket, root)} names ${JSON.stringify(p.Prefix)}, which is not a folder below it: refused`,
          s3url(loc.bucket, root),
        );
      ids.push(p.Prefix.slice(0, -1));
    }
    token = page.NextContinuationToken;
  } while (token);
  if (ids.length === 0) throw new ExportError(`no export under ${s3url(loc.bucket, root)}`, s3url(loc.bucket, root));
  if (ids.length > 1)
    throw new ExportError(
      `several exports under ${s3url(loc.bucket, root)} (${ids.map((i) => i.split('/').pop()).join(', ')}): give one of them`,
      s3url(loc.bucket, root),
    );
  return ids[0]!;
}

async function fileMd5(path: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}

/** Downloads the export at `options.url` (manifests, checksums, listed data files) and returns its local folder. */
export async function downloadExport(options: DownloadOptions): Promise<string> {
  const loc = parseS3Url(options.url);
  if (!loc) throw new ExportError(`not an s3:// URL: ${options.url}`);
  if (loc.prefix !== '' && !isPlainKey(loc.prefix))
    throw new ExportError(`${options.url}: an empty, \`.\` or \`..\` folder, a backslash or NUL in the key: refused`);
  const exportKey = await findExportKey(options, loc);
  const bucketDir = join(options.cacheDir, loc.bucket);
  // Keys are mirrored below the bucket's folder, so the export's own relative keys resolve as on S3.
  const base = exportKey.slice(0, exportKey.lastIndexOf(`${EXPORT_ROOT}/`));
  const root = join(bucketDir, base);
  const exportLocal = localKey(`${exportKey}/x`);
  // A listing can name any key (`AWSDynamoDB/../`): only one that stays below AWSDynamoDB/ is an export.
  if (exportLocal === undefined) throw new ExportError(`s3://${loc.bucket}/${exportKey} is not an export folder below ${EXPORT_ROOT}/`);
  const dir = insideCache(options.cacheDir, join(root, exportLocal.slice(0, -2)), s3url(loc.bucket, exportKey));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const name of [
    'manifest-summary.json',
    'manifest-summary.md5',
    'manifest-summary.checksum',
    'manifest-files.json',
    'manifest-files.md5',
    'manifest-files.checksum',
    '_started',
  ]) {
    const key = `${exportKey}/${name}`;
    let body: Readable;
    try {
      body = await getObject(options, loc.bucket, key);
    } catch (error) {
      // Checksum files and _started are optional; the manifests are not.
      if (name.endsWith('.json')) throw error;
      continue;
    }
    await pipeline(body, createWriteStream(join(dir, name), { mode: 0o600 }));
  }
  const summary = JSON.parse(await readFile(join(dir, 'manifest-summary.json'), 'utf8')) as { manifestFilesS3Key?: string };
  // manifest-files.json may live elsewhere (manifestFilesS3Key): fetch it from there, relative to where the export was found.
  const filesLocal = summary.manifestFilesS3Key === undefined ? undefined : localKey(summary.manifestFilesS3Key);
  if (filesLocal && `${base}${filesLocal}` !== `${exportKey}/manifest-files.json`) {
    const target = insideCache(options.cacheDir, join(root, filesLocal), s3url(loc.bucket, `${base}${filesLocal}`));
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await pipeline(await getObject(options, loc.bucket, `${base}${filesLocal}`), createWriteStream(target, { mode: 0o600 }));
  }
  const opened = await openExport(dir);
  let listed = opened.files;
  if (options.sampleItems !== undefined) {
    let items = 0;
    // The files sampleExport reads, in manifest order: empty ones skipped, until the sample is full.
    listed = opened.files.filter((f) => {
      if (f.itemCount === 0 || items >= options.sampleItems!) return false;
      items += f.itemCount;
      return true;
    });
  }
  const queue = listed.map((f) => ({
    ...f,
    path: insideCache(options.cacheDir, f.path, f.path),
    key: `${base}${relative(root, f.path).split(sep).join('/')}`,
  }));
  const progress = { files: queue.length, filesDone: 0, filesKept: 0, bytes: 0 };
  const worker = async (): Promise<void> => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      if (options.signal?.aborted) throw new Error('cancelled');
      if ((await sizeOf(file.path)) !== undefined && (await fileMd5(file.path)) === file.md5Checksum) {
        progress.filesKept++;
      } else {
        await rm(file.path, { force: true });
        await mkdir(dirname(file.path), { recursive: true, mode: 0o700 });
        const part = `${file.path}.part`;
        const have = (await sizeOf(part)) ?? 0;
        const body = await getObject(options, loc.bucket, file.key, have > 0 ? `bytes=${have}-` : undefined);
        await pipeline(body, createWriteStream(part, { flags: have > 0 ? 'a' : 'w', mode: 0o600 }));
        progress.bytes += ((await sizeOf(part)) ?? 0) - have;
        const md5 = await fileMd5(part);
        if (md5 !== file.md5Checksum) {
          await rm(part, { force: true });
          throw new ExportError(
            `downloaded ${s3url(loc.bucket, file.key)} does not match its MD5 in the manifest (${md5} ≠ ${file.md5Checksum})`,
            s3url(loc.bucket, file.key),
          );
        }
        await rename(part, file.path);
      }
      progress.filesDone++;
      options.onProgress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.parallel ?? 8) }, worker));
  return dir;
}
