/**
 * Reading a data file of an export (gzipped DynamoDB JSON, one item per line) with bounded memory:
 * `readDataFile` for the detection sample and tests, `checkDataFile` for the verification before
 * DuckDB reads it. Every stream's error ends up as an ExportError naming the file, never as an
 * unhandled 'error' event, and no line longer than an item can make is ever held.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { ExportError } from './export-error';

/**
 * The longest data-file line read: an item is at most 400 KB, and its export line can grow by the
 * JSON spelling (base64 for binaries, up to 6 bytes for an escaped control character) and the type
 * wrappers; no real item comes near this, and a longer line is refused, never held in memory.
 */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** How much of a data file `readDataFile` reads. */
export interface ReadLimits {
  /** A longer line is refused with an ExportError naming the file (default MAX_LINE_BYTES). */
  readonly maxLineBytes?: number;
  /** Decompressed bytes left to read, shared by several reads: stop quietly when it runs out (a sample needs no more; default: no limit). */
  readonly budget?: { remaining: number };
}

/**
 * Every line of a data file, parsed (an empty file has none), with bounded memory: lines are split
 * from the decompressed bytes here (never a string longer than `maxLineBytes`), and every stream's
 * error is the iteration's error, so a damaged file can only throw an ExportError naming it — even
 * when the caller stops early or never resumes (the streams are destroyed, their late errors caught).
 * For samples, tests and small exports; audits read through DuckDB.
 */
export async function* readDataFile(path: string, limits: ReadLimits = {}): AsyncGenerator<Record<string, unknown>> {
  const maxLine = limits.maxLineBytes ?? MAX_LINE_BYTES;
  const budget = limits.budget ?? { remaining: Number.POSITIVE_INFINITY };
  const name = basename(path);
  const fail = (what: string): ExportError => new ExportError(`${name}: ${what}: ${path}`, path);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    throw fail(`missing or unreadable (${oneLine(error)})`);
  }
  if (size === 0) return;
  const file = createReadStream(path);
  const gunzip = createGunzip();
  // A late error (after the caller stopped) must not be an unhandled 'error' event: it is seen by the iteration or nobody.
  const ignore = (): void => undefined;
  file.on('error', (error) => gunzip.destroy(error));
  gunzip.on('error', ignore);
  file.pipe(gunzip);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNo = 0;
  const parse = (bytes: Buffer): Record<string, unknown> => {
    try {
      const parsed: unknown = JSON.parse(bytes.toString('utf8'));
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // Reported below, with the line number.
    }
    throw fail(`line ${lineNo} is not a JSON object`);
  };
  try {
    try {
      for await (const chunk of gunzip as AsyncIterable<Buffer>) {
        if (budget.remaining <= 0) return;
        budget.remaining -= chunk.length;
        let start = 0;
        for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, start)) {
          lineNo += 1;
          if (pendingBytes + end - start > maxLine) throw fail(`line ${lineNo} is longer than ${maxLine} bytes (no item is)`);
          const line = pendingBytes === 0 ? chunk.subarray(start, end) : Buffer.concat([...pending, chunk.subarray(start, end)]);
          pending = [];
          pendingBytes = 0;
          start = end + 1;
          if (line.length > 0) yield parse(line);
        }
        const rest = chunk.subarray(start);
        if (pendingBytes + rest.length > maxLine) throw fail(`line ${lineNo + 1} is longer than ${maxLine} bytes (no item is)`);
        if (rest.length > 0) {
          pending.push(rest);
          pendingBytes += rest.length;
        }
      }
    } catch (error) {
      if (error instanceof ExportError) throw error;
      throw fail(`not a readable gzip file (${oneLine(error)})`);
    }
    lineNo += 1;
    if (pendingBytes > 0) yield parse(Buffer.concat(pending));
  } finally {
    file.on('error', ignore);
    file.destroy();
    gunzip.destroy();
  }
}

/** The first line of an error's message, cut short: what a person reads in one line. */
export function oneLine(error: unknown, max = 300): string {
  const text = error instanceof Error ? error.message : String(error);
  const first = text.split('\n').find((l) => l.trim() !== '') ?? text;
  return first.trim().slice(0, max);
}

async function md5Of(path: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}

/** What `checkDataFile` needs of a manifest line. */
export interface ListedDataFile {
  readonly path: string;
  readonly itemCount: number;
  readonly md5Checksum: string;
}

const isZlibError = (error: unknown): boolean =>
  typeof (error as { code?: unknown } | null)?.code === 'string' && (error as { code: string }).code.startsWith('Z_');

/**
 * One read of a data file: its MD5 (of the bytes as listed), the gzip inflated to the end (CRC and
 * length checked, trailing garbage refused), lines counted and none longer than `maxLineBytes`.
 * Resolves when the file is what the manifest lists; else throws an ExportError naming it.
 */
export async function checkDataFile(file: ListedDataFile, maxLineBytes = MAX_LINE_BYTES): Promise<void> {
  const name = basename(file.path);
  const hash = createHash('md5');
  let lines = 0;
  let lineBytes = 0;
  let tooLong = false;
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const counting = new Writable({
    write(chunk: Buffer, _encoding, done) {
      let start = 0;
      for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, start)) {
        lineBytes += end - start;
        if (lineBytes > maxLineBytes) tooLong = true;
        if (lineBytes > 0) lines += 1;
        lineBytes = 0;
        start = end + 1;
      }
      lineBytes += chunk.length - start;
      // A line that never ends is refused as soon as it is too long: a gzip bomb is not inflated to its end.
      if (lineBytes > maxLineBytes) tooLong = true;
      done(
        tooLong
          ? new ExportError(`${name}: line ${lines + 1} is longer than ${maxLineBytes} bytes (no item is): ${file.path}`, file.path)
          : null,
      );
    },
  });
  let size: number;
  try {
    size = (await stat(file.path)).size;
  } catch (error) {
    throw new ExportError(`data file missing or unreadable (${oneLine(error)}): ${file.path}`, file.path);
  }
  let gzipError: unknown;
  try {
    // An empty file is an empty partition's twin: no gzip to inflate (its MD5 and count still say whether it should be).
    if (size === 0) await pipeline(createReadStream(file.path), hashing, new Writable({ write: (_c, _e, done) => done() }));
    else await pipeline(createReadStream(file.path), hashing, createGunzip(), counting);
  } catch (error) {
    if (error instanceof ExportError) throw error;
    if (!isZlibError(error)) throw new ExportError(`data file missing or unreadable (${oneLine(error)}): ${file.path}`, file.path);
    gzipError = error;
  }
  if (lineBytes > 0) lines += 1;
  // A gzip error stopped the read: the file's MD5 is of all of it.
  const md5 = gzipError === undefined ? hash.digest('base64') : await md5Of(file.path);
  if (md5 !== file.md5Checksum)
    throw new ExportError(`data file corrupted or truncated (MD5 ${md5}, manifest says ${file.md5Checksum}): ${file.path}`, file.path);
  if (gzipError !== undefined) throw new ExportError(`${name}: not a readable gzip file (${oneLine(gzipError)}): ${file.path}`, file.path);
  if (lines !== file.itemCount)
    throw new ExportError(`data file holds ${lines} items, manifest-files.json says ${file.itemCount}: ${file.path}`, file.path);
}
