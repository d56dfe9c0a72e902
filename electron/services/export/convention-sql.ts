/**
 * The one home of convention → SQL: every check of an export audit as a named SELECT over a flat
 * `items` relation, written once for DuckDB and Athena (no ANTI/SEMI JOIN, no FILTER, no string_agg).
 * Pure: no I/O. The SQL does not decide problems: it classifies items exactly as shared/conventions
 * does (same templates, same order), joins normalized values, and selects every (rule, value) that
 * is not plainly healthy; those rows alone go to the JS audit engine, which derives the problems —
 * so an export audit reports what a live audit reports, wording and order included.
 * Scopes: a scoped template (`{scope}…{value}`) is matched like parseLockKey matches it.
 */
import { KEY_SAMPLE_LIMIT } from '../../../shared/audit/fit';
import { compileConvention, type CompiledTemplate } from '../../../shared/conventions/parse';
import { VALUE_NAME, type CompiledHash } from '../../../shared/conventions/template';
import type { Convention, NormalizationStep } from '../../../shared/model';
import { auditAttributes, itemColumnNames, sqlString, type SqlDialect } from './sql-items';

/** One statement: `name` becomes a table (DuckDB) or a CTE (Athena) holding `select`'s rows. */
export interface SqlStep {
  readonly name: string;
  readonly select: string;
  /** Cheap to recompute and read at most twice: a view, not a table (DuckDB), to save writing it. */
  readonly view?: boolean;
}

/** Length in code points: SQL's length() and substr() count code points, JS strings count UTF-16 units. */
const cpLength = (text: string): number => [...text].length;

// starts_with (DuckDB and Trino) compares bytes: ~half the CPU of comparing a code-point substr, several times per item.
const startsWith = (expr: string, prefix: string): string => (prefix === '' ? 'TRUE' : `starts_with(${expr}, ${sqlString(prefix)})`);
const endsWith = (expr: string, suffix: string): string =>
  suffix === '' ? 'TRUE' : `substr(${expr}, length(${expr}) - ${cpLength(suffix) - 1}) = ${sqlString(suffix)}`;

/** The SQL pieces of one template: its shape condition, the value, and each placeholder's text, as parseLockKey reads them. */
interface TemplateSql {
  /** Both key attributes fit and agree: the template matches. */
  readonly shape: string;
  /** The partition key fits but the sort key does not (or disagrees): a malformed lock of this template, when anchored. */
  readonly wrong?: string;
  readonly value: string;
  readonly parts: Readonly<Record<string, string>>;
}

/** One key attribute's template over the text column `col`: its shape and each placeholder's text, as template.ts readKey reads them. */
function keySql(col: string, t: CompiledHash): { shape: string; texts: Record<string, string> } {
  if (t.middle === undefined) return { shape: `COALESCE(${col} = ${sqlString(t.prefix)}, FALSE)`, texts: {} };
  if (t.after.length > 0)
    throw new Error(
      `lock key templates with placeholders after {${t.middle}} ({${t.after.map((a) => a.name).join('}, {')}}) are not supported by the export audit yet: audit the live table`,
    );
  const p = cpLength(t.prefix);
  const s = cpLength(t.suffix);
  const end = `(length(${col}) - ${s})`;
  const conds = [`${col} IS NOT NULL`, startsWith(col, t.prefix), endsWith(col, t.suffix), `length(${col}) >= ${p + s}`];
  const texts: Record<string, string> = {};
  let start = String(p);
  for (const b of t.before) {
    const pos = `strpos(substr(${col}, ${start} + 1), ${sqlString(b.until)})`;
    conds.push(`${pos} > 1`, `${start} + ${pos} - 1 + ${cpLength(b.until)} <= ${end}`);
    texts[b.name] = `substr(${col}, ${start} + 1, ${pos} - 1)`;
    start = `(${start} + ${pos} - 1 + ${cpLength(b.until)})`;
  }
  texts[t.middle] = `substr(${col}, ${start} + 1, ${end} - ${start})`;
  // Only {value} may be empty (a malformed lock); any other placeholder's empty text does not fit.
  if (t.middle !== VALUE_NAME) conds.push(`${end} > ${start}`);
  return { shape: `(${conds.join(' AND ')})`, texts };
}

