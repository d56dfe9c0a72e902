/**
 * The Athena path: an external table over the export's data files (JsonSerDe) and the same checks
 * as convention-sql.ts composed into two queries (counts, pulled rows) with CTEs, since Athena runs
 * one statement at a time and keeps no tables between them. Untested against real Athena (AWS
 * cannot run here): the composed text is run on DuckDB by the tests, with DuckDB's dialect.
 */
import type { Convention } from '../../../shared/model';
import { itemColumns, itemStructFields, sqlString, type SqlDialect } from './sql-items';
import { auditSteps } from './convention-sql';
import { closureSql, COUNTS_SQL, heldSql, pulledSql } from './check-sql';

/** An injective text id of an item from its key columns (a full export holds each key once). */
export const KEY_ID_SQL = `concat(${['h_s', 'h_n', 'h_b', 'r_s', 'r_n', 'r_b'].map((c) => `CASE WHEN ${c} IS NULL THEN '-' ELSE CAST(length(${c}) AS VARCHAR) || ':' || ${c} END`).join(", '|', ")})`;

const hiveIdent = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

/** CREATE EXTERNAL TABLE over a full export's data folder (`s3://…/AWSDynamoDB/<id>/data/`). */
export function athenaDdl(convention: Convention, table: string, dataLocation: string): string {
  const structFields = itemStructFields(convention);
  // The SerDe lowercases JSON keys (its default, and the only setting under which Athena's lowercase
  // column names find "Item" at all): two attributes differing only in case cannot both be read.
  const lower = structFields.map((f) => f.name.toLowerCase());
  const clash = structFields.find((f, i) => lower.indexOf(f.name.toLowerCase()) !== i);
  if (clash)
    throw new Error(
      `attributes ${structFields
        .filter((f) => f.name.toLowerCase() === clash.name.toLowerCase())
        .map((f) => JSON.stringify(f.name))
        .join(' and ')} differ only in case: Athena's JSON SerDe cannot tell them apart; use the DuckDB engine`,
    );
  const fields = structFields.map((f) => `${hiveIdent(f.name)}:struct<${f.types.map((t) => `${t}:string`).join(',')}>`);
  return [
    `CREATE EXTERNAL TABLE IF NOT EXISTS ${hiveIdent(table)} (`,
    `  Item struct<${fields.join(',')}>`,
    `)`,
    `ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'`,
    `LOCATION ${sqlString(dataLocation)}`,
    `TBLPROPERTIES ('has_encrypted_data' = 'false')`,
  ].join('\n');
}

/** The two queries of an Athena audit over `source` (the external table): report counts, and the rows for the JS engine. */
export function composedQueries(convention: Convention, dialect: SqlDialect, source: string): { counts: string; pulled: string } {
  if (dialect.jsNormMap) throw new Error('composed queries take a dialect without norm_map (Athena keeps no tables between queries)');
  if (closureSql(convention) !== undefined)
    throw new Error(
      'rules sharing an attribute (or reading the owner or account-type attribute) are not supported by the Athena engine yet: use the DuckDB engine',
    );
  const items = `SELECT ${KEY_ID_SQL} AS id, * FROM (SELECT ${itemColumns(convention, 'Item').join(', ')} FROM ${source}) x`;
  const ctes = [{ name: 'items', select: items }, ...auditSteps(convention, dialect)]
    .map((s) => `${s.name} AS (\n${s.select}\n)`)
    .join(',\n');
  // The held values per rule ride on the counts row: no third pass over the export.
  return {
    counts: `WITH ${ctes}\nSELECT * FROM (${COUNTS_SQL}) c CROSS JOIN (${heldSql(convention)}) h`,
    pulled: `WITH ${ctes}\n${pulledSql(convention, dialect)}`,
  };
}
