/**
 * The one home of convention → SQL: every check of an export audit as a named SELECT over a flat
 * `items` relation, written once for DuckDB and Athena (no ANTI/SEMI JOIN, no FILTER, no string_agg).
 * Pure: no I/O. The SQL does not decide problems: it classifies items exactly as shared/conventions
 * does (same templates, same order), joins normalized values, and selects every (rule, value) that
 * is not plainly healthy; those rows alone go to the JS audit engine, which derives the problems —
 * so an export audit reports what a live audit reports, wording and order included.
 * Scopes: a scoped template (`{scope}…{value}`) is matched like parseLockKey matches it.
 */
import { compileConvention, type CompiledTemplate } from '../../../shared/conventions/parse';
import type { Convention, NormalizationStep } from '../../../shared/model';

/** One statement: `name` becomes a table (DuckDB) or a CTE (Athena) holding `select`'s rows. */
export interface SqlStep {
  readonly name: string;
  readonly select: string;
}

/** What differs between engines. */
export interface SqlDialect {
  /** True when `expr` holds only printable ASCII (space to `~`): such values normalize identically in SQL and JS. */
  readonly printableAscii: (expr: string) => string;
  /**
   * Whether non-ASCII values to normalize are looked up in a `norm_map(rule, raw, norm)` table the
   * JS engine filled (DuckDB); without one, SQL's own lower/trim/NFC are used (Athena; documented as approximate).
   */
  readonly jsNormMap: boolean;
  /**
   * A text column as base64 of its UTF-8 bytes, for reading into JS: DuckDB's Node client decodes
   * VARCHAR with a decoder that drops a leading U+FEFF, and a value must reach the JS engine byte for byte.
   */
  readonly textOut: (expr: string) => string;
}

/** DuckDB's dialect. */
export const DUCKDB_DIALECT: SqlDialect = { printableAscii: (e) => `regexp_full_match(${e}, '[ -~]*')`, jsNormMap: true, textOut: (e) => `to_base64(encode(${e}))` };
/** Athena (Trino)'s dialect. */
export const ATHENA_DIALECT: SqlDialect = { printableAscii: (e) => `regexp_like(${e}, '^[ -~]*$')`, jsNormMap: false, textOut: (e) => `to_base64(to_utf8(${e}))` };

/** A SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** A quoted SQL identifier. */
export function sqlIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Length in code points: SQL's length() and substr() count code points, JS strings count UTF-16 units. */
const cpLength = (text: string): number => [...text].length;

/** The attributes an export audit reads besides the keys, each with its column prefix in `items` (`a0`, `a1`, …). */
export function auditAttributes(convention: Convention): string[] {
  const names = new Set<string>();
  for (const rule of convention.rules) names.add(rule.attribute);
  if (convention.ownerAttribute !== undefined) names.add(convention.ownerAttribute);
  if (convention.account.kind === 'attribute-equals') names.add(convention.account.attribute);
  return [...names];
}

/**
 * The column list of `items`, as expressions over a DynamoDB-JSON struct column `source` (the
 * export's `Item`, or an incremental's `NewImage`/`Keys`): hash and range as `h_s/h_n/h_b`,
 * `r_s/r_n/r_b`, and each audit attribute as `a<i>_s/a<i>_n`.
 */
export function itemColumns(convention: Convention, source: string, keySource = source): string[] {
  const { hash, range } = convention.keys;
  const cols: string[] = [];
  for (const t of ['S', 'N', 'B']) cols.push(`${keySource}.${sqlIdent(hash.name)}.${t} AS h_${t.toLowerCase()}`);
  for (const t of ['S', 'N', 'B']) cols.push(range ? `${keySource}.${sqlIdent(range.name)}.${t} AS r_${t.toLowerCase()}` : `CAST(NULL AS VARCHAR) AS r_${t.toLowerCase()}`);
  auditAttributes(convention).forEach((name, i) => {
    cols.push(`${source}.${sqlIdent(name)}.S AS a${i}_s`, `${source}.${sqlIdent(name)}.N AS a${i}_n`);
  });
  return cols;
}

