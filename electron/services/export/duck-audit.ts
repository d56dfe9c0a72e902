/**
 * The DuckDB engine of an export audit: load the export's keys and audit attributes into
 * temporary tables of a file-backed database, apply incrementals by key, run
 * the checks of convention-sql.ts one statement each, and feed only the rows that are not plainly
 * healthy to the shared JS audit engine, which writes the report. Runs in a child process
 * (export-audit-child.ts), never in Electron's main process: DuckDB's memory is its own.
 * Working tables are temporary while the export fits in memory (see {@link workingStorage}).
 */
import { availableParallelism } from 'node:os';
import { randomUUID } from 'node:crypto';
import { link as fsLink, mkdir, rm, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { AuditReport, GroupRow } from '../../../shared/audit/types';
import { ruleNormalizer } from '../../../shared/conventions/parse';
import type { Convention } from '../../../shared/model';
import {
  auditSteps,
  closureSql,
  COUNTS_SQL,
  DUCKDB_DIALECT,
  heldOf,
  heldSql,
  itemColumnNames,
  itemColumns,
  itemStructFields,
  NORM_MAP_SQL,
  normTodoSql,
  pulledSql,
  sqlString,
} from './convention-sql';
import { reportFromPulled, type SqlCounts } from './pulled-report';
import { checkExportChain } from './export-chain';
import { ExportError, type OpenedExport } from './read-export';

/** Options of one DuckDB export audit. */
export interface DuckAuditOptions {
  /** A full export first, then incrementals in time order; each already opened and verified. */
  readonly exports: readonly OpenedExport[];
  readonly convention: Convention;
  readonly table: string;
  /** The database file (deleted by the caller); its folder also takes DuckDB's spill files. */
  readonly dbPath: string;
  /** DuckDB memory_limit in MB; default 512. */
  readonly memoryMb?: number;
  readonly threads?: number;
  /** Where the working tables live; by default chosen by {@link workingStorage}. */
  readonly storage?: WorkingStorage;
  readonly onStep?: (step: string) => void;
  /** Also return the problem groups (the app's inspector shows them). */
  readonly rows?: boolean;
}

/** Temporary tables (in memory, spilled uncompressed beyond the limit) or persistent ones (compressed, in the database file). */
export type WorkingStorage = 'temp' | 'persistent';

/**
 * Bytes a loaded item takes in a temporary table, rounded up (keys, audit attributes, the
 * classification columns, as measured on the bench dataset).
 */
const TEMP_BYTES_PER_ITEM = 256;

/**
 * Temporary tables skip the compression and checkpoint writes of persistent storage that the
 * audit never reads back: while the items fit in the memory limit they are much cheaper (2M items
 * under 512 MB: about 14 s of CPU against 20 s, the temporary tables spilling a little). Far
 * beyond it they spill to disk uncompressed, several times what compressed persistent tables
 * write (10M items under 512 MB: 112 s against 67 s), so large exports use persistent tables.
 */
export function workingStorage(items: number, memoryMb: number): WorkingStorage {
  return items * TEMP_BYTES_PER_ITEM <= memoryMb * 2 ** 20 ? 'temp' : 'persistent';
}

/** The report plus what was read. */
export interface DuckAuditResult {
  readonly report: AuditReport;
  /** Lines read from data files (items of the full export plus incremental records). */
  readonly linesRead: number;
  /** Items pulled into the JS engine (values that are not plainly healthy, and malformed locks). */
  readonly pulled: number;
  /** With `rows`: the problem groups. */
  readonly rows?: GroupRow[];
}

/** The run's folder of links to data files whose paths DuckDB would expand (see dataFiles). */
const linkDir = (options: DuckAuditOptions): string => `${options.dbPath}.files`;

/** Default DuckDB memory_limit. */
export const DEFAULT_MEMORY_MB = 512;

function structType(fields: ReturnType<typeof itemStructFields>): string {
  return `STRUCT(${fields.map((f) => `"${f.name.replace(/"/g, '""')}" STRUCT(${f.types.map((t) => `${t} VARCHAR`).join(', ')})`).join(', ')})`;
}

