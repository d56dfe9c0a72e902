/**
 * One audit run of the selected table: starts it, applies its streamed deltas into the row store,
 * tracks progress, cancels it, and applies the re-checks of writes made since. Shared by the inspector and the
 * lock form (which patches rows in place after a transaction), hence provided through a context.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AuditEvent, LookupView } from '../../../../shared/contract';
import type { AuditCounts } from '../../../../shared/audit/types';
import type { Convention } from '../../../../shared/model';
import type { ScanProgress } from '../../../../shared/scan-types';
import type { AppError } from '../../../../shared/result';
import { useBridge } from '../../bridge/bridge-context';
import { applyAuditDeltas, EMPTY_AUDIT_ROWS, type AuditRows } from './audit-rows';
import { patchRowsWithLookup } from './patch-rows';

/** Where the run is. */
export type AuditPhase = 'idle' | 'starting' | 'running' | 'done' | 'error';

/** Everything the inspector shows about the run. */
export interface AuditState {
  readonly phase: AuditPhase;
  readonly runId: string | undefined;
  readonly convention: Convention | undefined;
  readonly rows: AuditRows;
  readonly progress: ScanProgress | undefined;
  /** Set when the run ended: false means incomplete (cancelled, a segment failed, the endpoint went away). */
  readonly complete: boolean | undefined;
  readonly reason: string | undefined;
  readonly cancelling: boolean;
  readonly error: AppError | undefined;
  /**
   * Fresh lookups applied since the run ended (one per write), newest last: the rows and counts
   * include them, and every view of the value (the Lookup card, exports) takes them as the truth.
   */
  readonly rechecks: readonly LookupView[];
  /** The data this run read is gone (the sandbox stopped): its rows describe nothing any more. */
  readonly stale: boolean;
  readonly start: (convention?: Convention) => void;
  readonly cancel: () => void;
  /** Re-checks one value after a transaction: rows holding it are updated in place from a fresh lookup. */
  readonly patch: (lookup: LookupView) => void;
}

interface RunState {
  readonly phase: AuditPhase;
  readonly runId?: string;
  readonly convention?: Convention;
  readonly rows: AuditRows;
  readonly progress?: ScanProgress;
  readonly complete?: boolean;
  readonly reason?: string;
  readonly cancelling: boolean;
  readonly error?: AppError;
  readonly rechecks?: readonly LookupView[];
}

/**
 * Stream events are applied in batches, not one render per event: every batch still does a few
 * O(rows) passes (the row list, merging the change into the sorted order, the virtualizer's
 * offsets), so the pause grows with the list (about 1 ms per 200 rows, 50 ms to 1 s) to keep that
 * work a small share of the main thread even at 200k rows.
 */
function batchDelayMs(rowCount: number): number {
  return Math.min(1_000, Math.max(50, Math.round(rowCount / 200)));
}

function finish(state: RunState, complete: boolean, reason: string | undefined, counts: AuditCounts): RunState {
  return { ...state, phase: 'done', cancelling: false, complete, reason, rows: { ...state.rows, counts } };
}

const NO_RECHECKS: readonly LookupView[] = [];

const IDLE: RunState = { phase: 'idle', rows: EMPTY_AUDIT_ROWS, cancelling: false };

// Pure reducer over a batch of stream events (in arrival order), given the rows after all of the
// batch's deltas (applied beforehand, once, outside React's updater: see `flush`). `done` is the
// last event of a run, so the rows it is checked against are the ones every delta built.
function onEvents(state: RunState, events: readonly AuditEvent[], rows: AuditRows): RunState {
  let next = state;
  for (const event of events) {
    if (event.runId !== next.runId) continue;
    switch (event.type) {
      case 'delta':
        next = next.rows === rows ? next : { ...next, rows };
        break;
      case 'progress':
        next = { ...next, progress: event.progress };
        break;
      case 'done':
        next = finish({ ...next, rows }, event.complete, event.reason, event.counts);
        break;
    }
  }
  return next;
}

/** What else decides the run: `epoch` changes when the data behind the connection was replaced (a new run starts); `stale` marks the shown run as describing data that is gone. */
export interface AuditSource {
  readonly epoch: number;
  readonly stale: boolean;
}

