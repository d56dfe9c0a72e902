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
  if (scope.kind === 'malformed')
    return (
      problem.kind === 'malformed-lock' &&
      problem.lock !== undefined &&
      keyId(problem.lock, convention.keys) === keyId(scope.key, convention.keys)
    );
  if (problem.kind === 'malformed-lock' || problem.rule !== scope.rule || problem.value !== scope.normalized) return false;
  const rule = convention.rules[scope.ruleIndex];
  const wanted = rule ? scopeRecord(rule, scope.scope) : undefined;
  return JSON.stringify(problem.scope ?? null) === JSON.stringify(wanted ?? null);
}

/**
 * The problems of `scope`, given every item re-read for it (duplicates by key are read once);
 * `lockItems` are those read from the convention's lock table (a lock there protects; one in the
 * accounts table does not — the audit's own tagging).
 */
export function scopeProblems(
  convention: Convention,
  scope: WatchScope,
  items: readonly Item[],
  lockItems: readonly Item[] = [],
): Problem[] {
  const unique = (list: readonly Item[]): Item[] => [
    ...new Map(list.map((item) => [keyId(keyOf(item, convention.keys), convention.keys), item])).values(),
  ];
  const engine = new AuditEngine(convention, { trackDeltas: false });
  engine.addItems(unique(items));
  if (lockItems.length > 0) engine.addItems(unique(lockItems), 'lock-table');
  return engine.problems().filter((p) => inScope(convention, p, scope));
}
