/** Readable (non-JSON) output of the CLI: audit reports, lookup answers, detections, progress lines. */
import type { AuditReport } from '../../shared/audit/types';
import type { Convention, KeySchema, PlainKey, Problem } from '../../shared/model';
import { PROBLEM_KINDS } from '../../shared/model';
import { formatKey } from '../../shared/plain-key';
import type { ScanProgress } from '../../shared/scan-types';
import type { LookupAnswer, RuleLookup } from '../services/lookup/lookup-types';

/** Problems listed in the readable report before it points to --json for the rest. */
export const MAX_LISTED_PROBLEMS = 1_000;

const n = (value: number): string => value.toLocaleString('en-US');

/** "EMAIL ↔ email (trim, lowercase), HANDLE ↔ username". */
export function describeRules(convention: Convention): string {
  if (convention.rules.length === 0) return 'no rules';
  return convention.rules.map((r) => `${r.name} ↔ ${r.attribute}${r.normalize.length ? ` (${r.normalize.join(', ')})` : ''}`).join(', ');
}

function keysText(keys: readonly PlainKey[] | undefined, schema: KeySchema): string {
  return (keys ?? []).map((k) => formatKey(k, schema)).join('; ');
}

/** One problem as one line. */
export function problemLine(problem: Problem, schema: KeySchema): string {
  const parts = [problem.kind.padEnd(15), (problem.rule ?? '-').padEnd(10), JSON.stringify(problem.value)];
  if (problem.scope) parts.push(`in ${Object.entries(problem.scope).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}`);
  if (problem.lock) parts.push(`lock ${formatKey(problem.lock, schema)}`);
  if (problem.accounts?.length) parts.push(`${problem.accounts.length > 1 ? 'accounts' : 'account'} ${keysText(problem.accounts, schema)}`);
  if (problem.reason) parts.push(`— ${problem.reason}`);
  return `  ${parts.join('  ')}`;
}

/** Progress as one short line (items, pages, segments, capacity, elapsed). */
export function progressLine(p: ScanProgress): string {
  const capacity = p.capacityUnits > 0 ? `, ${n(Math.round(p.capacityUnits))} RCU` : '';
  const retries = p.retries > 0 ? `, ${n(p.retries)} retries` : '';
  return `${n(p.items)} items, ${n(p.pages)} pages, segments ${p.segmentsDone}/${p.segments}${capacity}${retries}, ${(p.elapsedMs / 1000).toFixed(1)} s`;
}

/** The readable audit report. */
export function auditText(report: AuditReport, progress: ScanProgress, source: string): string {
  const schema = report.convention.keys;
  const total = PROBLEM_KINDS.reduce((sum, k) => sum + report.summary[k], 0);
  const lines = [
    `Table ${report.table}: ${report.complete ? 'complete' : `INCOMPLETE — ${report.reason ?? 'unknown reason'}`}`,
    `Scanned ${n(report.scanned)} items (${progressLine(progress)})`,
    `Convention: ${report.convention.preset} (${source}); rules ${describeRules(report.convention)}${report.convention.ownerAttribute ? `; owner attribute ${report.convention.ownerAttribute}` : ''}`,
    `Accounts: ${n(report.accounts)}   Locks: ${n(report.locks)}`,
    '',
    total === 0 ? (report.complete ? 'No problems found.' : 'No problems found in the part that was scanned.') : `Problems: ${n(total)}`,
  ];
  if (total > 0) {
    for (const kind of PROBLEM_KINDS) if (report.summary[kind] > 0) lines.push(`  ${kind.padEnd(15)}  ${n(report.summary[kind])}`);
    lines.push('');
    for (const problem of report.problems.slice(0, MAX_LISTED_PROBLEMS)) lines.push(problemLine(problem, schema));
    if (report.problems.length > MAX_LISTED_PROBLEMS) lines.push(`  … and ${n(report.problems.length - MAX_LISTED_PROBLEMS)} more (use --json for all)`);
  }
  return `${lines.join('\n')}\n`;
}

function verdictText(rule: RuleLookup, schema: KeySchema): string {
  const holders = keysText(rule.holders, schema);
  switch (rule.verdict) {
    case 'free':
      return 'free (no lock, no account holds it)';
    case 'held':
      return `held by ${holders}`;
    case 'orphan':
      return 'ORPHAN lock (no account holds the value)';
    case 'unprotected':
      return `UNPROTECTED: held by ${holders} but no lock`;
    case 'duplicate':
      return `DUPLICATE: held by ${holders}`;
  }
}

/** The readable lookup answer. */
export function lookupText(answer: LookupAnswer, schema: KeySchema): string {
  const lines = [`Lookup ${JSON.stringify(answer.value)} in ${answer.table}${answer.complete ? '' : ` — INCOMPLETE: ${answer.reason ?? ''}`}`];
  if (answer.scan) lines.push(`Holders found by scan: ${progressLine(answer.scan)}`);
  for (const rule of answer.rules) {
    const how = rule.search.kind === 'gsi' ? `via index ${rule.search.index}` : 'via scan';
    const scope = rule.scope ? ` in ${Object.entries(rule.scope).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}` : '';
    lines.push('', `${rule.rule} (${rule.attribute} = ${JSON.stringify(rule.normalized)}${scope}, holders ${how}): ${verdictText(rule, schema)}`);
    for (const lock of rule.locks) {
      lines.push(`  lock ${formatKey(lock.key, schema)}${lock.legacy ? ' (legacy form)' : ''}: ${lock.exists ? 'exists' : 'absent'}${lock.owner ? `, owner ${lock.owner}` : ''}`);
    }
    for (const note of rule.notes) lines.push(`  note: ${note}`);
  }
  return `${lines.join('\n')}\n`;
}
