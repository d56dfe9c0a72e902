/**
 * From the rows an export audit's SQL pulls (keys and audit attributes of the items that are not
 * plainly healthy) to the report: the shared JS audit engine derives the problems, the SQL's counts
 * count every item. Shared by the DuckDB and Athena engines, and free of either's client.
 */
import { AuditEngine } from '../../../shared/audit/engine';
import { fitWarnings, ruleFits } from '../../../shared/audit/fit';
import type { AuditReport, GroupRow } from '../../../shared/audit/types';
import type { Convention, Item } from '../../../shared/model';
import { base64Decode } from '../../../shared/plain-key';
import { auditAttributes } from './sql-items';

function typed(s: unknown, n: unknown, b?: unknown): Item[string] | undefined {
  // Text arrives as base64 of its UTF-8 bytes (see SqlDialect.textOut).
  if (typeof s === 'string') return { S: Buffer.from(s, 'base64').toString('utf8') };
  if (typeof n === 'string') return { N: n };
  if (typeof b === 'string') return { B: base64Decode(b) ?? new Uint8Array() };
  return undefined;
}

/** Rebuilds the item the JS engine reads for `rules` (-1: keys only): keys, those rules' attributes, owner and account-type attributes. */
function pulledItem(convention: Convention, row: Record<string, unknown>, rules: readonly number[]): Item {
  const attrs = auditAttributes(convention);
  const item: Item = {};
  const hash = typed(row.h_s, row.h_n, row.h_b);
  if (hash) item[convention.keys.hash.name] = hash;
  const range = typed(row.r_s, row.r_n, row.r_b);
  if (convention.keys.range && range) item[convention.keys.range.name] = range;
  const put = (name: string): void => {
    const i = attrs.indexOf(name);
    const value = typed(row[`a${i}_s`], row[`a${i}_n`]);
    if (value) item[name] = value;
  };
  if (convention.ownerAttribute !== undefined) put(convention.ownerAttribute);
  if (convention.account.kind === 'attribute-equals') put(convention.account.attribute);
  for (const r of rules) {
    if (r < 0) continue;
    const rule = convention.rules[r]!;
    put(rule.attribute);
    for (const a of Object.values(rule.scope ?? {})) put(a);
  }
  return item;
}

/** A row the inspector shows from an export: an account with a problem, or a stray (orphan or malformed) lock. */
export function isProblemRow(row: GroupRow): boolean {
  return row.kind !== 'account' || row.problems.length > 0;
}

/** Report counts as SQL returns them (numbers, or big integers as text). */
export interface SqlCounts {
  readonly scanned: string | number;
  readonly accounts: string | number | null;
  readonly locks: string | number | null;
  /** Per rule, the distinct values accounts hold (heldSql): the fit needs them, and healthy values are never pulled. */
  readonly held?: readonly number[];
}

/**
 * The report from the pulled rows (ordered by id, then rule; text columns as base64) and the counts
 * of every item: the shared JS engine derives the problems, the counts are the SQL's. Shared by the
 * DuckDB and Athena engines.
 */
export async function reportFromPulled(
  convention: Convention,
  table: string,
  counts: SqlCounts,
  pages: AsyncIterable<readonly Record<string, unknown>[]>,
  options: { readonly rows?: boolean } = {},
): Promise<{ report: AuditReport; pulled: number; rows?: GroupRow[] }> {
  const engine = new AuditEngine(convention, { trackDeltas: false });
  let pulled = 0;
  let current: { id: string; row: Record<string, unknown>; rules: number[] } | undefined;
  let batch: Item[] = [];
  const flush = (): void => {
    if (current) batch.push(pulledItem(convention, current.row, current.rules));
    if (batch.length >= 1000) {
      engine.addItems(batch);
      batch = [];
    }
  };
  for await (const rows of pages) {
    for (const row of rows) {
      const id = String(row.id);
      if (current?.id !== id) {
        flush();
        pulled++;
        current = { id, row, rules: [] };
      }
      current.rules.push(Number(row.pulled_rule));
    }
  }
  flush();
  engine.addItems(batch);
  const report = engine.report({ table, complete: true });
  // The engine saw only the pulled rows (the key sample among them, rule -2); the held values are the SQL's, as a scan would count them.
  const warnings = fitWarnings(
    ruleFits({ convention, problems: report.problems, held: counts.held ?? engine.heldValues(), otherKeys: engine.otherKeys() }),
  );
  // The engine saw only the pulled rows; the counts are of every item, as a scan would count them.
  const out = {
    report: {
      ...report,
      scanned: Number(counts.scanned),
      accounts: Number(counts.accounts ?? 0),
      locks: Number(counts.locks ?? 0),
      warnings,
    },
    pulled,
  };
  // The app's inspector shows the problem groups: healthy accounts were never pulled, and a pulled one without a problem would read as the whole story.
  return options.rows ? { ...out, rows: engine.rows().filter(isProblemRow) } : out;
}
