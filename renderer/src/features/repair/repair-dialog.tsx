/** The "Repair…" entry of the inspector and its dialog: selection → plan → typed confirmation → progress → outcome → re-check. */
import { useCallback, useEffect, useState } from 'react';
import { useWorkspace } from '../../workspace/workspace-context';
import { Dialog } from '../../components/dialog';
import { ErrorBox } from '../../components/error-box';
import { useAuditRun } from '../inspector/audit-context';
import type { InspectorFilter } from '../inspector/row-filter';
import { RepairOutcome } from './repair-outcome';
import { RepairPlanPanel } from './repair-plan-panel';
import { RepairSelection, type RepairProblems } from './repair-selection';
import { useRepair } from './use-repair';

/** The dialog for one complete audit run of `table`. */
function RepairDialog({
  connectionId,
  table,
  filter,
  onClose,
}: {
  connectionId: string;
  table: string;
  filter: InspectorFilter;
  onClose: () => void;
}) {
  const { connection } = useWorkspace();
  const audit = useAuditRun();
  const { start, convention } = audit;
  const auditAgain = useCallback(() => start(convention), [start, convention]);
  const flow = useRepair(connectionId, table, audit.runId, audit.convention, audit.patch, auditAgain);
  const running = flow.step === 'executing';
  // The rows live in the inspector's row store (a worker): it answers with their problems, again after every change.
  const { shownProblems, rows } = audit;
  const keys = convention?.keys;
  const [problems, setProblems] = useState<RepairProblems>();
  const [problemsError, setProblemsError] = useState<string>();
  const { filter: kind, search } = filter;
  useEffect(() => {
    if (!keys) return undefined;
    let live = true;
    void Promise.all([shownProblems({ filter: 'all', search: '' }, keys), shownProblems({ filter: kind, search }, keys)]).then(
      ([all, shown]) => {
        if (live) setProblems({ all: all.problems, filtered: shown.problems });
      },
      (error: unknown) => {
        // The row store failed: nothing can be selected from rows it lost.
        if (live) setProblemsError(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      live = false;
    };
  }, [shownProblems, keys, kind, search, rows.version]);
  return (
    <Dialog title={`Repair ${table}`} onClose={running ? () => undefined : onClose} testId="repair-dialog">
      <ErrorBox
        error={flow.error}
        title={flow.error?.outcome === 'unknown' ? 'Lost track of the repair — it may still be running' : 'The repair could not go on'}
      />
      <ErrorBox
        error={problemsError === undefined ? undefined : { kind: 'internal', message: problemsError }}
        title="The problems could not be read"
      />
      {(flow.step === 'select' || flow.step === 'planning') && problems ? (
        <RepairSelection
          problems={problems}
          filter={filter}
          planning={flow.step === 'planning'}
          onPlan={(request) => void flow.makePlan(request)}
        />
      ) : null}
      {flow.step === 'plan' && flow.plan ? (
        <RepairPlanPanel plan={flow.plan} connection={connection} onExecute={(c) => void flow.execute(c)} onBack={flow.back} />
      ) : null}
      {(running || flow.step === 'finished') && flow.plan ? (
        <RepairOutcome plan={flow.plan} status={flow.status} running={running} onStop={() => void flow.stop()} />
      ) : null}
      {flow.recheck === 'audit' ? (
        <p className="muted" role="status" data-testid="repair-recheck">
          Many values changed: the table is audited again.
        </p>
      ) : flow.recheck ? (
        <p className="muted" role="status" data-testid="repair-recheck" data-done={String(flow.recheck.done === flow.recheck.total)}>
          Re-checked {flow.recheck.done} of {flow.recheck.total} repaired value(s) in the inspector.
        </p>
      ) : null}
      {flow.step === 'finished' ? (
        <div className="row">
          <button type="button" className="btn" onClick={onClose} data-testid="repair-close">
            Close
          </button>
        </div>
      ) : null}
    </Dialog>
  );
}

/** The inspector's "Repair…" button: enabled on a complete audit with problems. */
export function RepairButton({ table, filter }: { table: string; filter: InspectorFilter }) {
  const { connection } = useWorkspace();
  const audit = useAuditRun();
  const [open, setOpen] = useState(false);
  const counts = audit.rows.counts?.summary;
  const problems = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : 0;
  const ready = audit.phase === 'done' && audit.complete === true && !audit.stale && audit.runId !== undefined && connection !== undefined;
  const why = !ready ? 'Repair needs a complete audit.' : problems === 0 ? 'No problems to repair.' : undefined;
  return (
    <>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => setOpen(true)}
        disabled={why !== undefined}
        title={why}
        data-testid="repair-open"
      >
        Repair…
      </button>
      {open && connection ? (
        <RepairDialog connectionId={connection.id} table={table} filter={filter} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}
