/**
 * Deciding a scope's problems from its consistent re-reads. The rules are the audit's own: the
 * re-read items go through a fresh AuditEngine (the same classification and derive.ts rules as a
 * full audit), and only the problems of the scope are kept — the re-read accounts' other values
 * were not re-checked, so their "missing" locks mean nothing here.
 */
import { AuditEngine } from '../audit/engine';
import { scopeRecord } from '../conventions/scope';
import type { Convention, Item, Problem } from '../model';
import { keyId, keyOf } from '../plain-key';
import type { WatchScope } from './scopes';

/** Whether `problem` belongs to `scope`. */
export function inScope(convention: Convention, problem: Problem, scope: WatchScope): boolean {
  if (scope.kind === 'malformed') return problem.kind === 'malformed-lock' && problem.lock !== undefined && keyId(problem.lock, convention.keys) === keyId(scope.key, convention.keys);
  if (problem.kind === 'malformed-lock' || problem.rule !== scope.rule || problem.value !== scope.normalized) return false;
  const rule = convention.rules[scope.ruleIndex];
  const wanted = rule ? scopeRecord(rule, scope.scope) : undefined;
  return JSON.stringify(problem.scope ?? null) === JSON.stringify(wanted ?? null);
}

/** The problems of `scope`, given every item re-read for it (duplicates by key are read once). */
export function scopeProblems(convention: Convention, scope: WatchScope, items: readonly Item[]): Problem[] {
  const unique = new Map<string, Item>();
  for (const item of items) unique.set(keyId(keyOf(item, convention.keys), convention.keys), item);
  const engine = new AuditEngine(convention, { trackDeltas: false });
  engine.addItems([...unique.values()]);
  return engine.problems().filter((p) => inScope(convention, p, scope));
}