/** A data file as the manifest names it, and the path DuckDB reads it by. */
interface DataFile {
  readonly path: string;
  readonly read: string;
}

/** Characters DuckDB's file readers expand as a glob pattern, wherever they are in a path. */
const GLOB_CHARACTERS = /[*?[\]{}]/;

/**
 * The verified, non-empty data files as paths DuckDB reads literally. DuckDB takes every path as a
 * glob pattern: `…/exp[prod]/f.json.gz` would read `…/expp/f.json.gz`, a file whose MD5 nobody
 * checked. A path with a glob character is read through a link in the run's own folder instead.
 */
async function dataFiles(opened: OpenedExport, linkDir: string): Promise<DataFile[]> {
  const out: DataFile[] = [];
  for (const f of opened.files) {
    // A file of zero bytes (its MD5 already checked against the manifest) holds no items; DuckDB's gzip reader refuses it.
    if ((await stat(f.path)).size === 0) continue;
    out.push({ path: f.path, read: GLOB_CHARACTERS.test(f.path) ? await literalLink(f.path, linkDir) : f.path });
  }
  return out;
}

async function literalLink(path: string, linkDir: string): Promise<string> {
  const refuse = (why: string): ExportError =>
    new ExportError(
      `${path}: DuckDB would read this path as a pattern (it contains one of * ? [ ] { }) and ${why}; move or rename the export's folder`,
      path,
    );
  if (GLOB_CHARACTERS.test(linkDir)) throw refuse(`the working folder ${linkDir} has such characters too`);
  await mkdir(linkDir, { recursive: true });
  const link = join(linkDir, `${randomUUID()}.json.gz`);
  try {
    await fsLink(path, link);
  } catch {
    try {
      await symlink(path, link);
    } catch (error) {
      throw refuse(`no link to it could be made in ${linkDir} (${(error as Error).message})`);
    }
  }
  return link;
}

function readJson(files: readonly DataFile[], columns: Record<string, string>): string {
  const cols = Object.entries(columns)
    .map(([k, v]) => `${k}: ${sqlString(v)}`)
    .join(', ');
  return `read_json([${files.map((f) => sqlString(f.read)).join(', ')}], format = 'newline_delimited', compression = 'gzip', columns = {${cols}})`;
}

/**
 * The data file of each row as its 1-based position in `files` (the load keeps it for the count
 * check below): DuckDB's file_index virtual column, not `filename`, which repeats the path on every
 * row and cost a list_position over every file's path per row.
 */
const FILE_INDEX = 'CAST(file_index AS INTEGER) + 1';

/** Checks each file's line count against its manifest line: a file that reads short is never audited. */
async function checkCounts(conn: DuckDBConnection, table: string, opened: OpenedExport, files: readonly DataFile[]): Promise<number> {
  const rows = (await conn.runAndReadAll(`SELECT src, count(*) AS n FROM ${table} GROUP BY src`)).getRowObjectsJson() as {
    src: string | number | null;
    n: string | number;
  }[];
  const counted = new Map(rows.map((r) => [files[Number(r.src) - 1]?.path, Number(r.n)]));
  let total = 0;
  for (const f of opened.files) {
    const n = counted.get(f.path) ?? 0;
    if (n !== f.itemCount) throw new ExportError(`data file holds ${n} items, manifest-files.json says ${f.itemCount}: ${f.path}`, f.path);
    total += n;
  }
  return total;
}

