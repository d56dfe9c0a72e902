/**
 * One audit run of the selected table — the policy half: starts it, cancels it, confirms an export
 * run, applies the re-checks of writes made since. The rows, their stream and the run numbering
 * are the store half's (`use-row-store.ts`). Shared by the inspector and the lock form (which
 * patches rows in place after a transaction), hence provided through a context.
 */
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { beginOpening } from '../tables/table-opening';
import type { ConventionWarning } from '../../../../shared/audit/fit';
import type { ExportConfirmView, ExportSourceView, LookupView } from '../../../../shared/contract';
import type { Convention } from '../../../../shared/model';
import type { ScanProgress } from '../../../../shared/scan-types';
import type { AppError } from '../../../../shared/result';
import { useBridge } from '../../bridge/bridge-context';
import type { AuditPhase, AuditSource, AuditState, ExportRequest } from './audit-state';
import type { RunEnd } from './row-store';
import { useRowStore, type RunListener } from './use-row-store';
import { useRunEnd } from './run-end';

interface RunState {
  readonly phase: AuditPhase;
  readonly runId?: string;
  readonly convention?: Convention;
  readonly progress?: ScanProgress;
  readonly complete?: boolean;
  readonly reason?: string;
  readonly warnings?: readonly ConventionWarning[];
  readonly cancelling: boolean;
  readonly error?: AppError;
  readonly rechecks?: readonly LookupView[];
  readonly source?: ExportSourceView;
  readonly confirmation?: ExportConfirmView;
  readonly confirming?: boolean;
}

const NO_RECHECKS: readonly LookupView[] = [];
const NO_WARNINGS: readonly ConventionWarning[] = [];

const IDLE: RunState = { phase: 'idle', cancelling: false };

/** Runs audits of `table` on `connectionId`; starts one automatically when both are set (and again on a new epoch). */
export function useAudit(
  connectionId: string | undefined,
  table: string | undefined,
  source: AuditSource = { epoch: 0, stale: false },
): AuditState {
  const { epoch, stale } = source;
  const bridge = useBridge();
  const [state, setState] = useState<RunState>(IDLE);
  const runIdRef = useRef<string | undefined>(undefined);
  // Set below (it needs the store); the store reports failures only after the first render's effects.
  const failRef = useRef<(reason: string) => void>(() => undefined);

  const listener = useMemo<RunListener>(
    () => ({
      progress: (progress) => setState((s) => ({ ...s, progress })),
      failed: (reason) => failRef.current(reason),
    }),
    [],
  );
  const store = useRowStore(bridge, listener);
  useRunEnd(
    store.rows,
    useCallback(
      (end: RunEnd) =>
        startTransition(() =>
          setState((s) =>
            s.phase === 'running'
              ? { ...s, phase: 'done', cancelling: false, complete: end.complete, reason: end.reason, warnings: end.warnings }
              : s,
          ),
        ),
      [],
    ),
  );
  const { leave, isCurrent, follow, discard } = store;

  // Leaves the current run: its events are dropped from now on. Returns its id, if one was running,
  // and the number of whatever runs next (a start whose answer arrives after a newer start is stale).
  const stop = useCallback(() => {
    const run = leave();
    const running = runIdRef.current;
    runIdRef.current = undefined;
    return { running, run };
  }, [leave]);

  const start = useCallback(
    (convention?: Convention, fromExport?: ExportRequest) => {
      const { running: previous, run } = stop();
      if (previous) void bridge.call('audit.cancel', { runId: previous });
      if (!connectionId || !table) {
        setState(IDLE);
        return;
      }
      setState({ ...IDLE, phase: 'starting' });
      const args = { connectionId, table, ...(convention ? { convention } : {}) };
      // The overview's survey starts nothing new until this start is answered (table-opening.ts).
      const opened = beginOpening();
      const call = fromExport ? bridge.call('audit.startExport', { ...args, ...fromExport }) : bridge.call('audit.start', args);
      // The bridge never rejects (shared/contract/transport.ts): a lost answer arrives as an error Result.
      void call.then((result) => {
        opened();
        if (!isCurrent(run)) {
          // Superseded while starting: stop the orphaned run instead of showing it.
          if (result.ok) void bridge.call('audit.cancel', { runId: result.value.runId });
          return;
        }
        if (!result.ok) {
          setState({ ...IDLE, phase: 'error', error: result.error });
          return;
        }
        const { runId } = result.value;
        runIdRef.current = runId;
        setState({
          ...IDLE,
          phase: 'running',
          runId,
          convention: result.value.convention,
          ...(result.value.source ? { source: result.value.source } : {}),
        });
        // The row store (a worker) is the run's one subscriber, in both modes: no row is parsed on this thread.
        follow(run, runId);
      });
    },
    [bridge, connectionId, table, stop, isCurrent, follow],
  );

  // The row store broke (or never reached the run's events): its rows may lack some, so the run is
  // an error (never a run that looks alive, or complete), the run on the server is stopped, and the
  // next start gets a fresh store.
  const fail = useCallback(
    (reason: string) => {
      discard();
      const { running } = stop();
      if (running) void bridge.call('audit.cancel', { runId: running });
      setState((s) => ({
        ...IDLE,
        convention: s.convention,
        phase: 'error',
        error: {
          kind: 'internal',
          message: `The inspector lost this audit's rows (${reason}), so what it showed may be incomplete. Re-run the audit.`,
        },
      }));
    },
    [bridge, discard, stop],
  );
  useEffect(() => {
    failRef.current = fail;
  }, [fail]);

  // A new table, connection or epoch (the sandbox restarted) means a new audit; leaving cancels the old one.
  useEffect(() => {
    start();
    return () => {
      const { running } = stop();
      if (running) void bridge.call('audit.cancel', { runId: running });
    };
  }, [start, stop, bridge, epoch]);

  const cancel = useCallback(() => {
    const runId = runIdRef.current;
    if (!runId) return;
    setState((s) => ({ ...s, cancelling: true }));
    void bridge.call('audit.cancel', { runId }).then((result) => {
      if (!result.ok) setState((s) => ({ ...s, cancelling: false, error: result.error }));
    });
  }, [bridge]);

  const confirm = useCallback(() => {
    const runId = runIdRef.current;
    if (!runId || !connectionId || !table) return;
    setState((s) => ({ ...s, confirming: true }));
    void bridge.call('audit.confirmExport', { connectionId, table, runId }).then((result) => {
      if (runId !== runIdRef.current) return;
      setState((s) =>
        result.ok ? { ...s, confirming: false, confirmation: result.value } : { ...s, confirming: false, error: result.error },
      );
    });
  }, [bridge, connectionId, table]);

  const { patch: patchRows } = store;
  const patch = useCallback(
    (lookup: LookupView) => {
      patchRows(lookup);
      setState((s) => ({ ...s, rechecks: [...(s.rechecks ?? []), lookup] }));
    },
    [patchRows],
  );

  return {
    phase: state.phase,
    runId: state.runId,
    convention: state.convention,
    rows: store.rows,
    progress: state.progress,
    complete: state.complete,
    reason: state.reason,
    warnings: state.warnings ?? NO_WARNINGS,
    cancelling: state.cancelling,
    error: state.error,
    rechecks: state.rechecks ?? NO_RECHECKS,
    stale: stale && state.phase !== 'idle',
    source: state.source,
    confirmation: state.confirmation,
    confirming: state.confirming === true,
    start,
    confirm,
    cancel,
    patch,
    setView: store.setView,
    setWindow: store.setWindow,
    shownProblems: store.shownProblems,
  };
}
