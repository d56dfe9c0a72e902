/** `audit --export … --print-sql duckdb|athena`: the checks as people can read and run them. */
import type { Convention } from '../../../shared/model';
import { athenaDdl, composedQueries } from './athena-sql';
import { ATHENA_DIALECT, DUCKDB_DIALECT } from './sql-items';
import { auditSteps } from './convention-sql';
import { COUNTS_SQL, pulledSql } from './check-sql';

/** The SQL text for `engine`: Athena's DDL and two queries, or DuckDB's statements after loading `items`. */
export function printedSql(convention: Convention, engine: 'duckdb' | 'athena', table: string, dataLocation: string | undefined): string {
  const name = `${table.replace(/[^A-Za-z0-9_]/g, '_').toLowerCase()}_export`;
  if (engine === 'athena') {
    const { counts, pulled } = composedQueries(convention, ATHENA_DIALECT, name);
    return [
      '-- Locksmith export audit for Athena. UNTESTED against real Athena (the query text is tested on DuckDB).',
      "-- Non-ASCII values are normalized by Athena's lower/trim/normalize, which may differ from the JS engine for some letters.",
      athenaDdl(convention, name, dataLocation ?? 's3://BUCKET/PREFIX/AWSDynamoDB/EXPORT_ID/data/') + ';',
      '-- 1. counts',
      counts + ';',
      '-- 2. rows for the report (text columns as base64 of UTF-8)',
      pulled + ';',
      '',
    ].join('\n\n');
  }
  const steps = auditSteps(convention, DUCKDB_DIALECT).map((s) => `CREATE TABLE ${s.name} AS ${s.select};`);
  return [
    '-- Locksmith export audit for DuckDB, after loading `items` from the export (see duck-audit.ts) and filling norm_map after `vals`.',
    ...steps,
    COUNTS_SQL + ';',
    pulledSql(convention, DUCKDB_DIALECT) + ';',
    '',
  ].join('\n\n');
}
