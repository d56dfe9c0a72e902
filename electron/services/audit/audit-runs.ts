/**
 * The app's audit runs: the registry (runId → run), eviction of old runs, and the replay a late
 * subscriber to `audit.events` receives. Runs are started by `startAudit` (audit-methods.ts); the
 * CLI runs `runAudit` directly and keeps no registry.
 */
import { StandingWarnings } from './standing-warnings';
import { YieldGate } from '../../../shared/yield-gate';
import { RecentSamples } from '../fleet/recent-samples';
import type { AuditCounts, AuditDelta, AuditReport, GroupRow } from '../../../shared/audit/types';
import { encodeDelta } from '../../../shared/contract/audit-wire';
import type { AuditEvent } from '../../../shared/contract/views';
import type { ScanProgress } from '../../../shared/scan-types';
import { AuditIndexes } from './audit-index';
import type { HistoryMeta } from '../history/audit-history';

/** Runs kept for `audit.report` after they finish (oldest dropped first). */
export const MAX_KEPT_RUNS = 20;
/** Runs whose rows are kept for late subscribers; older runs keep only their report. */
export const MAX_SNAPSHOT_RUNS = 3;

/** Where audit events go (the bridge's stream hub, narrowed to what this needs). */
export interface AuditPublisher {
  publish(stream: 'audit.events', event: AuditEvent): void;
  setReplay(stream: 'audit.events', replay: (filter: Readonly<Record<string, unknown>>) => readonly AuditEvent[]): void;
}

/** One run: its cancel switch, every row so far (for replay), the latest counts and progress, and the report once done. */
export interface AuditRunState {
  readonly controller: AbortController;
  /** The connection target it scanned (client-pool's targetKey): a repair plans from it only there. */
  target?: string;
  rows?: Map<string, GroupRow>;
  counts?: AuditCounts;
  progress?: ScanProgress;
  report?: AuditReport;
  /** What the history entry of this run says beyond its report (set by whoever starts it); absent: not recorded. */
  history?: HistoryMeta;
}

/** The registry's operations. */
export interface AuditRuns {
  readonly publisher: AuditPublisher;
  /** What complete audits lend to lookups of their table until Locksmith writes through the connection (audit-index.ts). */
  readonly indexes: AuditIndexes;
  /** What the latest complete audits found the table contradicts: lock writes under those rules take a reviewed convention. */
  readonly warnings: StandingWarnings;
  /** Audit starts of opened tables, ahead of which the overview's survey yields (shared/yield-gate.ts). */
  readonly opening: YieldGate;
  /** Detection samples shared by the survey and the audit start of a table (recent-samples.ts). */
  readonly samples: RecentSamples;
  /** Registers a new run (evicting old finished ones) and returns it. */
  add(runId: string): AuditRunState;
  get(runId: string): AuditRunState | undefined;
  /** Records a delta in the run (for replay) and publishes it with the progress. */
  delta(runId: string, run: AuditRunState, delta: AuditDelta, progress: ScanProgress): void;
  /** Records and publishes progress alone (a run whose rows come at the end: an export audit). */
  progress(runId: string, run: AuditRunState, progress: ScanProgress): void;
  /** Records the report and publishes `done`. */
  finish(runId: string, run: AuditRunState, report: AuditReport): void;
  /** Aborts every run (app shutdown). */
  close(): void;
}

/** The `done` event of a finished run. */
function doneEvent(runId: string, report: AuditReport): AuditEvent {
  const { scanned, accounts, locks, summary } = report;
  return {
    type: 'done',
    runId,
    complete: report.complete,
    ...(report.reason ? { reason: report.reason } : {}),
    counts: { scanned, accounts, locks, summary },
    ...(report.warnings.length > 0 ? { warnings: report.warnings } : {}),
  };
}

/** Creates the registry and registers its replay with the publisher; `onFinish` hears every run that ends (the audit history). */
export function createAuditRuns(
  publisher: AuditPublisher,
  onFinish?: (report: AuditReport, history: HistoryMeta) => void | Promise<void>,
): AuditRuns {
  const runs = new Map<string, AuditRunState>();
  const warnings = new StandingWarnings();

  // A subscriber to `audit.events` first receives everything the run produced so far, the rows as
  // one snapshot that replaces whatever the subscriber held (a re-joining page may hold stale rows).
  publisher.setReplay('audit.events', (filter) => {
    const runId = typeof filter.runId === 'string' ? filter.runId : undefined;
    const run = runId ? runs.get(runId) : undefined;
    if (!runId || !run) return [];
    const events: AuditEvent[] = [];
    if (run.rows && run.counts)
      events.push({
        type: 'delta',
        runId,
        snapshot: true,
        delta: encodeDelta({ upserted: [...run.rows.values()], removed: [], counts: run.counts }),
      });
    if (run.progress) events.push({ type: 'progress', runId, progress: run.progress });
    if (run.report) events.push(doneEvent(runId, run.report));
    return events;
  });

  return {
    publisher,
    indexes: new AuditIndexes(),
    warnings,
    opening: new YieldGate(),
    samples: new RecentSamples(),
    add(runId) {
      const run: AuditRunState = { controller: new AbortController(), rows: new Map() };
      runs.set(runId, run);
      const ids = [...runs.keys()];
      for (const old of ids.slice(0, Math.max(0, ids.length - MAX_SNAPSHOT_RUNS))) {
        const stale = runs.get(old);
        if (stale?.report) delete stale.rows;
      }
      for (const old of ids.slice(0, Math.max(0, ids.length - MAX_KEPT_RUNS))) if (runs.get(old)?.report) runs.delete(old);
      return run;
    },
    get: (runId) => runs.get(runId),
    delta(runId, run, delta, progress) {
      for (const id of delta.removed) run.rows?.delete(id);
      for (const row of delta.upserted) run.rows?.set(row.id, row);
      run.counts = delta.counts;
      run.progress = progress;
      // Encoded once, here: every subscriber's transport carries the same compact rows.
      publisher.publish('audit.events', { type: 'delta', runId, delta: encodeDelta(delta) });
      publisher.publish('audit.events', { type: 'progress', runId, progress });
    },
    progress(runId, run, progress) {
      run.progress = progress;
      publisher.publish('audit.events', { type: 'progress', runId, progress });
    },
    finish(runId, run, report) {
      run.report = report;
      if (run.target !== undefined) warnings.record(run.target, report);
      // Live and export runs both end here: the one place the app records them.
      // A run someone cancelled is not an audit of the table: it is not recorded.
      const recorded = run.history && !run.controller.signal.aborted ? onFinish?.(report, run.history) : undefined;
      const done = doneEvent(runId, report);
      // `done` goes out once the history entry is written: whoever reloads the history on `done` (the
      // overview's Audit all) finds the run there, where before it could read the history first.
      if (recorded) void recorded.catch(() => undefined).then(() => publisher.publish('audit.events', done));
      else publisher.publish('audit.events', done);
    },
    close() {
      for (const run of runs.values()) run.controller.abort();
    },
  };
}
