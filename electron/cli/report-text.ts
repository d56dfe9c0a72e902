/** Readable (non-JSON) output of the CLI: audit reports, lookup answers, detections, progress lines. */
import type { AuditReport } from '../../shared/audit/types';
import type { Convention, KeySchema, PlainKey, Problem } from '../../shared/model';
import { PROBLEM_KINDS } from '../../shared/model';
import { formatKey } from '../../shared/plain-key';
import { shownText, shownValue } from '../../shared/terminal-text';
import type { ScanProgress } from '../../shared/scan-types';
import type { LookupAnswer, RuleLookup } from '../services/lookup/lookup-types';
import { PLAIN, type Style } from './style';
import { countText } from '../../shared/count-text';

/** Problems listed in the readable report before it points to --json for the rest. */
export const MAX_LISTED_PROBLEMS = 1_000;

const n = countText;

/** "EMAIL ↔ email (trim, lowercase), HANDLE ↔ username". */
export function describeRules(convention: Convention): string {
  if (convention.rules.length === 0) return 'no rules';
  return convention.rules.map((r) => `${r.name} ↔ ${r.attribute}${r.normalize.length ? ` (${r.normalize.join(', ')})` : ''}`).join(', ');
}

function keysText(keys: readonly PlainKey[] | undefined, schema: KeySchema): string {
  return (keys ?? []).map((k) => formatKey(k, schema)).join('; ');
}

/** Column widths of a problem list: kinds and rules padded to the longest shown, so the values line up. */
export interface ProblemColumns {
  readonly kind: number;
  readonly rule: number;
}

/** The widths that align `problems`. */
export function problemColumns(problems: readonly Problem[]): ProblemColumns {
  return problems.reduce((w, p) => ({ kind: Math.max(w.kind, p.kind.length), rule: Math.max(w.rule, (p.rule ?? '-').length) }), {
    kind: 0,
    rule: 0,
  });
}

/** One problem as one line (columns aligned to `columns`, the kind coloured by `style`). */
export function problemLine(
  problem: Problem,
  schema: KeySchema,
  columns: ProblemColumns = problemColumns([problem]),
  style: Style = PLAIN,
): string {
  const kind = problem.kind.padEnd(columns.kind);
  const parts = [
    problem.kind === 'owner-mismatch' ? style.warn(kind) : style.bad(kind),
    (problem.rule ?? '-').padEnd(columns.rule),
    shownValue(problem.value),
  ];
  if (problem.scope)
    parts.push(
      `in ${Object.entries(problem.scope)
        .map(([k, v]) => `${shownText(k)}=${shownValue(v)}`)
        .join(', ')}`,
    );
  if (problem.lock) parts.push(`lock ${formatKey(problem.lock, schema)}`);
  if (problem.accounts?.length) parts.push(`${problem.accounts.length > 1 ? 'accounts' : 'account'} ${keysText(problem.accounts, schema)}`);
  if (problem.reason) parts.push(style.dim(`— ${shownText(problem.reason)}`));
  return `  ${parts.join('  ')}`;
}

/**
 * How long the rest of a scan should take, from the rate so far and the table's approximate item
 * count (DescribeTable's, refreshed about every six hours); undefined when it cannot be told.
 */
export function etaMs(p: ScanProgress, expectedItems: number | undefined): number | undefined {
  if (!expectedItems || p.items <= 0 || p.elapsedMs <= 0 || p.items >= expectedItems) return undefined;
  return (p.elapsedMs / p.items) * (expectedItems - p.items);
}

/** Progress as one short line (items, pages, segments, capacity, elapsed, and an ETA when the table's size is known). */
export function progressLine(p: ScanProgress, expectedItems?: number): string {
  const capacity = p.capacityUnits > 0 ? `, ${n(Math.round(p.capacityUnits))} RCU` : '';
  const retries = p.retries > 0 ? `, ${n(p.retries)} retries` : '';
  const eta = etaMs(p, expectedItems);
  const left =
    eta === undefined ? '' : `, ~${Math.min(99, Math.floor((p.items / (expectedItems ?? 1)) * 100))}%, about ${formatDuration(eta)} left`;
  return `${n(p.items)} items, ${n(p.pages)} pages, segments ${p.segmentsDone}/${p.segments}${capacity}${retries}, ${(p.elapsedMs / 1000).toFixed(1)} s${left}`;
}