/** The DynamoDB-JSON struct type of one item as read by DuckDB/Athena: keys and audit attributes only. */
export function itemStructFields(convention: Convention, keysOnly = false): { name: string; types: readonly ('S' | 'N' | 'B')[] }[] {
  const { hash, range } = convention.keys;
  const fields = [{ name: hash.name, types: ['S', 'N', 'B'] as const }];
  if (range) fields.push({ name: range.name, types: ['S', 'N', 'B'] as const });
  if (!keysOnly) for (const name of auditAttributes(convention)) if (!fields.some((f) => f.name === name)) fields.push({ name, types: ['S', 'N', 'B'] as const });
  return fields;
}

const startsWith = (expr: string, prefix: string): string => (prefix === '' ? 'TRUE' : `substr(${expr}, 1, ${cpLength(prefix)}) = ${sqlString(prefix)}`);
const endsWith = (expr: string, suffix: string): string => (suffix === '' ? 'TRUE' : `substr(${expr}, length(${expr}) - ${cpLength(suffix) - 1}) = ${sqlString(suffix)}`);

/** 1-based start of the value in h_s for template t (after the scope and its separator, when scoped). */
function valueStart(t: CompiledTemplate): string {
  const p = cpLength(t.prefix);
  if (t.scopeSeparator === undefined) return String(p + 1);
  return `(${p} + strpos(substr(h_s, ${p + 1}), ${sqlString(t.scopeSeparator)}) + ${cpLength(t.scopeSeparator)})`;
}

/** h_s has t's shape (prefix, suffix, a non-empty scope whose separator ends before the value), whatever the range. */
function shapeOf(t: CompiledTemplate): string {
  const p = cpLength(t.prefix);
  const s = cpLength(t.suffix);
  const parts = [startsWith('h_s', t.prefix), endsWith('h_s', t.suffix), `length(h_s) >= ${p + s}`];
  if (t.scopeSeparator !== undefined) {
    const pos = `strpos(substr(h_s, ${p + 1}), ${sqlString(t.scopeSeparator)})`;
    parts.push(`${pos} > 1`, `${p} + ${pos} - 1 + ${cpLength(t.scopeSeparator)} <= length(h_s) - ${s}`);
  }
  return `(${parts.join(' AND ')})`;
}

const rangeOk = (t: CompiledTemplate): string => (t.range === undefined ? 'TRUE' : `COALESCE(r_s = ${sqlString(t.range)}, FALSE)`);

function normalizeSql(expr: string, steps: readonly NormalizationStep[]): string {
  let out = expr;
  // Only ever applied to printable ASCII: there trim removes spaces, lower maps A–Z, NFC changes nothing — as in JS.
  for (const step of steps) if (step === 'trim') out = `trim(${out})`;
  else if (step === 'lowercase') out = `lower(${out})`;
  return out;
}

function approximateNormalizeSql(expr: string, steps: readonly NormalizationStep[]): string {
  let out = expr;
  for (const step of steps) if (step === 'trim') out = `trim(${out})`;
  else if (step === 'lowercase') out = `lower(${out})`;
  else out = `normalize(${out}, NFC)`;
  return out;
}

