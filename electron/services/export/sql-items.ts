/**
 * The building blocks every export check is written in: what differs between the two engines
 * (DuckDB, Athena), quoting, and the flat `items` relation the checks read (keys and audit
 * attributes, one column per DynamoDB type). Pure: no I/O.
 */
import type { Convention } from '../../../shared/model';

/** What differs between engines. */
export interface SqlDialect {
  /**
   * True when `expr` normalizes identically in SQL and JS (trim strips only spaces, lower maps only
   * A–Z, NFC changes nothing): ASCII without the whitespace controls JS's trim also strips.
   */
  readonly sqlNormalizes: (expr: string) => string;
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
  /** NFC normalization, where SQL must do it itself (no norm_map). */
  readonly nfc: (expr: string) => string;
}

// DuckDB: byte length = character length (ASCII) and no \t \n \v \f \r — a fifth of the cost of a regexp per value.
const WS_CONTROLS = [9, 10, 11, 12, 13];
/** DuckDB's dialect. */
export const DUCKDB_DIALECT: SqlDialect = {
  sqlNormalizes: (e) => `(strlen(${e}) = length(${e}) AND NOT (${WS_CONTROLS.map((c) => `contains(${e}, chr(${c}))`).join(' OR ')}))`,
  jsNormMap: true,
  textOut: (e) => `to_base64(encode(${e}))`,
  nfc: (e) => `nfc_normalize(${e})`,
};
/** Athena (Trino)'s dialect: printable ASCII (space to `~`) only. */
export const ATHENA_DIALECT: SqlDialect = {
  sqlNormalizes: (e) => `regexp_like(${e}, '^[ -~]*$')`,
  jsNormMap: false,
  textOut: (e) => `to_base64(to_utf8(${e}))`,
  nfc: (e) => `normalize(${e}, NFC)`,
};

/** A SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** A quoted SQL identifier. */
export function sqlIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The attributes an export audit reads besides the keys, each with its column prefix in `items` (`a0`, `a1`, …). */
export function auditAttributes(convention: Convention): string[] {
  const names = new Set<string>();
  for (const rule of convention.rules) {
    names.add(rule.attribute);
    for (const a of Object.values(rule.scope ?? {})) names.add(a);
  }
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
  for (const t of ['S', 'N', 'B'])
    cols.push(
      range ? `${keySource}.${sqlIdent(range.name)}.${t} AS r_${t.toLowerCase()}` : `CAST(NULL AS VARCHAR) AS r_${t.toLowerCase()}`,
    );
  auditAttributes(convention).forEach((name, i) => {
    cols.push(`${source}.${sqlIdent(name)}.S AS a${i}_s`, `${source}.${sqlIdent(name)}.N AS a${i}_n`);
  });
  return cols;
}

/** The names of {@link itemColumns}' columns. */
export function itemColumnNames(convention: Convention): string[] {
  return itemColumns(convention, 'x').map((c) => c.slice(c.lastIndexOf(' AS ') + 4));
}

/** The DynamoDB-JSON struct type of one item as read by DuckDB/Athena: keys and audit attributes only. */
export function itemStructFields(convention: Convention, keysOnly = false): { name: string; types: readonly ('S' | 'N' | 'B')[] }[] {
  const { hash, range } = convention.keys;
  const fields = [{ name: hash.name, types: ['S', 'N', 'B'] as const }];
  if (range) fields.push({ name: range.name, types: ['S', 'N', 'B'] as const });
  if (!keysOnly)
    for (const name of auditAttributes(convention))
      if (!fields.some((f) => f.name === name)) fields.push({ name, types: ['S', 'N', 'B'] as const });
  return fields;
}
