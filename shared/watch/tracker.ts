/**
 * Which problems the watch has reported and not seen resolved, per scope: the difference between
 * a scope's last known problems and its fresh ones becomes `problem` and `resolved` events. Only
 * open problems are kept (a healthy table costs nothing), so memory follows the table's problems,
 * not the stream's length.
 */
import type { Problem } from '../model';
import type { WatchCause, WatchEvent } from './watch-events';
import type { WatchScope } from './scopes';

/** A problem's identity: the same kind, rule, value, scope, lock and accounts is the same problem. */
export function problemId(problem: Problem): string {
  return JSON.stringify([
    problem.kind,
    problem.rule ?? null,
    problem.value,
    problem.scope ?? null,
    problem.lock ?? null,
    problem.accounts ?? null,
  ]);
}

/** An open problem and the write that caused it. */
export interface OpenProblem {
  readonly problem: Problem;
  readonly cause: WatchCause;
}

/** Open problems by scope. */
export class ProblemTracker {
  private readonly open = new Map<string, Map<string, OpenProblem>>();

  /** Replaces a scope's problems with `fresh` and returns what appeared and what disappeared. */
  update(scope: WatchScope, fresh: readonly Problem[], cause: WatchCause): WatchEvent[] {
    const before = this.open.get(scope.id) ?? new Map<string, OpenProblem>();
    const after = new Map<string, OpenProblem>();
    const events: WatchEvent[] = [];
    for (const problem of fresh) {
      const id = problemId(problem);
      const known = before.get(id);
      after.set(id, known ?? { problem, cause });
      if (!known) events.push({ event: 'problem', problem, cause });
    }
    const resolved: WatchEvent[] = [...before]
      .filter(([id]) => !after.has(id))
      .map(([, open]) => ({ event: 'resolved', problem: open.problem, cause }));
    if (after.size === 0) this.open.delete(scope.id);
    else this.open.set(scope.id, after);
    return [...resolved, ...events];
  }

  /** Whether `fresh` differs from what is known of the scope (nothing is recorded). */
  differs(scope: WatchScope, fresh: readonly Problem[]): boolean {
    const before = this.open.get(scope.id);
    if ((before?.size ?? 0) !== fresh.length) return true;
    return fresh.some((p) => !before?.has(problemId(p)));
  }

  /** Every open problem with the write that caused it (for a late subscriber). */
  problems(): OpenProblem[] {
    return [...this.open.values()].flatMap((m) => [...m.values()]);
  }

  /** Open scopes (tests, the soak test's memory check). */
  get size(): number {
    return this.open.size;
  }
}