/** The statements of an export audit over `items(id, h_*, r_*, a<i>_*)`, in order. */
export function auditSteps(convention: Convention, dialect: SqlDialect): SqlStep[] {
  const compiled = compileConvention(convention);
  const attrs = auditAttributes(convention);
  const col = (name: string): number => attrs.indexOf(name);
  const templates = compiled.templates;
  const full = templates.map((t) => `WHEN ${shapeOf(t)} AND ${rangeOk(t)} THEN ${templates.indexOf(t)}`);
  const tf = templates.length === 0 ? 'CAST(NULL AS INTEGER)' : `CASE ${full.join(' ')} END`;
  const wrong = templates.filter((t) => t.range !== undefined).map((t) => `(${shapeOf(t)} AND NOT ${rangeOk(t)})`);
  const prefixes = convention.lockPrefixes.filter((p) => p !== '').map((p) => startsWith('h_s', p));
  const present = '(h_s IS NOT NULL OR h_n IS NOT NULL OR h_b IS NOT NULL)';
  const account = accountSql(convention, col);
  const raw = templates.length === 0 ? 'CAST(NULL AS VARCHAR)' : `CASE tf ${templates.map((t, k) => `WHEN ${k} THEN substr(h_s, ${valueStart(t)}, length(h_s) - ${cpLength(t.suffix)} - ${valueStart(t)} + 1)`).join(' ')} END`;
  const ruleOf = templates.length === 0 ? 'CAST(NULL AS INTEGER)' : `CASE tf ${templates.map((t, k) => `WHEN ${k} THEN ${t.ruleIndex}`).join(' ')} END`;
  const owner = convention.ownerAttribute === undefined ? 'CAST(NULL AS VARCHAR)' : `COALESCE(a${col(convention.ownerAttribute)}_s, a${col(convention.ownerAttribute)}_n)`;
  // Step 1: what each item is. A matched template whose value is empty or the literal undefined/null is malformed, as in parseLockKey.
  const cls = `SELECT id, h_s, own, CASE
      WHEN tf IS NOT NULL AND raw IN ('', 'undefined', 'null') THEN 'M'
      WHEN tf IS NOT NULL THEN 'L'
      WHEN h_s IS NOT NULL AND (${[...wrong, ...prefixes].join(' OR ') || 'FALSE'}) THEN 'M'
      WHEN ${present} AND (${account}) THEN 'A' END AS kind,
    rule, raw
  FROM (SELECT t0.*, ${ruleOf} AS rule, ${raw} AS raw FROM (SELECT it.*, ${owner} AS own, ${tf} AS tf FROM items it) t0) t1`;
  // Step 2: one row per protected value: the lock's value, or each rule value an account holds (S, else N; empty holds nothing).
  const accountVals = convention.rules.map((rule, i) => {
    const a = col(rule.attribute);
    return `SELECT c.id, ${i} AS rule, COALESCE(it.a${a}_s, it.a${a}_n) AS raw, 'A' AS side, c.h_s AS hs, CAST(NULL AS VARCHAR) AS own FROM cls c JOIN items it ON it.id = c.id WHERE c.kind = 'A' AND COALESCE(it.a${a}_s, it.a${a}_n) <> ''`;
  });
  const vals = [`SELECT id, rule, raw, 'L' AS side, h_s AS hs, own FROM cls WHERE kind = 'L'`, ...accountVals].join('\nUNION ALL\n');
  // Step 3: normalized values. Printable ASCII normalizes the same in SQL; anything else through the JS normalizer (norm_map).
  const normCases = convention.rules.map((rule, i) => {
    if (rule.normalize.length === 0) return `WHEN ${i} THEN v.raw`;
    const other = dialect.jsNormMap ? 'm.norm' : approximateNormalizeSql('v.raw', rule.normalize);
    return `WHEN ${i} THEN CASE WHEN ${dialect.printableAscii('v.raw')} THEN ${normalizeSql('v.raw', rule.normalize)} ELSE ${other} END`;
  });
  const join = dialect.jsNormMap ? 'LEFT JOIN norm_map m ON m.rule = v.rule AND m.raw = v.raw' : '';
  const nv = `SELECT v.id, v.rule, v.side, v.hs, v.own, ${normCases.length ? `CASE v.rule ${normCases.join(' ')} END` : 'v.raw'} AS norm FROM vals v ${join}`;
  // Step 4: every (rule, value) that is not exactly one holder with one lock (naming that holder, when locks name owners).
  const ownerOk = convention.ownerAttribute === undefined ? 'TRUE' : `(max(CASE WHEN side = 'L' THEN own END) IS NULL OR max(CASE WHEN side = 'L' THEN own END) = max(CASE WHEN side = 'A' THEN hs END))`;
  const bad = `SELECT rule, norm FROM nv WHERE norm <> '' GROUP BY rule, norm
  HAVING NOT (sum(CASE WHEN side = 'A' THEN 1 ELSE 0 END) = 1 AND sum(CASE WHEN side = 'L' THEN 1 ELSE 0 END) = 1 AND ${ownerOk})`;
  // Step 5: the rows the JS engine reads: (item, rule) of every value in a bad entry, malformed items (rule -1),
  // and locks whose value normalizes to nothing (malformed there too).
  const pull = `SELECT DISTINCT nv.id, nv.rule FROM nv JOIN bad b ON b.rule = nv.rule AND b.norm = nv.norm
  UNION SELECT id, -1 AS rule FROM cls WHERE kind = 'M'
  UNION SELECT id, rule FROM nv WHERE side = 'L' AND norm = ''`;
  return [
    { name: 'cls', select: cls },
    { name: 'vals', select: vals },
    { name: 'nv', select: nv },
    { name: 'bad', select: bad },
    { name: 'pull', select: pull },
  ];
}

