/**
 * The repair flow: plan (main reads fresh and packs the transactions) → the action count typed back
 * → execute, followed on the `repair.events` stream (Stop asks main to stop between transactions) →
 * the values of the applied fixes looked up again and the inspector rows patched in place.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { namingSent, type LookupView, type RepairPlanView, type RepairStatusView } from '../../../../shared/contract';
import type { Convention, ProblemKind } from '../../../../shared/model';
import type { AppError } from '../../../../shared/result';
import { useBridge } from '../../bridge/bridge-context';

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
  const [step, setStep] = useState<RepairStep>('select');
  const [plan, setPlan] = useState<RepairPlanView>();
  const [status, setStatus] = useState<RepairStatusView>();
  const [error, setError] = useState<AppError>();
  const [recheck, setRecheck] = useState<RepairFlow['recheck']>();
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  const makePlan = useCallback(
    async (selection: { kinds?: ProblemKind[]; ids?: string[] }) => {
      if (!runId) return;
      setStep('planning');
      setError(undefined);
      const result = await bridge.call('repair.plan', { connectionId, table, runId, ...selection });
      if (!alive.current) return;
      if (result.ok) {
        setPlan(result.value);
        setStep('plan');
      } else {
        setError(result.error);
        setStep('select');
      }
    },
    [bridge, connectionId, table, runId],
  );

  const recheckApplied = useCallback(
    async (finished: RepairStatusView, planned: RepairPlanView) => {
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
        while (next < applied.length && alive.current) {
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
          if (!alive.current) return;
          if (fresh.ok) onRechecked(fresh.value);
          else setError(fresh.error);
          done += 1;
          setRecheck({ done, total: applied.length });
        }
      };
      await Promise.all(Array.from({ length: RECHECK_CONCURRENCY }, worker));
    },
    [bridge, connectionId, table, convention, onRechecked, auditAgain],
  );

  const execute = useCallback(
    async (confirmation: string) => {
      if (!plan) return;
      setStep('executing');
      setError(undefined);
      // Subscribed before the execute: the stream replays the latest state, so no event of the run is missed.
      let unsubscribe: () => void = () => undefined;
      const ended = new Promise<RepairStatusView>((resolve) => {
        unsubscribe = bridge.subscribe('repair.events', { planId: plan.planId }, (event) => {
          if (!alive.current) return;
          setStatus(event);
          if (!running(event)) resolve(event);
        });
      });
      let current = await bridge.call('repair.execute', { connectionId, planId: plan.planId, confirmation });
      if (current.ok && running(current.value)) {
        setStatus(current.value);
        current = { ok: true, value: await ended };
      }
      unsubscribe();
      if (!alive.current) return;
      if (!current.ok) {
        const failure: AppError = current.error;
        setError(namingSent(failure, `plan ${plan.planId}`));
        // Refused before anything was sent (read-only, wrong count): back to the plan. A lost answer may have started it.
        setStep(failure.outcome === 'unknown' ? 'finished' : 'plan');
        return;
      }
      setStatus(current.value);
      setStep('finished');
      await recheckApplied(current.value, plan);
    },
    [bridge, connectionId, plan, recheckApplied],
  );

  const stop = useCallback(async () => {
    if (!plan) return;
    const result = await bridge.call('repair.stop', { connectionId, planId: plan.planId });
    if (!alive.current) return;
    if (result.ok) setStatus(result.value);
    else setError(result.error);
  }, [bridge, connectionId, plan]);

  const back = useCallback(() => {
    setStep('select');
    setPlan(undefined);
    setStatus(undefined);
    setError(undefined);
    setRecheck(undefined);
  }, []);

  return { step, plan, status, error, recheck, makePlan, execute, stop, back };
}
