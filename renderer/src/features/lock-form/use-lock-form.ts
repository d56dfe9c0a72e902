/**
 * The claim/release and lifecycle flow, the guarded-write flow (use-guarded-write.ts) over `tx.preview`
 * and `tx.execute`: on success the value is looked up again and the inspector rows patched in place.
 */
import { useCallback, useMemo, useState } from 'react';
import type { LookupView, TxOutcomeView, TxPreviewView } from '../../../../shared/contract';
import type { TxRequest } from '../../../../shared/contract';
import type { Convention } from '../../../../shared/model';
import type { AppError } from '../../../../shared/result';
import { useBridge } from '../../bridge/bridge-context';
import { useGuardedWrite, type GuardedWriteCalls, type GuardedWriteStep } from '../guarded-write/use-guarded-write';

/** Where the flow is. */
export type LockFormStep = 'edit' | 'previewing' | 'preview' | 'executing' | 'outcome';

/** State and actions of one lock form. */
export interface LockFormFlow {
  readonly step: LockFormStep;
  readonly preview: TxPreviewView | undefined;
  readonly outcome: TxOutcomeView | undefined;
  /** The fresh lookup after a successful execute (what the inspector was patched with). */
  readonly recheck: LookupView | undefined;
  readonly error: AppError | undefined;
  readonly makePreview: (request: TxRequest) => Promise<void>;
  readonly execute: (confirmation: string) => Promise<void>;
  /** Back to editing (a new preview is needed after any change). */
  readonly edit: () => void;
}

/**
 * Runs the flow against `table` on `connectionId`; `onRechecked` receives the fresh lookup after a
 * claim or release; `onAccountChanged` is called after a lifecycle fix (a changed value or a deleted
 * account moves rows and locks no single lookup can patch: the caller audits again).
 */
export function useLockForm(
  connectionId: string,
  table: string,
  convention: Convention | undefined,
  onRechecked: (lookup: LookupView) => void,
  onAccountChanged: () => void = () => undefined,
): LockFormFlow {
  const bridge = useBridge();
  const [recheck, setRecheck] = useState<LookupView>();
  const calls = useMemo(
    (): GuardedWriteCalls<TxRequest, TxPreviewView, TxOutcomeView> => ({
      make: (request) => bridge.call('tx.preview', { connectionId, table, request, ...(convention ? { convention } : {}) }),
      execute: (preview, confirmation) => bridge.call('tx.execute', { previewId: preview.previewId, confirmation }),
      sent: (preview) => `ClientRequestToken ${preview.clientRequestToken}`,
      // A send that may have been applied stays on the preview, its error said there (never "not accepted").
      unknownEnds: false,
      async recheck(outcome, _preview, request, on) {
        if (outcome.status === 'succeeded' && (request.kind === 'change-value' || request.kind === 'delete-account')) {
          onAccountChanged();
          return;
        }
        if (outcome.status !== 'succeeded' || !('value' in request) || typeof request.value !== 'string') return;
        // Re-check the group: a fresh lookup of the value updates the inspector rows in place. Whatever happens
        // to it, the outcome stands (step 'outcome': a failure here is "the re-check failed", never "not accepted").
        const rule = 'rule' in request ? { rule: request.rule } : {};
        const scope = request.kind === 'release' && request.scope ? { scope: request.scope } : {};
        const fresh = await bridge.call('lookup.run', {
          connectionId,
          table,
          value: request.value,
          ...rule,
          ...scope,
          ...(convention ? { convention } : {}),
        });
        if (!fresh.ok) {
          on.fail(fresh.error);
          return;
        }
        setRecheck(fresh.value);
        // A lookup whose holder scan did not finish cannot be written over a complete audit's rows.
        if (fresh.value.complete !== false) onRechecked(fresh.value);
      },
    }),
    [bridge, connectionId, table, convention, onRechecked, onAccountChanged],
  );
  const flow = useGuardedWrite(calls);
  const { make } = flow;
  const makePreview = useCallback(
    async (next: TxRequest) => {
      setRecheck(undefined);
      await make(next);
    },
    [make],
  );
  return {
    step: STEPS[flow.step],
    preview: flow.kept,
    outcome: flow.done,
    recheck,
    error: flow.error,
    makePreview,
    execute: flow.execute,
    edit: flow.edit,
  };
}

/** The lock form's names of the guarded-write steps. */
const STEPS: Readonly<Record<GuardedWriteStep, LockFormStep>> = {
  edit: 'edit',
  making: 'previewing',
  kept: 'preview',
  executing: 'executing',
  outcome: 'outcome',
};

/** What an error box above the preview says: a send that may have been applied is never "not accepted". */
export function errorTitle(flow: Pick<LockFormFlow, 'step' | 'error'>): string {
  if (flow.step === 'outcome') return 'The re-check failed';
  if (flow.error?.outcome === 'unknown') return 'Outcome unknown — the request may have been applied';
  return 'The request was not accepted';
}