function accountSql(convention: Convention, col: (name: string) => number): string {
  const m = convention.account;
  switch (m.kind) {
    case 'key-prefix': {
      const base = `h_s IS NOT NULL AND ${startsWith('h_s', m.prefix)}`;
      return m.range === undefined || convention.keys.range === undefined ? base : `${base} AND COALESCE(r_s = ${sqlString(m.range)}, FALSE)`;
    }
    case 'attribute-equals':
      return `COALESCE(a${col(m.attribute)}_s = ${sqlString(m.value)}, FALSE)`;
    case 'not-lock':
      return 'TRUE';
  }
}

/**
 * Values the JS normalizer must normalize (DuckDB): distinct non-ASCII raw values of rules that
 * normalize, numbered by `k`. JS reads (k, rule, raw as base64) and writes `norm_bytes(k, norm BLOB)`;
 * NORM_MAP_SQL joins them back into `norm_map(rule, raw, norm)` without any text crossing as text.
 */
export function normTodoSql(convention: Convention, dialect: SqlDialect): string | undefined {
  const rules = convention.rules.map((r, i) => (r.normalize.length ? i : -1)).filter((i) => i >= 0);
  if (rules.length === 0) return undefined;
  return `SELECT row_number() OVER () AS k, rule, raw FROM (SELECT DISTINCT rule, raw FROM vals WHERE rule IN (${rules.join(', ')}) AND NOT ${dialect.printableAscii('raw')}) d`;
}

/** norm_map from norm_todo and the JS-written norm_bytes. */
export const NORM_MAP_SQL = `SELECT t.rule, t.raw, decode(b.norm) AS norm FROM norm_todo t JOIN norm_bytes b ON b.k = t.k`;

/**
 * Rules sharing an attribute: a pulled account brings every rule reading that attribute into the JS
 * engine, so those rules' entries must be pulled whole too. Returns the statement adding them to
 * `bad` (run until it adds nothing), or undefined when no two rules share an attribute.
 */
export function closureSql(convention: Convention): string | undefined {
  const attrOf = convention.rules.map((r) => r.attribute);
  if (new Set(attrOf).size === attrOf.length) return undefined;
  const attrCase = (e: string): string => `CASE ${e} ${attrOf.map((a, i) => `WHEN ${i} THEN ${sqlString(a)}`).join(' ')} END`;
  return `SELECT DISTINCT nv.rule, nv.norm FROM nv JOIN pull p ON p.id = nv.id AND p.rule >= 0
  WHERE nv.side = 'A' AND nv.norm <> '' AND ${attrCase('nv.rule')} = ${attrCase('p.rule')}
  AND NOT EXISTS (SELECT 1 FROM bad b WHERE b.rule = nv.rule AND b.norm = nv.norm)`;
}

/** Counts of the report: items read, accounts, lock items (malformed ones included). */
export const COUNTS_SQL = `SELECT count(*) AS scanned, sum(CASE WHEN kind = 'A' THEN 1 ELSE 0 END) AS accounts, sum(CASE WHEN kind IN ('L', 'M') THEN 1 ELSE 0 END) AS locks FROM cls`;

/** The pulled rows, item by item: keys, audit attributes (text as base64) and the rule each row is pulled for. */
export function pulledSql(convention: Convention, dialect: SqlDialect): string {
  const text = ['h_s', 'r_s', ...auditAttributes(convention).map((_, i) => `a${i}_s`)];
  const plain = ['h_n', 'h_b', 'r_n', 'r_b', ...auditAttributes(convention).map((_, i) => `a${i}_n`)];
  const cols = [...text.map((c) => `${dialect.textOut(`it.${c}`)} AS ${c}`), ...plain.map((c) => `it.${c}`)];
  return `SELECT p.id, p.rule AS pulled_rule, ${cols.join(', ')} FROM pull p JOIN items it ON it.id = p.id ORDER BY p.id, p.rule`;
}
