/** The readable summary of `audit --all-tables`: a line per table, evidence under a table that needs a convention. */
import type { ProblemSummary } from '../../shared/model';
import { PROBLEM_KINDS } from '../../shared/model';
import { countText } from '../../shared/count-text';

/** Why a table was or was not audited. */
export type TableStatus = 'audited' | 'no-locks' | 'empty' | 'needs-convention' | 'failed' | 'not-started';

/** One table's line of the summary (the `tables[]` entry of `--json`). */
export interface TableOutcome {
  readonly table: string;
  /** Whether it holds lock items; null when that could not be told (a failed read, not started). */
  readonly locks: boolean | null;
  readonly status: TableStatus;
  readonly convention?: { readonly preset: string; readonly source: string; readonly confidence?: number };
  /** Detection's evidence, for a table that needs a convention. */
  readonly evidence?: readonly string[];
  readonly complete: boolean;
  readonly reason?: string;
  /** The single audit's exit code for this table (0, 1 or 2); absent when it was not audited. */
  readonly exit?: number;
  readonly items?: number;
  readonly accounts?: number;
  readonly lockItems?: number;
  /** Exactly the `summary` of `audit --table` for this table. */
  readonly summary?: ProblemSummary;
  /** The single audit's `warnings`, when its report has any (they count in its exit code already). */
  readonly warnings?: readonly unknown[];
}

const n = countText;

/** The convention column: `uniq (detected, confidence 1)`, `file`, or `—`. */
function conventionText(o: TableOutcome): string {
  if (!o.convention) return '—';
  const { preset, source, confidence } = o.convention;
  return source === 'file' ? `${preset} (file)` : `${preset} (${source}${confidence !== undefined ? `, confidence ${confidence}` : ''})`;
}

/** What a table's line says after its convention. */
function outcomeText(o: TableOutcome): string {
  switch (o.status) {
    case 'audited': {
      const summary = o.summary!;
      const total = PROBLEM_KINDS.reduce((sum, k) => sum + summary[k], 0);
      const kinds = PROBLEM_KINDS.filter((k) => summary[k] > 0).map((k) => `${k} ${n(summary[k])}`);
      const problems = total === 0 ? 'no problems' : `${n(total)} problem${total === 1 ? '' : 's'}: ${kinds.join(', ')}`;
      return `${n(o.items ?? 0)} items, ${n(o.accounts ?? 0)} accounts, ${n(o.lockItems ?? 0)} locks  ${problems}  ${o.complete ? 'complete' : `INCOMPLETE — ${o.reason ?? 'unknown reason'}`}`;
    }
    case 'no-locks':
    case 'empty':
      return `no locks: ${o.reason ?? ''}`;
    case 'needs-convention':
      return `NEEDS A CONVENTION — ${o.reason ?? ''}`;
    case 'failed':
      return `FAILED — ${o.reason ?? ''}`;
    case 'not-started':
      return `not audited — ${o.reason ?? ''}`;
  }
}

/** The readable summary. */
export function fleetText(document: {
  readonly endpoint: string;
  readonly region: string;
  readonly complete: boolean;
  readonly reason?: string;
  readonly tables: readonly TableOutcome[];
  readonly hint?: string;
}): string {
  const { tables } = document;
  const width = Math.max(5, ...tables.map((t) => t.table.length));
  const conventions = tables.map(conventionText);
  const cwidth = Math.max(10, ...conventions.map((c) => c.length));
  const lines = [
    `${n(tables.length)} table${tables.length === 1 ? '' : 's'} at ${document.endpoint} (${document.region})${document.reason ? ` — ${document.reason}` : ''}${document.hint ? `: ${document.hint}` : ''}`,
  ];
  tables.forEach((t, i) => {
    lines.push(`  ${t.table.padEnd(width)}  ${conventions[i]!.padEnd(cwidth)}  ${outcomeText(t)}`);
    for (const line of t.evidence ?? []) lines.push(`      ${line}`);
  });
  return `${lines.join('\n')}\n`;
}
