/**
 * Running an audit: the parallel scanner feeding the pure AuditEngine, batched deltas out to
 * the UI, and a report that says `complete: false` (with the reason) whenever the scan did not finish.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AuditEngine, projectionFor } from '../../../shared/audit/engine';
import type { AuditDelta, AuditReport } from '../../../shared/audit/types';
import type { Convention } from '../../../shared/model';
import type { AppError } from '../../../shared/result';
import type { ScanProgress } from '../../../shared/scan-types';
import type { ErrorContext } from '../dynamo/errors';
import type { RetryPolicy } from '../dynamo/retry';
import type { RateLimit } from '../scanner/rate-limit';
import { scanTable } from '../scanner/scanner';
import type { ScanProjection } from '../scanner/scanner';

/** Options of one audit run. */
export interface RunAuditOptions {
  readonly client: DynamoDBClient;
  readonly table: string;
  readonly convention: Convention;
  readonly segments?: number;
  readonly signal?: AbortSignal;
  readonly rateLimit?: RateLimit;
  readonly retry?: RetryPolicy;
  /**
   * Receives batched changes with the scan progress, at most every `deltaIntervalMs`, and once
   * at the end. Without it the engine does not track changes (the CLI only needs the report).
   */
  readonly onDelta?: (delta: AuditDelta, progress: ScanProgress) => void;
  /** Minimum time between deltas; default 100 ms. */
  readonly deltaIntervalMs?: number;
  /** Most rows per delta (the rest follow in the next); default unlimited. */
  readonly maxRowsPerDelta?: number;
  /** Progress after every page (cheap; for progress bars that do not need rows). */
  readonly onProgress?: (progress: ScanProgress) => void;
  readonly errorContext?: ErrorContext;
}

/** The outcome: the report (always), the final scan progress, and the error that stopped the scan, if any. */
export interface AuditRun {
  readonly report: AuditReport;
  readonly progress: ScanProgress;
  readonly error?: AppError;
}

/** The engine's projection in the scanner's form. */
export function scanProjection(convention: Convention): ScanProjection {
  const p = projectionFor(convention);
  return { expression: p.ProjectionExpression, names: p.ExpressionAttributeNames };
}

/** Audits a whole table; resolves (never rejects) with a report that is complete only if every segment finished. */
export async function runAudit(options: RunAuditOptions): Promise<AuditRun> {
  const { onDelta } = options;
  const engine = new AuditEngine(options.convention, { trackDeltas: onDelta !== undefined });
  const interval = options.deltaIntervalMs ?? 100;
  let lastDeltaAt = performance.now();

  const outcome = await scanTable({
    client: options.client,
    table: options.table,
    segments: options.segments,
    projection: scanProjection(options.convention),
    signal: options.signal,
    rateLimit: options.rateLimit,
    retry: options.retry,
    errorContext: options.errorContext,
    // The page goes straight into the engine: no copies, no per-item work here.
    onPage: (items) => engine.addItems(items),
    onProgress: (progress) => {
      options.onProgress?.(progress);
      if (!onDelta) return;
      const now = performance.now();
      if (now - lastDeltaAt < interval) return;
      lastDeltaAt = now;
      onDelta(engine.takeDelta(options.maxRowsPerDelta), progress);
    },
  });

  const progress = outcome.progress;
  if (onDelta) {
    // Drain what is pending so the UI ends with exactly the report's rows.
    let delta = engine.takeDelta(options.maxRowsPerDelta);
    onDelta(delta, progress);
    while (options.maxRowsPerDelta !== undefined && delta.upserted.length >= options.maxRowsPerDelta) {
      delta = engine.takeDelta(options.maxRowsPerDelta);
      if (delta.upserted.length === 0 && delta.removed.length === 0) break;
      onDelta(delta, progress);
    }
  }
  const report = engine.report(outcome.complete ? { table: options.table, complete: true } : { table: options.table, complete: false, reason: outcome.reason ?? 'incomplete' });
  return outcome.error ? { report, progress, error: outcome.error } : { report, progress };
}
