/**
 * The live watch's list, as a pure reducer over `watch.events`: a problem that appears is added
 * (marked new, with its cause), a resolved one is removed, status events set the status. Keyed
 * by the same problem identity the watch uses, so a replayed problem is never listed twice.
 */
import type { Problem } from '../../../../shared/model';
import { problemId } from '../../../../shared/watch/tracker';
import type { LiveWatchEvent, LiveWatchStatus, WatchCause } from '../../../../shared/watch/watch-events';

/** One problem the live watch has seen appear and not yet seen resolved. */
export interface LiveProblem {
  readonly id: string;
  readonly problem: Problem;
  readonly cause: WatchCause;
}

/** The live list and status. */
export interface LiveProblems {
  readonly status: LiveWatchStatus | undefined;
  readonly reason: string | undefined;
  /** Newest first. */
  readonly problems: readonly LiveProblem[];
  /** How many problems were resolved while watching (they leave the list). */
  readonly resolved: number;
}

/** Nothing seen yet. */
export const NO_LIVE_PROBLEMS: LiveProblems = { status: undefined, reason: undefined, problems: [], resolved: 0 };

/** Applies one event. */
export function applyLiveEvent(state: LiveProblems, event: LiveWatchEvent): LiveProblems {
  switch (event.event) {
    case 'status':
      return { ...state, status: event.status, reason: event.reason };
    case 'problem': {
      const id = problemId(event.problem);
      if (state.problems.some((p) => p.id === id)) return state;
      return { ...state, problems: [{ id, problem: event.problem, cause: event.cause }, ...state.problems] };
    }
    case 'resolved': {
      const id = problemId(event.problem);
      const problems = state.problems.filter((p) => p.id !== id);
      return problems.length === state.problems.length ? state : { ...state, problems, resolved: state.resolved + 1 };
    }
    case 'watching':
      return state;
  }
}
