/**
 * The claim/release flow: preview (main builds and keeps the exact request) → the value typed back →
 * execute → outcome; on success the value is looked up again and the inspector rows patched in place.
 */
import { useCallback, useState } from 'react';
import type { LookupView, TxOutcomeView, TxPreviewView } from '../../../../shared/contract';
import type { TxRequest } from '../../../../shared/contract';
import type { Convention } from '../../../../shared/model';
import { namingSent } from '../../../../shared/contract';
import type { AppError } from '../../../../shared/result';
import { useBridge } from '../../bridge/bridge-context';

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
  const [step, setStep] = useState<LockFormStep>('edit');
  const [preview, setPreview] = useState<TxPreviewView>();
  const [outcome, setOutcome] = useState<TxOutcomeView>();
  const [recheck, setRecheck] = useState<LookupView>();
  const [error, setError] = useState<AppError>();
  const [request, setRequest] = useState<TxRequest>();

  const makePreview = useCallback(
    async (next: TxRequest) => {
      setStep('previewing');
      setError(undefined);
      setOutcome(undefined);
      setRecheck(undefined);
      setRequest(next);
      const result = await bridge.call('tx.preview', { connectionId, table, request: next, ...(convention ? { convention } : {}) });
      if (result.ok) {
        setPreview(result.value);
        setStep('preview');
      } else {
        setError(result.error);
        setStep('edit');
      }
    },
    [bridge, connectionId, table, convention],
  );

  const execute = useCallback(
    async (confirmation: string) => {
      if (!preview) return;
      setStep('executing');
      setError(undefined);
      const result = await bridge.call('tx.execute', { previewId: preview.previewId, confirmation });
      if (!result.ok) {
        // A lost answer is an unknown outcome (the bridge says so): name the request that may have been applied.
        setError(namingSent(result.error, `ClientRequestToken ${preview.clientRequestToken}`));
        setStep('preview');
        return;
      }
      setOutcome(result.value);
      setStep('outcome');
      if (result.value.status === 'succeeded' && (request?.kind === 'change-value' || request?.kind === 'delete-account')) {
        onAccountChanged();
        return;
      }
      if (result.value.status !== 'succeeded' || !request || !('value' in request) || typeof request.value !== 'string') return;
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
        setError(fresh.error);
        return;
      }
      setRecheck(fresh.value);
      // A lookup whose holder scan did not finish cannot be written over a complete audit's rows.
      if (fresh.value.complete !== false) onRechecked(fresh.value);
    },
    [bridge, preview, request, connectionId, table, convention, onRechecked, onAccountChanged],
  );

  const edit = useCallback(() => {
    setStep('edit');
    setPreview(undefined);
    setOutcome(undefined);
    setError(undefined);
  }, []);

  return { step, preview, outcome, recheck, error, makePreview, execute, edit };
}

/** What an error box above the preview says: a send that may have been applied is never "not accepted". */
export function errorTitle(flow: Pick<LockFormFlow, 'step' | 'error'>): string {
  if (flow.step === 'outcome') return 'The re-check failed';
  if (flow.error?.outcome === 'unknown') return 'Outcome unknown — the request may have been applied';
  return 'The request was not accepted';
}
