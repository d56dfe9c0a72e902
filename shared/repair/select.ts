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

/** The shape of a problem id: `<kind>:<28 hex digits>`. */
export const PROBLEM_ID_PATTERN = /^[a-z-]{1,20}:[0-9a-f]{28}$/;

/** cyrb53: a fast 53-bit string hash (pure JS; shared/ cannot use node:crypto). */
function cyrb53(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * A stable, short id of a problem: its kind and a 106-bit hash (two seeds) of its rule, value, scope
 * and lock key. Short because a hand-picked or filtered selection of thousands of problems crosses
 * the bridge as ids (browser mode takes 1 MB per request).
 */
export function problemId(problem: Problem): string {
  const scope = problem.scope ? Object.entries(problem.scope).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : null;
  const lock = problem.lock ? Object.entries(problem.lock).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : null;
  const text = JSON.stringify([problem.kind, problem.rule ?? null, problem.value, scope, lock]);
  return `${problem.kind}:${cyrb53(text, 1)}${cyrb53(text, 2)}`;
}

/** The selected problems in report order, and how many selected ids the report does not hold. */
export function selectProblems(
  problems: readonly Problem[],
  selection: RepairSelection,
): { readonly problems: Problem[]; readonly unknownIds: number } {
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
