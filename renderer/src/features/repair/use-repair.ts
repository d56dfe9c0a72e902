/**
 * The repair flow, the guarded-write flow (use-guarded-write.ts) over `repair.plan` and `repair.execute`:
 * plan (main reads fresh and packs the transactions) → the action count typed back
 * → execute, followed on the `repair.events` stream (Stop asks main to stop between transactions) →
 * the values of the applied fixes looked up again and the inspector rows patched in place.
 */
import { useCallback, useMemo, useState } from 'react';
import type { LocksmithBridge, LookupView, RepairPlanView, RepairStatusView } from '../../../../shared/contract';
import type { Convention, ProblemKind } from '../../../../shared/model';
import type { AppError, Result } from '../../../../shared/result';
import { useBridge } from '../../bridge/bridge-context';
import { useGuardedWrite, type GuardedWriteCalls, type GuardedWriteStep } from '../guarded-write/use-guarded-write';

/** Where the flow is. */
export type RepairStep = 'select' | 'planning' | 'plan' | 'executing' | 'finished';

/** Whether an execution still goes on (more events will come). */
const running = (status: RepairStatusView): boolean => status.phase === 'running' || status.phase === 'stopping';
/** Up to this many applied values are looked up again one by one; more and the table is audited again. */
export const MAX_RECHECKS = 40;
/** Lookups in flight at once while re-checking. */
const RECHECK_CONCURRENCY = 4;

/** State and actions of one repair. */
export interface RepairFlow {
  readonly step: RepairStep;
  readonly plan: RepairPlanView | undefined;
  readonly status: RepairStatusView | undefined;
  readonly error: AppError | undefined;
  /** After the execution: values re-checked so far, of how many ('audit' when the table is audited again instead). */
  readonly recheck: { readonly done: number; readonly total: number } | 'audit' | undefined;
  readonly makePlan: (selection: { kinds?: ProblemKind[]; ids?: string[] }) => Promise<void>;
  readonly execute: (confirmation: string) => Promise<void>;
  readonly stop: () => Promise<void>;
  readonly back: () => void;
}

/** The repair's names of the guarded-write steps. */
const STEPS: Readonly<Record<GuardedWriteStep, RepairStep>> = {
  edit: 'select',
  making: 'planning',
  kept: 'plan',
  executing: 'executing',
  outcome: 'finished',
};

/** What a plan is made from: the problems chosen, by kind or by id. */
type Selection = { kinds?: ProblemKind[]; ids?: string[] };

/** Runs the flow for an audit run of `table` on `connectionId`. */
export function useRepair(
  connectionId: string,
  table: string,
  runId: string | undefined,
  convention: Convention | undefined,
  onRechecked: (lookup: LookupView) => void,
  auditAgain: () => void,
): RepairFlow {
  const bridge = useBridge();
  const [recheck, setRecheck] = useState<RepairFlow['recheck']>();
  const calls = useMemo(
    (): GuardedWriteCalls<Selection, RepairPlanView, RepairStatusView> => ({
      make: (selection) => bridge.call('repair.plan', { connectionId, table, runId: runId ?? '', ...selection }),
      execute: (plan, confirmation, progress) => followed(bridge, connectionId, plan.planId, confirmation, progress),
      sent: (plan) => `plan ${plan.planId}`,
      // A lost answer may have started the repair: the flow ends there, saying so (the Activity tab lists what was sent).
      unknownEnds: true,
      async recheck(finished, planned, _selection, on) {
        const applied = planned.fixes.filter((f) => finished.fixes[f.index]?.state === 'succeeded');
        if (applied.length === 0) return;
        if (applied.length > MAX_RECHECKS) {
          setRecheck('audit');
          auditAgain();
          return;
        }
        setRecheck({ done: 0, total: applied.length });
        // A few lookups at once: each may scan for holders; one at a time makes a dozen values slow.
        let next = 0;
        let done = 0;
        const worker = async (): Promise<void> => {
          while (next < applied.length && on.alive()) {
            const fix = applied[next++]!;
            const scope = fix.problem.scope ? { scope: { ...fix.problem.scope } } : {};
            // Under the audit's own convention (the plan's), not the saved or a detected one.
            const fresh = await bridge.call('lookup.run', {
              connectionId,
              table,
              value: fix.operation.value,
              rule: fix.operation.rule,
              ...scope,
              ...(convention ? { convention } : {}),
            });
            if (!on.alive()) return;
            if (fresh.ok) onRechecked(fresh.value);
            else on.fail(fresh.error);
            done += 1;
            setRecheck({ done, total: applied.length });
          }
        };
        await Promise.all(Array.from({ length: RECHECK_CONCURRENCY }, worker));
      },
    }),
    [bridge, connectionId, table, runId, convention, onRechecked, auditAgain],
  );
  const flow = useGuardedWrite(calls);
  const { make, edit, fail, setDone, kept: plan } = flow;

  const makePlan = useCallback(
    async (selection: Selection) => {
      if (runId) await make(selection);
    },
    [make, runId],
  );

  const stop = useCallback(async () => {
    if (!plan) return;
    const result = await bridge.call('repair.stop', { connectionId, planId: plan.planId });
    if (result.ok) setDone(result.value);
    else fail(result.error);
  }, [bridge, connectionId, plan, setDone, fail]);

  const back = useCallback(() => {
    edit();
    setRecheck(undefined);
  }, [edit]);

  return { step: STEPS[flow.step], plan, status: flow.done, error: flow.error, recheck, makePlan, execute: flow.execute, stop, back };
}

/**
 * Starts a plan and follows it on `repair.events` to its last phase. Subscribed before the execute:
 * the stream replays the latest state, so no event of the run is missed.
 */
async function followed(
  bridge: LocksmithBridge,
  connectionId: string,
  planId: string,
  confirmation: string,
  progress: (status: RepairStatusView) => void,
): Promise<Result<RepairStatusView>> {
  let unsubscribe: () => void = () => undefined;
  const ended = new Promise<RepairStatusView>((resolve) => {
    unsubscribe = bridge.subscribe('repair.events', { planId }, (event) => {
      progress(event);
      if (!running(event)) resolve(event);
    });
  });
  try {
    const started = await bridge.call('repair.execute', { connectionId, planId, confirmation });
    if (!started.ok || !running(started.value)) return started;
    progress(started.value);
    return { ok: true, value: await ended };
  } finally {
    unsubscribe();
  }
}
