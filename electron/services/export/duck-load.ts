/**
 * The load of a DuckDB export audit: the verified data files read by DuckDB (paths it would take as
 * a pattern read through links), each file's line count checked against its manifest line, and
 * incrementals applied by key; a full export alone is loaded and classified in one pass.
 */
import { randomUUID } from 'node:crypto';
import { link as fsLink, mkdir, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Convention } from '../../../shared/model';
import { DUCKDB_DIALECT, itemColumnNames, itemColumns, itemStructFields, sqlString } from './sql-items';
import { auditSteps } from './convention-sql';
import { checkExportChain } from './export-chain';
import { ExportError, type OpenedExport } from './read-export';

/** What the load reads. */
export interface LoadOptions {
  /** A full export first, then incrementals in time order; each already opened and verified. */
  readonly exports: readonly OpenedExport[];
  readonly convention: Convention;
  /** The run's folder of links to data files whose paths DuckDB would expand (see dataFiles); removed by the caller. */
  readonly linkDir: string;
}

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
export async function loadItems(
  conn: DuckDBConnection,
  options: LoadOptions,
  temp: string,
): Promise<{ lines: number; classified: boolean }> {
  const { convention, exports } = options;
  checkExportChain(exports);
  const [full, ...incrementals] = exports as [OpenedExport, ...OpenedExport[]];
  const all = structType(itemStructFields(convention));
  const cols = itemColumns(convention, 'Item').join(', ');
  const files = await dataFiles(full, options.linkDir);
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
    const incFiles = await dataFiles(inc, options.linkDir);
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