/** "45 s", "3 min 20 s", "1 h 5 min". */
export function formatDuration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
}

/** The readable audit report. */
export function auditText(report: AuditReport, progress: ScanProgress, source: string, style: Style = PLAIN): string {
  const schema = report.convention.keys;
  const total = PROBLEM_KINDS.reduce((sum, k) => sum + report.summary[k], 0);
  const lines = [
    `Table ${style.bold(report.table)}: ${report.complete ? style.good('complete') : style.bad(`INCOMPLETE — ${report.reason ?? 'unknown reason'}`)}`,
    `Scanned ${n(report.scanned)} items (${progressLine(progress)})`,
    `Convention: ${report.convention.preset} (${source}); rules ${describeRules(report.convention)}${report.convention.ownerAttribute ? `; owner attribute ${report.convention.ownerAttribute}` : ''}`,
    `Accounts: ${n(report.accounts)}   Locks: ${n(report.locks)}`,
    '',
    // The convention's own verdict comes before the problems: they are read through it.
    ...(report.warnings ?? []).map((w) => style.bad(`WARNING ${w.rule}: ${w.message}`)),
    total === 0
      ? report.complete
        ? style.good('No problems found.')
        : style.warn('No problems found in the part that was scanned.')
      : style.bold(`Problems: ${n(total)}`),
  ];
  if (total > 0) {
    const kinds = PROBLEM_KINDS.filter((kind) => report.summary[kind] > 0);
    const kindWidth = Math.max(...kinds.map((k) => k.length));
    const countWidth = Math.max(...kinds.map((k) => n(report.summary[k]).length));
    for (const kind of kinds) lines.push(`  ${kind.padEnd(kindWidth)}  ${n(report.summary[kind]).padStart(countWidth)}`);
    lines.push('');
    const listed = report.problems.slice(0, MAX_LISTED_PROBLEMS);
    const columns = problemColumns(listed);
    for (const problem of listed) lines.push(problemLine(problem, schema, columns, style));
    if (report.problems.length > MAX_LISTED_PROBLEMS)
      lines.push(`  … and ${n(report.problems.length - MAX_LISTED_PROBLEMS)} more (use --json for all)`);
  }
  return `${lines.join('\n')}\n`;
}

function verdictText(rule: RuleLookup, schema: KeySchema, style: Style): string {
  const holders = keysText(rule.holders, schema);
  switch (rule.verdict) {
    case 'free':
      return 'free (no lock, no account holds it)';
    case 'held':
      return style.good(`held by ${holders}`);
    case 'orphan':
      return style.bad('ORPHAN lock (no account holds the value)');
    case 'unprotected':
      return style.bad(`UNPROTECTED: held by ${holders} but no lock`);
    case 'duplicate':
      return style.bad(`DUPLICATE: held by ${holders}`);
  }
}

/** The readable lookup answer. */
export function lookupText(answer: LookupAnswer, schema: KeySchema, style: Style = PLAIN): string {
  const lines = [`Lookup ${shownValue(answer.value)} in ${answer.table}${answer.complete ? '' : ` — INCOMPLETE: ${answer.reason ?? ''}`}`];
  if (answer.scan) lines.push(`Holders found by scan: ${progressLine(answer.scan)}`);
  for (const rule of answer.rules) {
    const how =
      rule.search.kind === 'gsi'
        ? `via index ${rule.search.index}`
        : rule.search.kind === 'audit'
          ? `from the audit of ${rule.search.auditedAt}, re-read by key`
          : 'via scan';
    const scope = rule.scope
      ? ` in ${Object.entries(rule.scope)
          .map(([k, v]) => `${shownText(k)}=${shownValue(v)}`)
          .join(', ')}`
      : '';
    lines.push(
      '',
      `${rule.rule} (${rule.attribute} = ${shownValue(rule.normalized)}${scope}, holders ${how}): ${verdictText(rule, schema, style)}`,
    );
    for (const lock of rule.locks) {
      lines.push(
        `  lock ${formatKey(lock.key, schema)}${lock.legacy ? ' (legacy form)' : ''}: ${lock.exists ? 'exists' : 'absent'}${lock.owner ? `, owner ${shownText(lock.owner)}` : ''}`,
      );
    }
    for (const note of rule.notes) lines.push(`  note: ${shownText(note)}`);
  }
  return `${lines.join('\n')}\n`;
}
