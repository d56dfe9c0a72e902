/**
 * Which of an audit's problems a repair plan covers: all, some kinds, or a set of problem ids
 * (the inspector's current filter or a hand-picked set, computed by the renderer from its rows).
 * Pure: the renderer and main compute the same id for the same problem.
 */
import type { Problem, ProblemKind } from '../model';

/** What to repair; both absent means every problem. `kinds` and `ids` together mean problems matching both. */
export interface RepairSelection {
  readonly kinds?: readonly ProblemKind[];
  readonly ids?: readonly string[];
}

/** A stable id of a problem: its kind, rule, value, scope (sorted) and lock key, as JSON. */
export function problemId(problem: Problem): string {
  const scope = problem.scope ? Object.entries(problem.scope).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : null;
  const lock = problem.lock ? Object.entries(problem.lock).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : null;
  return JSON.stringify([problem.kind, problem.rule ?? null, problem.value, scope, lock]);
}

/** The selected problems in report order, and how many selected ids the report does not hold. */
export function selectProblems(problems: readonly Problem[], selection: RepairSelection): { readonly problems: Problem[]; readonly unknownIds: number } {
  const kinds = selection.kinds ? new Set(selection.kinds) : undefined;
  const ids = selection.ids ? new Set(selection.ids) : undefined;
  const found = new Set<string>();
  const out = problems.filter((p) => {
    if (!ids) return !kinds || kinds.has(p.kind);
    const id = problemId(p);
    if (!ids.has(id)) return false;
    found.add(id);
    return !kinds || kinds.has(p.kind);
  });
  return { problems: out, unknownIds: ids ? [...ids].filter((id) => !found.has(id)).length : 0 };
}