/** Runs audits of `table` on `connectionId`; starts one automatically when both are set (and again on a new epoch). */
export function useAudit(connectionId: string | undefined, table: string | undefined, source: AuditSource = { epoch: 0, stale: false }): AuditState {
  const { epoch, stale } = source;
  const bridge = useBridge();
  const [state, setState] = useState<RunState>(IDLE);
  const unsubscribeRef = useRef<(() => void) | undefined>(undefined);
  const runIdRef = useRef<string | undefined>(undefined);
  // Bumped by every start/stop: a start whose answer arrives after a newer start (or unmount) is stale.
  const generationRef = useRef(0);
  // Stream events not yet applied, the timer that applies them, and the row count the pause is sized on.
  const pendingRef = useRef<AuditEvent[]>([]);
  const flushTimerRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const rowCountRef = useRef(0);

  // The row store of the current run. Deltas are applied to it here, exactly once per event, in
  // place (not in a state updater, which React may call twice), and the state gets the result.
  const rowsRef = useRef<AuditRows>(EMPTY_AUDIT_ROWS);

  const flush = useCallback(() => {
    clearTimeout(flushTimerRef.current);
    flushTimerRef.current = undefined;
    const events = pendingRef.current.filter((e) => e.runId === runIdRef.current);
    pendingRef.current = [];
    if (events.length === 0) return;
    // A snapshot (the hub's replay on subscribing) holds every row so far: it replaces the list whole,
    // and deltas before it in this batch are already in it.
    const snapshotAt = events.findLastIndex((e) => e.type === 'delta' && e.snapshot === true);
    if (snapshotAt >= 0) {
      rowsRef.current = EMPTY_AUDIT_ROWS;
      rowCountRef.current = 0;
    }
    const deltas = events.slice(Math.max(0, snapshotAt)).flatMap((e) => (e.type === 'delta' ? [e.delta] : []));
    for (const delta of deltas) rowCountRef.current += delta.upserted.length;
    const rows = applyAuditDeltas(rowsRef.current, deltas, { inPlace: true });
    rowsRef.current = rows;
    setState((s) => onEvents(s, events, rows));
  }, []);

  const enqueue = useCallback(
    (event: AuditEvent) => {
      pendingRef.current.push(event);
      // The end of the run is shown at once (with everything before it); the rest waits for the next batch.
      if (event.type === 'done') flush();
      else flushTimerRef.current ??= setTimeout(flush, batchDelayMs(rowCountRef.current));
    },
    [flush],
  );

  const stop = useCallback(() => {
    generationRef.current += 1;
    unsubscribeRef.current?.();
    unsubscribeRef.current = undefined;
    // Events of the old run are dropped, not applied to the next one.
    clearTimeout(flushTimerRef.current);
    flushTimerRef.current = undefined;
    pendingRef.current = [];
    rowCountRef.current = 0;
    rowsRef.current = EMPTY_AUDIT_ROWS;
    const running = runIdRef.current;
    runIdRef.current = undefined;
    return running;
  }, []);

  const start = useCallback(
    (convention?: Convention) => {
      const previous = stop();
      if (previous) void bridge.call('audit.cancel', { runId: previous });
      if (!connectionId || !table) {
        setState(IDLE);
        return;
      }
      setState({ ...IDLE, phase: 'starting' });
      const generation = generationRef.current;
      const args = { connectionId, table, ...(convention ? { convention } : {}) };
      bridge.call('audit.start', args).then(
        (result) => {
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
          setState({ ...IDLE, phase: 'running', runId, convention: result.value.convention });
          unsubscribeRef.current = bridge.subscribe('audit.events', { runId }, enqueue);
        },
        (cause: unknown) => {
          if (generation === generationRef.current) {
            setState({ ...IDLE, phase: 'error', error: { kind: 'unreachable', message: `Could not start the audit: ${String(cause)}` } });
          }
        },
      );
    },
    [bridge, connectionId, table, stop, enqueue],
  );

  // A new table, connection or epoch (the sandbox restarted) means a new audit; leaving cancels the old one.
  useEffect(() => {
    start();
    return () => {
      const running = stop();
      if (running) void bridge.call('audit.cancel', { runId: running });
    };
  }, [start, stop, bridge, epoch]);

  const cancel = useCallback(() => {
    const runId = runIdRef.current;
    if (!runId) return;
    setState((s) => ({ ...s, cancelling: true }));
    bridge.call('audit.cancel', { runId }).then(
      (result) => {
        if (!result.ok) setState((s) => ({ ...s, cancelling: false, error: result.error }));
      },
      (cause: unknown) => setState((s) => ({ ...s, cancelling: false, error: { kind: 'unreachable', message: String(cause) } })),
    );
  }, [bridge]);

  const patch = useCallback((lookup: LookupView) => {
    flush(); // rows still waiting for their batch come first
    const rows = patchRowsWithLookup(rowsRef.current, lookup);
    rowsRef.current = rows;
    setState((s) => ({ ...s, rows, rechecks: [...(s.rechecks ?? []), lookup] }));
  }, [flush]);

  return {
    phase: state.phase,
    runId: state.runId,
    convention: state.convention,
    rows: state.rows,
    progress: state.progress,
    complete: state.complete,
    reason: state.reason,
    cancelling: state.cancelling,
    error: state.error,
    rechecks: state.rechecks ?? NO_RECHECKS,
    stale: stale && state.phase !== 'idle',
    start,
    cancel,
    patch,
  };
}
