/**
 * One audit run of the selected table: starts it, applies its streamed deltas into the row store,
 * tracks progress, cancels it, and fetches the report for export. Shared by the inspector and the
 * lock form (which patches rows in place after a transaction), hence provided through a context.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AuditEvent, AuditReportView, LookupView } from '../../../../shared/contract';
import type { AuditCounts } from '../../../../shared/audit/types';
import type { Convention } from '../../../../shared/model';
import type { ScanProgress } from '../../../../shared/scan-types';
import type { AppError, Result } from '../../../../shared/result';
import { useBridge } from '../../bridge/bridge-context';
import { applyAuditDelta, EMPTY_AUDIT_ROWS, type AuditRows } from './audit-rows';
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
  /** True when fewer rows arrived than the final counts imply (stream events lost): re-running fixes it. */
  readonly missedRows: boolean;
  readonly start: (convention?: Convention) => void;
  readonly cancel: () => void;
  readonly report: () => Promise<Result<AuditReportView>>;
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
  readonly missedRows?: boolean;
}

/** How often a running audit's report is polled, in case the stream's `done` event was missed. */
const REPORT_POLL_MS = 1_000;

// Every account is one row and so is every orphan or malformed lock.
function rowsMissing(rows: AuditRows, counts: AuditCounts): boolean {
  return rows.list.length < counts.accounts + counts.summary['orphan-lock'] + counts.summary['malformed-lock'];
}

function finish(state: RunState, complete: boolean, reason: string | undefined, counts: AuditCounts): RunState {
  const rows = { ...state.rows, counts };
  return { ...state, phase: 'done', cancelling: false, complete, reason, rows, missedRows: rowsMissing(rows, counts) };
}

const IDLE: RunState = { phase: 'idle', rows: EMPTY_AUDIT_ROWS, cancelling: false };

// Pure reducer over stream events, so the order of delta/progress/done is handled in one place.
function onEvent(state: RunState, event: AuditEvent): RunState {
  if (event.runId !== state.runId) return state;
  switch (event.type) {
    case 'delta':
      return { ...state, rows: applyAuditDelta(state.rows, event.delta) };
    case 'progress':
      return { ...state, progress: event.progress };
    case 'done':
      return finish(state, event.complete, event.reason, event.counts);
  }
}

/** Runs audits of `table` on `connectionId`; starts one automatically when both are set. */
export function useAudit(connectionId: string | undefined, table: string | undefined): AuditState {
  const bridge = useBridge();
  const [state, setState] = useState<RunState>(IDLE);
  const unsubscribeRef = useRef<(() => void) | undefined>(undefined);
  const runIdRef = useRef<string | undefined>(undefined);
  // Bumped by every start/stop: a start whose answer arrives after a newer start (or unmount) is stale.
  const generationRef = useRef(0);

  const stop = useCallback(() => {
    generationRef.current += 1;
    unsubscribeRef.current?.();
    unsubscribeRef.current = undefined;
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
          unsubscribeRef.current = bridge.subscribe('audit.events', { runId }, (event) => setState((s) => onEvent(s, event)));
        },
        (cause: unknown) => {
          if (generation === generationRef.current) {
            setState({ ...IDLE, phase: 'error', error: { kind: 'unreachable', message: `Could not start the audit: ${String(cause)}` } });
          }
        },
      );
    },
    [bridge, connectionId, table, stop],
  );

  // A new table (or connection) means a new audit; leaving cancels the old one.
  useEffect(() => {
    start();
    return () => {
      const running = stop();
      if (running) void bridge.call('audit.cancel', { runId: running });
    };
  }, [start, stop, bridge]);

  // Safety net: stream events published before the subscription was registered are lost, the
  // `done` event included. Polling the report (ready only once the run ended) ends the wait anyway.
  const pollRunId = state.phase === 'running' ? state.runId : undefined;
  useEffect(() => {
    if (!pollRunId) return undefined;
    const timer = setInterval(() => {
      bridge.call('audit.report', { runId: pollRunId }).then(
        (result) => {
          if (!result.ok) return; // `conflict` while it runs: keep waiting
          const { complete, reason, scanned, accounts, locks, summary } = result.value;
          setState((s) => (s.runId === pollRunId && s.phase === 'running' ? finish(s, complete, reason, { scanned, accounts, locks, summary }) : s));
        },
        () => undefined,
      );
    }, REPORT_POLL_MS);
    return () => clearInterval(timer);
  }, [bridge, pollRunId]);

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

  const report = useCallback(async (): Promise<Result<AuditReportView>> => {
    const runId = state.runId;
    if (!runId) return { ok: false, error: { kind: 'validation', message: 'No audit has run yet.' } };
    return bridge.call('audit.report', { runId });
  }, [bridge, state.runId]);

  const patch = useCallback((lookup: LookupView) => {
    setState((s) => ({ ...s, rows: patchRowsWithLookup(s.rows, lookup) }));
  }, []);

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
    missedRows: state.missedRows ?? false,
    start,
    cancel,
    report,
    patch,
  };
}
