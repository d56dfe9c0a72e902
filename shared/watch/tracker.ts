/**
 * Which problems the watch has reported and not seen resolved, per scope: the difference between
 * a scope's last known problems and its fresh ones becomes `problem` and `resolved` events. Only
 * open problems are kept (a healthy table costs nothing), so memory follows the table's problems,
 * not the stream's length.
 */
import type { Problem } from '../model';
import type { WatchCause, WatchEvent } from './watch-events';
import type { WatchScope } from './scopes';

/** A problem's identity: the same kind, rule, value, lock and accounts is the same problem. */
export function problemId(problem: Problem): string {
  return JSON.stringify([problem.kind, problem.rule ?? null, problem.value, problem.lock ?? null, problem.accounts ?? null]);
}

/** Open problems by scope. */
export class ProblemTracker {
  private readonly open = new Map<string, Map<string, Problem>>();

  /** Replaces a scope's problems with `fresh` and returns what appeared and what disappeared. */
  update(scope: WatchScope, fresh: readonly Problem[], cause: WatchCause): WatchEvent[] {
    const before = this.open.get(scope.id) ?? new Map<string, Problem>();
    const after = new Map(fresh.map((p) => [problemId(p), p]));
    const events: WatchEvent[] = [];
    for (const [id, problem] of before) if (!after.has(id)) events.push({ event: 'resolved', problem, cause });
    for (const [id, problem] of after) if (!before.has(id)) events.push({ event: 'problem', problem, cause });
    if (after.size === 0) this.open.delete(scope.id);
    else this.open.set(scope.id, after);
    return events;
  }

  /** Whether `fresh` differs from what is known of the scope (nothing is recorded). */
  differs(scope: WatchScope, fresh: readonly Problem[]): boolean {
    const before = this.open.get(scope.id);
    if ((before?.size ?? 0) !== fresh.length) return true;
    return fresh.some((p) => !before?.has(problemId(p)));
  }

  /** Every open problem (for a late subscriber). */
  problems(): Problem[] {
    return [...this.open.values()].flatMap((m) => [...m.values()]);
  }

  /** Open scopes (tests, the soak test's memory check). */
  get size(): number {
    return this.open.size;
  }
}
