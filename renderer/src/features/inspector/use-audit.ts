/**
 * One audit run of the selected table: starts it, has the row store (a Web Worker, `row-store.ts`)
 * apply its streamed deltas, tracks progress, cancels it, and applies the re-checks of writes made
 * since. Shared by the inspector and the lock form (which patches rows in place after a
 * transaction), hence provided through a context.
 */
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { ConventionWarning } from '../../../../shared/audit/fit';
import type { AuditEvent, ExportConfirmView, ExportSourceView, LookupView } from '../../../../shared/contract';
import type { Convention, KeySchema } from '../../../../shared/model';
import type { ScanProgress } from '../../../../shared/scan-types';
import type { AppError } from '../../../../shared/result';
import { useBridge } from '../../bridge/bridge-context';
import type { InspectorFilter } from './row-filter';
import { EMPTY_VIEW, PROGRESS_EVERY_MS, type RowsView, type RowStoreUpdate, type ViewSpec } from './row-store';
import { openRowStore, type RowStoreClient } from './row-store-client';
import { createPendingExports } from './pending-exports';
import type { AuditPhase, AuditSource, AuditState, ExportRequest, ShownProblems } from './audit-state';

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
  const [rows, setRows] = useState<RowsView>(EMPTY_VIEW);
  const unsubscribeRef = useRef<(() => void) | undefined>(undefined);
  const runIdRef = useRef<string | undefined>(undefined);
  // Bumped by every start/stop: a start whose answer arrives after a newer start (or unmount) is
  // stale. It also numbers the run in the row store, which drops what an older run sends.
  const generationRef = useRef(0);
  // The latest progress not shown yet, and the timer that shows it.
  const progressRef = useRef<ScanProgress | undefined>(undefined);
  const progressTimerRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const exportsRef = useRef(createPendingExports());

  // Set below (it needs `stop`); the store's updates only arrive after the first render's effects.
  const failRef = useRef<(reason: string) => void>(() => undefined);
  // The rows live in the row store (a worker): streamed deltas go there as they come, and the page
  // gets back what it shows. The run is done once the store has applied its `done` event, so
  // whatever reads the rows after `phase: 'done'` reads all of them.
  const onUpdate = useCallback((update: RowStoreUpdate) => {
    if (update.type === 'export') {
      exportsRef.current.answer(update.id, { rowsShown: update.rowsShown, problems: update.problems });
      return;
    }
    if (update.type === 'progress') {
      const { progress } = update;
      if (update.run === generationRef.current) startTransition(() => setState((s) => ({ ...s, progress })));
      return;
    }
    if (update.type === 'failed') {
      exportsRef.current.fail(update.reason);
      failRef.current(update.reason);
      return;
    }
    const view = update.view;
    if (view.run !== generationRef.current) return;
    // A transition: React renders it in slices of a few ms, yielding to input and frames between
    // them, where a plain update from a message renders in one long task on a large
    // audit (figures: docs/benchmarks.md). The run's end is in the same transition as its last rows,
    // so `phase: 'done'` never shows before the rows it vouches for.
    startTransition(() => {
      setRows((previous) => (view.sameRows && previous.run === view.run ? { ...view, rows: previous.rows } : view));
      const end = view.end;
      if (end)
        setState((s) =>
          s.phase === 'running'
            ? { ...s, phase: 'done', cancelling: false, complete: end.complete, reason: end.reason, warnings: end.warnings }
            : s,
        );
    });
  }, []);
  const storeRef = useRef<RowStoreClient | undefined>(undefined);
  const store = useCallback((): RowStoreClient => (storeRef.current ??= openRowStore(onUpdate)), [onUpdate]);
  const post: RowStoreClient['post'] = useCallback((request) => store().post(request), [store]);

  const showProgress = useCallback(() => {
    clearTimeout(progressTimerRef.current);
    progressTimerRef.current = undefined;
    const progress = progressRef.current;
    progressRef.current = undefined;
    if (progress) setState((s) => ({ ...s, progress }));
  }, []);

  const enqueue = useCallback(
    (event: AuditEvent) => {
      if (event.runId !== runIdRef.current) return;
      if (event.type === 'progress') {
        progressRef.current = event.progress;
        progressTimerRef.current ??= setTimeout(showProgress, PROGRESS_EVERY_MS);
        return;
      }
      if (event.type === 'done') showProgress();
      // At once: a parsed delta handed over now dies young (cheap to collect) instead of waiting here.
      post({ type: 'events', run: generationRef.current, events: [event] });
    },
    [post, showProgress],
  );

  // Leaves the current run: its events are dropped from now on. Returns its id, if one was running.
  const detach = useCallback(() => {
    generationRef.current += 1;
    unsubscribeRef.current?.();
    unsubscribeRef.current = undefined;
    clearTimeout(progressTimerRef.current);
    progressTimerRef.current = undefined;
    progressRef.current = undefined;
    setRows(EMPTY_VIEW);
    const running = runIdRef.current;
    runIdRef.current = undefined;
    return running;
  }, []);

  const stop = useCallback(() => {
    const running = detach();
    // Events of the old run are dropped, not applied to the next one.
    post({ type: 'reset', run: generationRef.current });
    return running;
  }, [detach, post]);

  const start = useCallback(
    (convention?: Convention, fromExport?: ExportRequest) => {
      const previous = stop();
      if (previous) void bridge.call('audit.cancel', { runId: previous });
      if (!connectionId || !table) {
        setState(IDLE);
        return;
      }
      setState({ ...IDLE, phase: 'starting' });
      const generation = generationRef.current;
      const args = { connectionId, table, ...(convention ? { convention } : {}) };
      const call = fromExport ? bridge.call('audit.startExport', { ...args, ...fromExport }) : bridge.call('audit.start', args);
      // The bridge never rejects (shared/contract/transport.ts): a lost answer arrives as an error Result.
      void call.then((result) => {
        if (generation !== generationRef.current) {
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
        // Browser mode: the row store (a worker) subscribes itself, so no row is parsed on this thread.
        const target = store().streamTarget;
        if (target) post({ type: 'stream', run: generation, runId, ...target });
        else unsubscribeRef.current = bridge.subscribe('audit.events', { runId }, enqueue);
      });
    },
    [bridge, connectionId, table, stop, enqueue, store, post],
  );

  // The row store broke: its rows may lack some, so the run is an error (never a run that looks
  // alive, or complete), the run on the server is stopped, and the next start gets a fresh store.
  const fail = useCallback(
    (reason: string) => {
      const broken = storeRef.current;
      storeRef.current = undefined;
      broken?.close();
      // No reset is posted: the next start opens a fresh store and resets that one.
      const running = detach();
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
    [bridge, detach],
  );
  useEffect(() => {
    failRef.current = fail;
  }, [fail]);

  // A new table, connection or epoch (the sandbox restarted) means a new audit; leaving cancels the old one.
  useEffect(() => {
    start();
    return () => {
      const running = stop();
      if (running) void bridge.call('audit.cancel', { runId: running });
    };
  }, [start, stop, bridge, epoch]);
  // Declared after the effect above, so its cleanup runs after that one's last `stop()` reached the store.
  useEffect(
    () => () => {
      storeRef.current?.close();
      storeRef.current = undefined;
    },
    [],
  );

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

  const patch = useCallback(
    (lookup: LookupView) => {
      post({ type: 'patch', run: generationRef.current, lookup });
      setState((s) => ({ ...s, rechecks: [...(s.rechecks ?? []), lookup] }));
    },
    [post],
  );

  const setView = useCallback((spec: ViewSpec) => post({ type: 'view', spec }), [post]);
  const setWindow = useCallback((start: number, end: number) => post({ type: 'window', start, end }), [post]);
  const shownProblems = useCallback(
    (filter: InspectorFilter, keys: KeySchema): Promise<ShownProblems> =>
      exportsRef.current.ask((id) => post({ type: 'export', id, filter, keys })),
    [post],
  );

  return {
    phase: state.phase,
    runId: state.runId,
    convention: state.convention,
    rows,
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
    setView,
    setWindow,
    shownProblems,
  };
}
