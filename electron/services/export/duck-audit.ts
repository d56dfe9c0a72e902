/**
 * The DuckDB engine of an export audit: load the export's keys and audit attributes into
 * temporary tables of a file-backed database, apply incrementals by key, run
 * the checks of convention-sql.ts one statement each, and feed only the rows that are not plainly
 * healthy to the shared JS audit engine, which writes the report. Runs in a child process
 * (export-audit-child.ts), never in Electron's main process: DuckDB's memory is its own.
 * Working tables are temporary while the export fits in memory (see {@link workingStorage}).
 */
import { availableParallelism } from 'node:os';
import { rm } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { AuditReport, GroupRow } from '../../../shared/audit/types';
import { ruleNormalizer } from '../../../shared/conventions/parse';
import type { Convention } from '../../../shared/model';
import { DUCKDB_DIALECT } from './sql-items';
import { auditSteps } from './convention-sql';
import { closureSql, COUNTS_SQL, heldOf, heldSql, NORM_MAP_SQL, normTodoSql, pulledSql } from './check-sql';
import { reportFromPulled, type SqlCounts } from './pulled-report';
import { loadItems } from './duck-load';
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

/** The run's folder of links to data files whose paths DuckDB would expand (see duck-load.ts). */
const linkDir = (options: DuckAuditOptions): string => `${options.dbPath}.files`;

/** Default DuckDB memory_limit. */
export const DEFAULT_MEMORY_MB = 512;

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
    const { lines: linesRead, classified } = await loadItems(conn, { ...options, linkDir: linkDir(options) }, temp);
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