/** Loads the export(s); `classified` when the load already built cls (a full export alone). */
async function loadItems(conn: DuckDBConnection, options: DuckAuditOptions, temp: string): Promise<{ lines: number; classified: boolean }> {
  const { convention, exports } = options;
  checkExportChain(exports);
  const [full, ...incrementals] = exports as [OpenedExport, ...OpenedExport[]];
  const all = structType(itemStructFields(convention));
  const cols = itemColumns(convention, 'Item').join(', ');
  const files = await dataFiles(full, linkDir(options));
  const empty = `SELECT CAST(NULL AS INTEGER) AS src, ${itemColumnNames(convention)
    .map((c) => `CAST(NULL AS VARCHAR) AS ${c}`)
    .join(', ')} WHERE FALSE`;
  const load = files.length ? `(SELECT ${FILE_INDEX} AS src, ${cols} FROM ${readJson(files, { Item: all })})` : `(${empty})`;
  if (incrementals.length === 0) {
    // Loading and classifying in one pass: cls0 is the only copy of the items; rowid is the item id.
    await conn.run(
      `CREATE ${temp}TABLE cls0 AS ${auditSteps(convention, DUCKDB_DIALECT, load, ['src', ...itemColumnNames(convention)])[0]!.select}`,
    );
    await conn.run(`CREATE ${temp}VIEW cls AS SELECT rowid AS id, * FROM cls0`);
    await conn.run(`CREATE ${temp}VIEW items AS SELECT * FROM cls`);
    return { lines: await checkCounts(conn, 'cls0', full, files), classified: true };
  }
  await conn.run(`CREATE ${temp}TABLE raw0 AS SELECT * FROM ${load} l`);
  let lines = await checkCounts(conn, 'raw0', full, files);
  const keysType = structType(itemStructFields(convention, true));
  const parts: string[] = [];
  for (const [k, inc] of incrementals.entries()) {
    const incFiles = await dataFiles(inc, linkDir(options));
    const incCols = itemColumns(convention, 'NewImage', 'Keys').join(', ');
    const body = incFiles.length
      ? `SELECT ${FILE_INDEX} AS src, ${k} AS seq, TRY_CAST(Metadata.WriteTimestampMicros.N AS BIGINT) AS ts, NewImage IS NOT NULL AS present, ${incCols} FROM ${readJson(incFiles, { Metadata: 'STRUCT(WriteTimestampMicros STRUCT(N VARCHAR))', Keys: keysType, NewImage: all })}`
      : `SELECT * FROM (SELECT CAST(NULL AS INTEGER) AS src, 0 AS seq, CAST(NULL AS BIGINT) AS ts, FALSE AS present, ${itemColumnNames(
          convention,
        )
          .map((c) => `CAST(NULL AS VARCHAR) AS ${c}`)
          .join(', ')}) WHERE FALSE`;
    await conn.run(`CREATE ${temp}TABLE inc${k} AS ${body}`);
    lines += await checkCounts(conn, `inc${k}`, inc, incFiles);
    parts.push(`SELECT * FROM inc${k}`);
  }
  const keyCols = ['h_s', 'h_n', 'h_b', 'r_s', 'r_n', 'r_b'];
  const valueCols = itemColumnNames(convention);
  // The last write of each key wins: later export first, then the later write within it.
  await conn.run(
    `CREATE ${temp}TABLE latest AS SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY ${keyCols.join(', ')} ORDER BY seq DESC, ts DESC NULLS LAST) AS rn FROM (${parts.join(' UNION ALL ')}) u) l WHERE rn = 1`,
  );
  const sameKey = keyCols.map((c) => `l.${c} IS NOT DISTINCT FROM f.${c}`).join(' AND ');
  await conn.run(`CREATE ${temp}TABLE merged AS SELECT ${valueCols.join(', ')} FROM raw0 f WHERE NOT EXISTS (SELECT 1 FROM latest l WHERE ${sameKey})
    UNION ALL SELECT ${valueCols.join(', ')} FROM latest WHERE present`);
  await conn.run(`CREATE ${temp}VIEW items AS SELECT rowid AS id, * FROM merged`);
  return { lines, classified: false };
}

