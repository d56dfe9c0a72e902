/**
 * Opening a local export: find `AWSDynamoDB/<ExportId>/` below the path given, read and check
 * the manifests, and verify every listed data file (present, base64 MD5 as listed). Data files
 * are selected by the manifest, never by glob (incremental exports share a data folder).
 * Any problem is an ExportError naming the file: an export that does not check out is never read.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checkDataFile } from './data-file';
import { ExportError } from './export-error';
import { DYNAMODB_JSON, EXPORT_ROOT, localKey, md5Base64, type ManifestFileLine, type ManifestSummary } from './layout';

export { ExportError } from './export-error';
export { MAX_LINE_BYTES, oneLine, readDataFile, type ReadLimits } from './data-file';

/** One data file of an export, as the manifest lists it. */
export interface ExportDataFile {
  /** Local path. */
  readonly path: string;
  readonly itemCount: number;
  readonly md5Checksum: string;
}

/** An opened (not yet verified) export. */
export interface OpenedExport {
  /** The export's folder, `…/AWSDynamoDB/<ExportId>`. */
  readonly dir: string;
  readonly summary: ManifestSummary;
  readonly type: 'FULL_EXPORT' | 'INCREMENTAL_EXPORT';
  readonly files: readonly ExportDataFile[];
}

/** Finds the export folder: PATH itself when it holds manifest-summary.json, else the one export under PATH/AWSDynamoDB. */
export async function findExportDir(path: string): Promise<string> {
  if (await exists(join(path, 'manifest-summary.json'))) return path;
  const root = join(path, EXPORT_ROOT);
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    throw new ExportError(`no export at ${path}: neither ${join(path, 'manifest-summary.json')} nor ${root}/ exists`, path);
  }
  const found: string[] = [];
  for (const name of names) if (await exists(join(root, name, 'manifest-summary.json'))) found.push(name);
  if (found.length === 0) throw new ExportError(`no export under ${root}: no folder holds a manifest-summary.json`, root);
  if (found.length > 1)
    throw new ExportError(`several exports under ${root} (${found.sort().join(', ')}): give one of their folders`, root);
  return join(root, found[0]!);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new ExportError(`cannot read the ${what} ${path}: ${(error as Error).message}`, path);
  }
}

/**
 * Checks the manifest against its checksum file when the export has one: `<name>.checksum` (AWS's
 * current name) or `<name>.md5`, holding the manifest's MD5 in base64 or hex. A checksum file in
 * another form is not read (the data files' MD5s and item counts still guard the export).
 */
async function checkManifestMd5(path: string, text: string): Promise<void> {
  for (const md5Path of [path.replace(/\.json$/, '.checksum'), path.replace(/\.json$/, '.md5')]) {
    if (!(await exists(md5Path))) continue;
    const expected = (await readText(md5Path, 'checksum file')).trim();
    if (!/^(?:[A-Za-z0-9+/]{22}==|[0-9a-fA-F]{32})$/.test(expected)) continue;
    const actual = md5Base64(text);
    if (expected !== actual && expected.toLowerCase() !== createHash('md5').update(text).digest('hex'))
      throw new ExportError(`${basename(path)} does not match its checksum file ${basename(md5Path)}: the manifest is corrupted`, path);
  }
}

function parseSummary(text: string, path: string): ManifestSummary {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ExportError(`manifest-summary.json is not JSON: ${path}`, path);
  }
  const s = parsed as Partial<ManifestSummary> | null;
  if (
    s === null ||
    typeof s !== 'object' ||
    typeof s.exportArn !== 'string' ||
    typeof s.manifestFilesS3Key !== 'string' ||
    typeof s.itemCount !== 'number'
  ) {
    throw new ExportError(`manifest-summary.json lacks exportArn, manifestFilesS3Key or itemCount: ${path}`, path);
  }
  if (s.outputFormat !== DYNAMODB_JSON) {
    throw new ExportError(
      `the export's outputFormat is ${String(s.outputFormat)}; Locksmith reads ${DYNAMODB_JSON} exports only (export again with --export-format DYNAMODB_JSON)`,
      path,
    );
  }
  return s as ManifestSummary;
}

function parseFileLines(text: string, path: string): ManifestFileLine[] {
  const out: ManifestFileLine[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new ExportError(`manifest-files.json line ${i + 1} is not JSON: ${path}`, path);
    }
    const f = parsed as Partial<ManifestFileLine> | null;
    if (
      f === null ||
      typeof f !== 'object' ||
      typeof f.dataFileS3Key !== 'string' ||
      typeof f.md5Checksum !== 'string' ||
      typeof f.itemCount !== 'number' ||
      !Number.isInteger(f.itemCount) ||
      f.itemCount < 0
    ) {
      throw new ExportError(`manifest-files.json line ${i + 1} lacks dataFileS3Key, md5Checksum or itemCount: ${path}`, path);
    }
    out.push(f as ManifestFileLine);
  });
  return out;
}

/** Reads and checks both manifests of the export at (or under) `path`. */
export async function openExport(path: string): Promise<OpenedExport> {
  const dir = await findExportDir(path);
  // The folder holding AWSDynamoDB/: manifest keys are resolved against it, whatever the S3 prefix was.
  const root = dirname(dirname(dir));
  const summaryPath = join(dir, 'manifest-summary.json');
  const summaryText = await readText(summaryPath, 'manifest');
  await checkManifestMd5(summaryPath, summaryText);
  const summary = parseSummary(summaryText, summaryPath);
  const filesKey = localKey(summary.manifestFilesS3Key);
  if (filesKey === undefined)
    throw new ExportError(`manifestFilesS3Key ${summary.manifestFilesS3Key} is not below ${EXPORT_ROOT}/`, summaryPath);
  const filesPath = join(root, filesKey);
  const filesText = await readText(filesPath, 'manifest');
  await checkManifestMd5(filesPath, filesText);
  const lines = parseFileLines(filesText, filesPath);
  const files = lines.map((line) => {
    const key = localKey(line.dataFileS3Key);
    if (key === undefined) throw new ExportError(`data file key ${line.dataFileS3Key} is not below ${EXPORT_ROOT}/`, filesPath);
    return { path: join(root, key), itemCount: line.itemCount, md5Checksum: line.md5Checksum };
  });
  const listed = files.reduce((sum, f) => sum + f.itemCount, 0);
  if (listed !== summary.itemCount)
    throw new ExportError(`manifest-files.json lists ${listed} items but manifest-summary.json says ${summary.itemCount}`, filesPath);
  const type = summary.exportType === 'INCREMENTAL_EXPORT' ? 'INCREMENTAL_EXPORT' : 'FULL_EXPORT';
  return { dir, summary, type, files };
}

/** Base64 MD5 of a file, streamed. */
export async function fileMd5(path: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}

/**
 * Verifies every data file in one read of each: present, with the listed MD5, a whole gzip (its CRC
 * and length checked: DuckDB reads past a damaged trailer or trailing garbage without a word), no
 * line longer than an item can make, and as many items as listed. A damaged file fails here, named.
 */
export async function verifyExport(opened: OpenedExport, parallel = 4): Promise<void> {
  const queue = [...opened.files];
  const worker = async (): Promise<void> => {
    for (let file = queue.shift(); file; file = queue.shift()) await checkDataFile(file);
  };
  await Promise.all(Array.from({ length: Math.max(1, parallel) }, worker));
}