/**
 * Template t over h_s (and r_s when its sort key is a template). Placeholders left of the middle one
 * end at the FIRST occurrence of their literal (strpos), non-empty, as in template.ts readKey;
 * placeholders right of it (read from the LAST occurrence) have no portable SQL form: such
 * conventions are refused with a clear error. A placeholder read from both keys must agree.
 */
function templateSql(t: CompiledTemplate): TemplateSql {
  const hash = keySql('h_s', t.hash);
  if (t.rangeTemplate === undefined) {
    const rangeOk = t.range === undefined ? undefined : `COALESCE(r_s = ${sqlString(t.range)}, FALSE)`;
    return {
      shape: rangeOk === undefined ? hash.shape : `(${hash.shape} AND ${rangeOk})`,
      ...(rangeOk === undefined || !t.anchored ? {} : { wrong: `(${hash.shape} AND NOT ${rangeOk})` }),
      value: hash.texts[VALUE_NAME] ?? "''",
      parts: hash.texts,
    };
  }
  const range = keySql('r_s', t.rangeTemplate);
  const agree = (t.repeated ?? []).map((n) => `${hash.texts[n]!} = ${range.texts[n]!}`);
  const both = `(${[hash.shape, range.shape, ...agree].join(' AND ')})`;
  // A disagreement is malformed even where the partition key has no literal prefix (parseLockKey).
  const wrong = t.anchored
    ? `(${hash.shape} AND NOT ${both})`
    : agree.length === 0
      ? undefined
      : `(${hash.shape} AND ${range.shape} AND NOT (${agree.join(' AND ')}))`;
  return {
    shape: both,
    ...(wrong === undefined ? {} : { wrong }),
    value: hash.texts[VALUE_NAME] ?? range.texts[VALUE_NAME] ?? "''",
    parts: { ...range.texts, ...hash.texts },
  };
}

/** An injective text of a scope tuple (length-prefixed parts); '' for an unscoped rule. */
function scopeText(texts: readonly string[]): string {
  if (texts.length === 0) return "''";
  return texts.map((t) => `CAST(length(${t}) AS VARCHAR) || ':' || ${t}`).join(" || '|' || ");
}

function normalizeSql(expr: string, steps: readonly NormalizationStep[]): string {
  let out = expr;
  // Only ever applied where dialect.sqlNormalizes holds: there trim removes spaces, lower maps A–Z, NFC changes nothing — as in JS.
  // trim only where an end is a space: DuckDB's trim costs several times the two LIKE tests, and most values have none.
  for (const step of steps)
    if (step === 'trim') out = `CASE WHEN ${out} LIKE ' %' OR ${out} LIKE '% ' THEN trim(${out}) ELSE ${out} END`;
    else if (step === 'lowercase') out = `lower(${out})`;
  return out;
}

function approximateNormalizeSql(expr: string, steps: readonly NormalizationStep[], dialect: SqlDialect): string {
  let out = expr;
  for (const step of steps)
    if (step === 'trim') out = `trim(${out})`;
    else if (step === 'lowercase') out = `lower(${out})`;
    else out = dialect.nfc(out);
  return out;
}

/**
 * The statements of an export audit over `items(id, h_*, r_*, a<i>_*)`, in order. `source` is what
 * the first step (cls) reads: `items`, or the export read itself when the engine fuses loading and
 * classifying (cls then has no id until the engine adds one).
 */
