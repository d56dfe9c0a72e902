/**
 * The app's standing convention warnings: what the latest complete audit of each table, on each
 * connection target, under each convention, found the table contradicts (shared/audit/fit.ts). A
 * claim or release under a warned rule is previewed only with the convention saved for the table
 * (saved through the Convention tab: a person reviewed it) — the one gate every lock write passes.
 */
import type { ConventionWarning } from '../../../shared/audit/fit';
import type { AuditReport } from '../../../shared/audit/types';
import type { Convention } from '../../../shared/model';
import { canonicalJson } from './audit-index';

/** Entries kept (one per target, table and convention): the oldest go first. */
const MAX_ENTRIES = 64;

/** The standing warnings of one process (the app or `serve`). */
export class StandingWarnings {
  private readonly entries = new Map<string, readonly ConventionWarning[]>();

  /** Records what a finished audit found; an incomplete one changes nothing, a clean complete one clears. */
  record(target: string, report: Pick<AuditReport, 'table' | 'complete' | 'convention' | 'warnings'>): void {
    if (!report.complete) return;
    const key = JSON.stringify([target, report.table, canonicalJson(report.convention)]);
    this.entries.delete(key);
    if (report.warnings.length > 0) this.entries.set(key, report.warnings);
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** The warning standing for `rule` of `convention` on `table` at `target`, if any. */
  find(target: string, table: string, convention: Convention, rule: string): ConventionWarning | undefined {
    return this.entries.get(JSON.stringify([target, table, canonicalJson(convention)]))?.find((w) => w.rule === rule);
  }
}

/**
 * The refusal of a write to a warned rule's locks (a claim, a release, a signup, a change of value, a deleted account) whose convention is not the table's saved
 * (reviewed) one; undefined when it may go on.
 */
export function warnedRuleRefusal(
  warning: ConventionWarning | undefined,
  convention: Convention,
  saved: Convention | undefined,
): string | undefined {
  if (warning === undefined) return undefined;
  if (saved !== undefined && canonicalJson(saved) === canonicalJson(convention)) return undefined;
  return `${warning.message}. Writes to the locks of ${warning.rule} need a reviewed convention: check it in the Convention tab and save it for this table (or fix it and audit again). Nothing was sent.`;
}
