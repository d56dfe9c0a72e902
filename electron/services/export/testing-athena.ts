/**
 * Test helpers of the Athena engine: the Athena SDK mocked at its edge (AWS cannot run here), a fake
 * Athena behind it, and what real Athena would answer, computed by running the same composed SQL on
 * DuckDB over a generated export. Importing this file mocks every AthenaClient of the process.
 */
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
  type QueryExecutionState,
  type Row,
} from '@aws-sdk/client-athena';
import { DuckDBInstance } from '@duckdb/node-api';
import { mockClient } from 'aws-sdk-client-mock';
import type { Convention } from '../../../shared/model';
import { composedQueries } from './athena-sql';
import { DUCKDB_DIALECT, itemStructFields, sqlString } from './sql-items';
import { COUNTS_SQL } from './check-sql';

/** The mock every AthenaClient of the process sends through. */
export const athena = mockClient(AthenaClient);

/** Which of the engine's queries a text is. */
export type Kind = 'ddl' | 'counts' | 'pulled' | 'drop';
/** One page as GetQueryResults returns it: column metadata, rows of text (NULL: no VarCharValue). */
export type Page = { columns: string[]; rows: (string | null)[][] };

/** The kind of a query text. */
export const kindOf = (sql: string): Kind =>
  sql.startsWith('CREATE EXTERNAL TABLE') ? 'ddl' : sql.startsWith('DROP TABLE') ? 'drop' : sql.includes(COUNTS_SQL) ? 'counts' : 'pulled';

/**
 * A fake Athena behind the mocked client: each query kind gets an id, walks through `states`
 * (default RUNNING then SUCCEEDED) one GetQueryExecution at a time, and serves `pages` by NextToken.
 */
export function fakeAthena(
  results: Partial<Record<Kind, Page[]>>,
  states: Partial<Record<Kind, readonly QueryExecutionState[]>> = {},
): { sent: () => string[] } {
  const polls = new Map<string, number>();
  athena
    .on(StartQueryExecutionCommand)
    .callsFake((input: { QueryString: string }) => ({ QueryExecutionId: `q-${kindOf(input.QueryString)}` }));
  athena.on(GetQueryExecutionCommand).callsFake((input: { QueryExecutionId: string }) => {
    const kind = input.QueryExecutionId.slice(2) as Kind;
    const seq = states[kind] ?? ['RUNNING', 'SUCCEEDED'];
    const i = polls.get(kind) ?? 0;
    polls.set(kind, i + 1);
    const state = seq[Math.min(i, seq.length - 1)]!;
    return {
      QueryExecution: {
        QueryExecutionId: input.QueryExecutionId,
        Status: { State: state, ...(state === 'FAILED' ? { AthenaError: { ErrorMessage: 'HIVE_BAD_DATA: malformed JSON' } } : {}) },
        Statistics: { DataScannedInBytes: 1000 },
      },
    };
  });
  athena.on(GetQueryResultsCommand).callsFake((input: { QueryExecutionId: string; NextToken?: string }) => {
    const pages = results[input.QueryExecutionId.slice(2) as Kind] ?? [];
    const i = input.NextToken === undefined ? 0 : Number(input.NextToken.slice(1));
    const page = pages[i]!;
    const toRow = (values: readonly (string | null)[]): Row => ({ Data: values.map((v) => (v === null ? {} : { VarCharValue: v })) });
    return {
      ResultSet: {
        ResultSetMetadata: { ColumnInfo: page.columns.map((c) => ({ Name: c, Type: 'varchar' })) },
        Rows: [...(i === 0 ? [toRow(page.columns)] : []), ...page.rows.map(toRow)],
      },
      ...(i + 1 < pages.length ? { NextToken: `t${i + 1}` } : {}),
    };
  });
  athena.on(StopQueryExecutionCommand).resolves({});
  return { sent: () => athena.commandCalls(StartQueryExecutionCommand).map((c) => c.args[0].input.QueryString!) };
}

/** `rows` cut into pages of `size` rows. */
export function paged(columns: string[], rows: (string | null)[][], size: number): Page[] {
  const pages: Page[] = [];
  for (let i = 0; i < rows.length || pages.length === 0; i += size) pages.push({ columns, rows: rows.slice(i, i + size) });
  return pages;
}

/** What Athena would answer: the same composed SQL run by DuckDB over the export's files, as text. */
export async function duckAnswers(convention: Convention, files: readonly string[]): Promise<{ counts: Page[]; pulled: Page[] }> {
  const type = `STRUCT(${itemStructFields(convention)
    .map((f) => `"${f.name}" STRUCT(S VARCHAR, N VARCHAR, B VARCHAR)`)
    .join(', ')})`;
  const source = `(SELECT Item FROM read_json([${files.map(sqlString).join(', ')}], format = 'newline_delimited', compression = 'gzip', columns = {Item: ${sqlString(type)}})) ext`;
  const { counts, pulled } = composedQueries(convention, { ...DUCKDB_DIALECT, jsNormMap: false }, source);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const read = async (sql: string): Promise<{ columns: string[]; rows: (string | null)[][] }> => {
      const r = await conn.runAndReadAll(sql);
      return { columns: r.columnNames(), rows: r.getRowsJson().map((row) => row.map((v) => (v === null ? null : String(v)))) };
    };
    const c = await read(counts);
    const p = await read(pulled);
    // Small pages: the report must come out the same across page boundaries.
    return { counts: paged(c.columns, c.rows, 1000), pulled: paged(p.columns, p.rows, 1) };
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