/** Runs the export audit in DuckDB; the report is the JS engine's on the pulled rows, with the counts of every item. */
export async function duckAudit(options: DuckAuditOptions): Promise<DuckAuditResult> {
  const { convention } = options;
  const memoryMb = options.memoryMb ?? DEFAULT_MEMORY_MB;
  const items = options.exports.reduce((n, e) => n + e.files.reduce((m, f) => m + f.itemCount, 0), 0);
  const temp = (options.storage ?? workingStorage(items, memoryMb)) === 'temp' ? 'TEMP ' : '';
  const instance = await DuckDBInstance.create(options.dbPath, {
    memory_limit: `${memoryMb}MB`,
    threads: String(options.threads ?? availableParallelism()),
    temp_directory: `${options.dbPath}.tmp`,
    preserve_insertion_order: 'false',
  });
  const conn = await instance.connect();
  try {
    options.onStep?.('load');
    const { lines: linesRead, classified } = await loadItems(conn, options, temp);
    const steps = auditSteps(convention, DUCKDB_DIALECT);
    for (const step of steps) {
      if (step.name === 'cls' && classified) continue;
      options.onStep?.(step.name);
      await conn.run(`CREATE ${temp}${step.view ? 'VIEW' : 'TABLE'} ${step.name} AS ${step.select}`);
      if (step.name === 'vals') await fillNormMap(conn, convention, temp);
    }
    const closure = closureSql(convention);
    if (closure) {
      const pull = steps.find((s) => s.name === 'pull')!;
      for (;;) {
        const added = await conn.run(`INSERT INTO bad ${closure}`);
        if (added.rowsChanged === 0) break;
        await conn.run(`CREATE OR REPLACE ${temp}TABLE pull AS ${pull.select}`);
      }
    }
    const countRow = (await conn.runAndReadAll(COUNTS_SQL)).getRowObjectsJson()[0] as unknown as SqlCounts & {
      readonly nokey?: string | number | null;
    };
    const held = heldOf(convention, (await conn.runAndReadAll(heldSql(convention))).getRowObjectsJson()[0] ?? {});
    const counts = held ? { ...countRow, held } : countRow;
    // Every exported item has its table's partition key: items without one mean the key schema given
    // is not the exported table's (another table, or one re-created with other keys). Such items
    // would count as neither accounts nor locks and the report would read clean: no report instead.
    const nokey = Number(counts.nokey ?? 0);
    if (nokey > 0) {
      throw new ExportError(
        `${nokey} of ${counts.scanned} exported items have no \`${convention.keys.hash.name}\` attribute, the partition key given for ${options.table}: this export is not of a table with that key schema (another table, or the table was re-created with other keys since); no report rather than a wrong one`,
      );
    }
    options.onStep?.('report');
    const result = await conn.stream(pulledSql(convention, DUCKDB_DIALECT));
    const { report, pulled, rows } = await reportFromPulled(convention, options.table, counts, result.yieldRowObjectJson(), {
      rows: options.rows === true,
    });
    return { report, linesRead, pulled, ...(rows ? { rows } : {}) };
  } finally {
    conn.closeSync();
    instance.closeSync();
    await rm(linkDir(options), { recursive: true, force: true });
  }
}

/** Normalizes the non-ASCII values with the shared JS normalizer and joins the result back as norm_map. */
async function fillNormMap(conn: DuckDBConnection, convention: Convention, temp: string): Promise<void> {
  await conn.run(`CREATE ${temp}TABLE norm_bytes (k BIGINT, norm BLOB)`);
  const todo = normTodoSql(convention, DUCKDB_DIALECT);
  if (todo === undefined) {
    await conn.run(`CREATE ${temp}TABLE norm_map (rule INTEGER, raw VARCHAR, norm VARCHAR)`);
    return;
  }
  await conn.run(`CREATE ${temp}TABLE norm_todo AS ${todo}`);
  const appender = await conn.createAppender('norm_bytes');
  const result = await conn.stream(`SELECT k, rule, ${DUCKDB_DIALECT.textOut('raw')} AS raw FROM norm_todo`);
  for await (const rows of result.yieldRowObjectJson()) {
    for (const row of rows) {
      const raw = Buffer.from(String(row.raw), 'base64').toString('utf8');
      appender.appendBigInt(BigInt(String(row.k)));
      appender.appendBlob(Buffer.from(ruleNormalizer(convention.rules[Number(row.rule)]!)(raw), 'utf8'));
      appender.endRow();
    }
  }
  appender.closeSync();
  await conn.run(`CREATE ${temp}TABLE norm_map AS ${NORM_MAP_SQL}`);
}
