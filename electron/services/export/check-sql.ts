/**
 * The statements an export audit runs after the checks of convention-sql.ts: the values the JS
 * normalizer must normalize, the closure over rules sharing an attribute, the report's counts, the
 * values accounts hold, and the pulled rows the JS engine reads. Pure: no I/O.
 */
import type { Convention } from '../../../shared/model';
import { auditAttributes, type SqlDialect } from './sql-items';

/**
 * Values the JS normalizer must normalize (DuckDB): distinct non-ASCII raw values of rules that
 * normalize, numbered by `k`. JS reads (k, rule, raw as base64) and writes `norm_bytes(k, norm BLOB)`;
 * NORM_MAP_SQL joins them back into `norm_map(rule, raw, norm)` without any text crossing as text.
 */
export function normTodoSql(convention: Convention, dialect: SqlDialect): string | undefined {
  const rules = convention.rules.map((r, i) => (r.normalize.length && r.valueType !== 'N' ? i : -1)).filter((i) => i >= 0);
  const numbers = convention.rules.map((r, i) => (r.valueType === 'N' ? i : -1)).filter((i) => i >= 0);
  const when = [
    ...(rules.length ? [`(rule IN (${rules.join(', ')}) AND NOT ${dialect.sqlNormalizes('raw')})`] : []),
    ...(numbers.length ? [`rule IN (${numbers.join(', ')})`] : []),
  ];
  if (when.length === 0) return undefined;
  return `SELECT row_number() OVER () AS k, rule, raw FROM (SELECT DISTINCT rule, raw FROM vals WHERE ${when.join(' OR ')}) d`;
}

/** norm_map from norm_todo and the JS-written norm_bytes. */
export const NORM_MAP_SQL = `SELECT t.rule, t.raw, decode(b.norm) AS norm FROM norm_todo t JOIN norm_bytes b ON b.k = t.k`;

/**
 * Rules sharing an attribute: a pulled account brings every rule reading that attribute into the JS
 * engine, so those rules' entries must be pulled whole too. Returns the statement adding them to
 * `bad` (run until it adds nothing), or undefined when no two rules share an attribute.
 */
export function closureSql(convention: Convention): string | undefined {
  // Every pulled account brings its rule's attribute and scope attributes, and always the owner and account-type attributes.
  const always = [convention.ownerAttribute, convention.account.kind === 'attribute-equals' ? convention.account.attribute : undefined];
  const pairs: string[] = [];
  convention.rules.forEach((ri, i) => {
    const brought = new Set([ri.attribute, ...Object.values(ri.scope ?? {}), ...always]);
    convention.rules.forEach((rj, j) => {
      if (i !== j && brought.has(rj.attribute)) pairs.push(`(p.rule = ${i} AND nv.rule = ${j})`);
    });
  });
  if (pairs.length === 0) return undefined;
  return `SELECT DISTINCT nv.rule, nv.scope, nv.norm FROM nv JOIN pull p ON p.id = nv.id AND p.rule >= 0
  WHERE nv.side = 'A' AND nv.norm <> '' AND (${pairs.join(' OR ')})
  AND NOT EXISTS (SELECT 1 FROM bad b WHERE b.rule = nv.rule AND b.scope = nv.scope AND b.norm = nv.norm)`;
}

/**
 * Counts of the report: items read, accounts, lock items (malformed ones included); and items read
 * without a partition key (`nokey`), which an export never holds: more than zero means the engine
 * read the files with a wrong mapping (Athena's SerDe answering NULL for every field), not the items.
 */
export const COUNTS_SQL = `SELECT count(*) AS scanned, sum(CASE WHEN kind = 'A' THEN 1 ELSE 0 END) AS accounts, sum(CASE WHEN kind IN ('L', 'M') THEN 1 ELSE 0 END) AS locks, sum(CASE WHEN h_s IS NULL AND h_n IS NULL AND h_b IS NULL THEN 1 ELSE 0 END) AS nokey FROM cls`;

/**
 * Per rule, the distinct values accounts hold (the fit's `held`, shared/audit/fit.ts): one row with
 * columns held0, held1, … The pulled rows cannot say it (healthy values are never pulled).
 */
export function heldSql(convention: Convention): string {
  if (convention.rules.length === 0) return 'SELECT 0 AS held_none';
  return `SELECT ${convention.rules.map((_, i) => `(SELECT count(*) FROM (SELECT DISTINCT scope, norm FROM nv WHERE side = 'A' AND rule = ${i} AND norm <> '') d${i}) AS held${i}`).join(', ')}`;
}

/** The held counts of a heldSql row (undefined when the row has none: an engine that did not ask). */
export function heldOf(convention: Convention, row: Readonly<Record<string, unknown>>): number[] | undefined {
  if (convention.rules.some((_, i) => row[`held${i}`] === undefined || row[`held${i}`] === null)) return undefined;
  return convention.rules.map((_, i) => Number(row[`held${i}`]));
}

/** The pulled rows, item by item: keys, audit attributes (text as base64) and the rule each row is pulled for. */
export function pulledSql(convention: Convention, dialect: SqlDialect): string {
  const text = ['h_s', 'r_s', ...auditAttributes(convention).map((_, i) => `a${i}_s`)];
  const plain = ['h_n', 'h_b', 'r_n', 'r_b', ...auditAttributes(convention).map((_, i) => `a${i}_n`)];
  const cols = [...text.map((c) => `${dialect.textOut(`it.${c}`)} AS ${c}`), ...plain.map((c) => `it.${c}`)];
  return `SELECT p.id, p.rule AS pulled_rule, ${cols.join(', ')} FROM pull p JOIN items it ON it.id = p.id ORDER BY p.id, p.rule`;
}
