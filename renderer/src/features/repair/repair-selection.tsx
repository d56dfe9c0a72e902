/** Which problems to repair: all, one kind, the inspector's current filter, or a hand-picked set. */
import { useState, type FormEvent } from 'react';
import { scopeList } from '../../../../shared/conventions/scope';
import { PROBLEM_KINDS, type Problem, type ProblemKind } from '../../../../shared/model';
import { problemId } from '../../../../shared/repair/select';
import type { InspectorFilter } from '../inspector/row-filter';
import { PROBLEM_LABEL } from '../inspector/status-chips';
import { VisibleText } from '../../components/visible-text-view';

/** What the bridge is asked to plan. */
export interface SelectionRequest {
  readonly kinds?: ProblemKind[];
  readonly ids?: string[];
}

/** The hand-picked list shows this many problems at most (a larger set: choose a kind or the filter). */
const MAX_LISTED = 500;

/** A problem in the hand-picked list: its value (and scope) shown with hidden characters marked, as in the inspector. */
function Label({ p }: { p: Problem }) {
  const scope = p.scope ? ` in ${scopeList(p.scope)}` : '';
  return (
    <>
      {PROBLEM_LABEL[p.kind]} · {p.rule ? `${p.rule.toLowerCase()} ` : ''}
      <VisibleText text={`${p.value}${scope}`} />
    </>
  );
}

/** The problems the selection offers, from the inspector's row store: of every row, and of the rows its filter keeps. */
export interface RepairProblems {
  readonly all: readonly Problem[];
  readonly filtered: readonly Problem[];
}

/** The selection form; `onPlan` receives the request. */
export function RepairSelection({
  problems,
  filter,
  planning,
  onPlan,
}: {
  problems: RepairProblems;
  filter: InspectorFilter;
  planning: boolean;
  onPlan: (request: SelectionRequest) => void;
}) {
  const { all, filtered } = problems;
  const present = PROBLEM_KINDS.filter((k) => all.some((p) => p.kind === k));
  const [mode, setMode] = useState<'all' | 'kind' | 'filter' | 'picked'>('all');
  const [kind, setKind] = useState<ProblemKind>(present[0] ?? 'orphan-lock');
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set());
  const filterKind = filter.filter !== 'all' && filter.filter !== 'problems' ? filter.filter : undefined;
  const filterWords = `${filter.filter === 'all' ? 'all rows' : filter.filter === 'problems' ? 'problem rows' : PROBLEM_LABEL[filter.filter]}${filter.search.trim() ? `, search “${filter.search.trim()}”` : ''}`;
  const count =
    mode === 'all'
      ? all.length
      : mode === 'kind'
        ? all.filter((p) => p.kind === kind).length
        : mode === 'filter'
          ? filtered.filter((p) => !filterKind || p.kind === filterKind).length
          : picked.size;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'all') onPlan({});
    else if (mode === 'kind') onPlan({ kinds: [kind] });
    else if (mode === 'filter') onPlan({ ...(filterKind ? { kinds: [filterKind] } : {}), ids: filtered.map(problemId) });
    else onPlan({ ids: [...picked] });
  };
  const toggle = (id: string) =>
    setPicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <form className="stack" onSubmit={submit} data-testid="repair-selection">
      <fieldset className="stack">
        <legend>Repair which problems?</legend>
        <label className="row">
          <input type="radio" name="repair-mode" checked={mode === 'all'} onChange={() => setMode('all')} data-testid="repair-mode-all" />{' '}
          All problems ({all.length})
        </label>
        <label className="row">
          <input
            type="radio"
            name="repair-mode"
            checked={mode === 'kind'}
            onChange={() => setMode('kind')}
            data-testid="repair-mode-kind"
          />{' '}
          One kind:
          <select
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as ProblemKind);
              setMode('kind');
            }}
            aria-label="Problem kind"
            data-testid="repair-kind"
          >
            {PROBLEM_KINDS.map((k) => (
              <option key={k} value={k}>
                {PROBLEM_LABEL[k]} ({all.filter((p) => p.kind === k).length})
              </option>
            ))}
          </select>
        </label>
        <label className="row">
          <input
            type="radio"
            name="repair-mode"
            checked={mode === 'filter'}
            onChange={() => setMode('filter')}
            data-testid="repair-mode-filter"
          />{' '}
          The inspector's current filter ({filterWords})
        </label>
        <label className="row">
          <input
            type="radio"
            name="repair-mode"
            checked={mode === 'picked'}
            onChange={() => setMode('picked')}
            data-testid="repair-mode-picked"
          />{' '}
          Hand-picked
        </label>
      </fieldset>
      {mode === 'picked' ? (
        <ul className="repair-pick-list" data-testid="repair-pick-list">
          {all.slice(0, MAX_LISTED).map((p) => {
            const id = problemId(p);
            return (
              <li key={id}>
                <label className="row">
                  <input type="checkbox" checked={picked.has(id)} onChange={() => toggle(id)} /> <Label p={p} />
                </label>
              </li>
            );
          })}
          {all.length > MAX_LISTED ? (
            <li className="muted">…and {all.length - MAX_LISTED} more: choose a kind or filter the inspector to plan them.</li>
          ) : null}
        </ul>
      ) : null}
      <p className="muted">
        Duplicates, owner mismatches and malformed locks are never fixed automatically: the plan lists them as left for you.
      </p>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={planning || count === 0} data-testid="repair-make-plan">
          {planning ? 'Planning (fresh reads)…' : `Plan the repair of ${count} problem(s)`}
        </button>
      </div>
    </form>
  );
}