export function auditSteps(
  convention: Convention,
  dialect: SqlDialect,
  source = 'items',
  sourceColumns: readonly string[] = ['id', ...itemColumnNames(convention)],
): SqlStep[] {
  const compiled = compileConvention(convention);
  const attrs = auditAttributes(convention);
  const col = (name: string): number => attrs.indexOf(name);
  const templates = compiled.templates;
  const sqls = templates.map(templateSql);
  const full = templates.map((_, k) => `WHEN ${sqls[k]!.shape} THEN ${k}`);
  const tf = templates.length === 0 ? 'CAST(NULL AS INTEGER)' : `CASE ${full.join(' ')} END`;
  const wrong = sqls.flatMap((q) => (q.wrong === undefined ? [] : [q.wrong]));
  // A template whose placeholder the rule's scope does not map reads as malformed (parseLockKey).
  const unmapped = templates.flatMap((t, k) => (t.unmapped === undefined ? [] : [k]));
  const prefixes = convention.lockPrefixes.filter((p) => p !== '').map((p) => startsWith('h_s', p));
  const present = '(h_s IS NOT NULL OR h_n IS NOT NULL OR h_b IS NOT NULL)';
  const account = accountSql(convention, col);
  const raw =
    templates.length === 0
      ? 'CAST(NULL AS VARCHAR)'
      : `CASE tf ${templates.map((_, k) => `WHEN ${k} THEN ${sqls[k]!.value}`).join(' ')} END`;
  // The lock's scope tuple, in the rule's scope order, from the key's placeholder texts.
  const lockScope =
    templates.length === 0
      ? "''"
      : `CASE tf ${templates.map((t, k) => `WHEN ${k} THEN ${t.unmapped === undefined ? scopeText(Object.keys(convention.rules[t.ruleIndex]!.scope ?? {}).map((name) => sqls[k]!.parts[name]!)) : "''"}`).join(' ')} END`;
  const ruleOf =
    templates.length === 0 ? 'CAST(NULL AS INTEGER)' : `CASE tf ${templates.map((t, k) => `WHEN ${k} THEN ${t.ruleIndex}`).join(' ')} END`;
  const owner =
    convention.ownerAttribute === undefined
      ? 'CAST(NULL AS VARCHAR)'
      : `COALESCE(a${col(convention.ownerAttribute)}_s, a${col(convention.ownerAttribute)}_n)`;
  // cls keeps the lock's scope only when some rule is scoped, its owner only when locks name owners: otherwise a
  // column of '' or NULL per item is written and read for nothing (DuckDB's load stores cls); tf is not kept.
  const scoped = templates.some((t) => t.unmapped === undefined && Object.keys(convention.rules[t.ruleIndex]!.scope ?? {}).length > 0);
  const owned = convention.ownerAttribute !== undefined;
  const kept = [...sourceColumns, 'rule', 'raw', ...(scoped ? ['lscope'] : []), ...(owned ? ['own'] : [])].map((c) => `t1.${c}`);
  // Step 1: what each item is. A matched template whose value is empty or the literal undefined/null is malformed, as in parseLockKey.
  // The source's columns pass through (the item's keys and attributes, and its id or data file).
  const cls = `SELECT ${kept.join(', ')}, CASE
      WHEN tf IS NOT NULL AND (tf IN (${unmapped.join(', ') || '-1'}) OR raw IN ('', 'undefined', 'null')) THEN 'M'
      WHEN tf IS NOT NULL THEN 'L'
      WHEN h_s IS NOT NULL AND (${[...wrong, ...prefixes].join(' OR ') || 'FALSE'}) THEN 'M'
      WHEN ${present} AND (${account}) THEN 'A' END AS kind
  FROM (SELECT t0.*, ${ruleOf} AS rule, ${raw} AS raw, ${lockScope} AS lscope FROM (SELECT it.*, ${owner} AS own, ${tf} AS tf FROM ${source} it) t0) t1`;
  // Step 2: one row per protected value: the lock's value, or each rule value an account holds (S, else N; empty holds nothing).
  // cls carries the attribute columns, so account values need no join back to items.
  const scalar = (name: string): string => `COALESCE(c.a${col(name)}_s, c.a${col(name)}_n)`;
  // The account's key and the lock's owner matter only when locks name their owner: otherwise NULL, not a copy per value.
  const hsOf = (alias: string): string => (owned ? `${alias}h_s` : 'CAST(NULL AS VARCHAR)');
  const accountVals = convention.rules.map((rule, i) => {
    // A scoped value is held only with every scope attribute set (accountScope).
    const scopeAttrs = Object.values(rule.scope ?? {});
    const held = [`${scalar(rule.attribute)} <> ''`, ...scopeAttrs.map((a) => `${scalar(a)} <> ''`)].join(' AND ');
    return `SELECT c.id, ${i} AS rule, ${scalar(rule.attribute)} AS raw, ${scopeText(scopeAttrs.map(scalar))} AS scope, 'A' AS side, ${hsOf('c.')} AS hs, CAST(NULL AS VARCHAR) AS own FROM cls c WHERE c.kind = 'A' AND ${held}`;
  });
  const vals = [
    `SELECT id, rule, raw, ${scoped ? 'lscope' : "''"} AS scope, 'L' AS side, ${hsOf('')} AS hs, ${owned ? 'own' : 'CAST(NULL AS VARCHAR)'} AS own FROM cls WHERE kind = 'L'`,
    ...accountVals,
  ].join('\nUNION ALL\n');
  // Step 3: normalized values. Printable ASCII normalizes the same in SQL; anything else through the JS normalizer (norm_map).
  const normCases = convention.rules.map((rule, i) => {
    // Numbers compare in DynamoDB's canonical form: always through the JS normalizer.
    if (rule.valueType === 'N') return `WHEN ${i} THEN ${dialect.jsNormMap ? 'm.norm' : 'v.raw'}`;
    if (rule.normalize.length === 0) return `WHEN ${i} THEN v.raw`;
    const other = dialect.jsNormMap ? 'm.norm' : approximateNormalizeSql('v.raw', rule.normalize, dialect);
    return `WHEN ${i} THEN CASE WHEN ${dialect.sqlNormalizes('v.raw')} THEN ${normalizeSql('v.raw', rule.normalize)} ELSE ${other} END`;
  });
  const join = dialect.jsNormMap ? 'LEFT JOIN norm_map m ON m.rule = v.rule AND m.raw = v.raw' : '';
  const nv = `SELECT v.id, v.rule, v.scope, v.side, v.hs, v.own, ${normCases.length ? `CASE v.rule ${normCases.join(' ')} END` : 'v.raw'} AS norm FROM vals v ${join}`;
  // Step 4: every (rule, value) that is not exactly one holder with one lock (naming that holder, when locks name owners).
  const ownerOk =
    convention.ownerAttribute === undefined
      ? 'TRUE'
      : `(max(CASE WHEN side = 'L' THEN own END) IS NULL OR max(CASE WHEN side = 'L' THEN own END) = max(CASE WHEN side = 'A' THEN hs END))`;
  const bad = `SELECT rule, scope, norm FROM nv WHERE norm <> '' GROUP BY rule, scope, norm
  HAVING NOT (sum(CASE WHEN side = 'A' THEN 1 ELSE 0 END) = 1 AND sum(CASE WHEN side = 'L' THEN 1 ELSE 0 END) = 1 AND ${ownerOk})`;
  // Step 5: the rows the JS engine reads: (item, rule) of every value in a bad entry, malformed items (rule -1),
  // and locks whose value normalizes to nothing (malformed there too). Rule -2: the keys of up to KEY_SAMPLE_LIMIT
  // items that are neither accounts nor locks (or accounts holding no protected value), the sample the
  // convention's fit looks for misplaced values in (shared/audit/fit.ts), as the live audit keeps it.
  const holdsNothing =
    convention.rules.map((rule) => `COALESCE(${`a${col(rule.attribute)}_s`}, a${col(rule.attribute)}_n, '') = ''`).join(' AND ') || 'TRUE';
  const pull = `SELECT DISTINCT nv.id, nv.rule FROM nv JOIN bad b ON b.rule = nv.rule AND b.scope = nv.scope AND b.norm = nv.norm
  UNION SELECT id, -1 AS rule FROM cls WHERE kind = 'M'
  UNION SELECT id, rule FROM nv WHERE side = 'L' AND norm = ''
  UNION SELECT id, -2 AS rule FROM (SELECT id FROM cls WHERE h_s IS NOT NULL AND (kind IS NULL OR (kind = 'A' AND ${holdsNothing})) LIMIT ${KEY_SAMPLE_LIMIT}) o`;
  return [
    { name: 'cls', select: cls },
    { name: 'vals', select: vals, view: true },
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
      return m.range === undefined || convention.keys.range === undefined
        ? base
        : `${base} AND COALESCE(r_s = ${sqlString(m.range)}, FALSE)`;
    }
    case 'attribute-equals':
      return `COALESCE(a${col(m.attribute)}_s = ${sqlString(m.value)}, FALSE)`;
    case 'not-lock':
      return 'TRUE';
  }
}
