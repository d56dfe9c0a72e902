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
import type { AuditIndex } from './audit-index';

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
  /** A complete audit's holders by (rule, value), for lookups (see audit-index.ts); absent when incomplete. */
  readonly index?: AuditIndex;
}

/**
 * Rows per delta when an audit is streamed to a window: a bounded message (~0.2 MB of JSON) keeps
 * each parse and each apply step in the renderer short.
 */
export const STREAM_ROWS_PER_DELTA = 500;

/** Items in each segment's first page when deltas are streamed (later pages are DynamoDB's full 1 MB). */
export const FIRST_PAGE_ITEMS = 100;

/** The engine's projection in the scanner's form. */
export function scanProjection(convention: Convention): ScanProjection {
  const p = projectionFor(convention);
  return { expression: p.ProjectionExpression, names: p.ExpressionAttributeNames };
}

/** The progress of two scans as one (sums; the slower one's elapsed time). */
function combineProgress(parts: readonly (ScanProgress | undefined)[]): ScanProgress {
  const seen = parts.filter((p): p is ScanProgress => p !== undefined);
  if (seen.length === 1) return seen[0]!;
  const sum = (f: (p: ScanProgress) => number): number => seen.reduce((n, p) => n + f(p), 0);
  return {
    items: sum((p) => p.items),
    pages: sum((p) => p.pages),
    segments: sum((p) => p.segments),
    segmentsDone: sum((p) => p.segmentsDone),
    capacityUnits: sum((p) => p.capacityUnits),
    elapsedMs: Math.max(0, ...seen.map((p) => p.elapsedMs)),
    retries: sum((p) => p.retries),
  };
}

/** Audits a whole table; resolves (never rejects) with a report that is complete only if every segment finished. */
export async function runAudit(options: RunAuditOptions): Promise<AuditRun> {
  const { onDelta } = options;
  const startedAt = Date.now();
  const engine = new AuditEngine(options.convention, { trackDeltas: onDelta !== undefined });
  const interval = options.deltaIntervalMs ?? 100;
  // The first page's rows go out at once: they are what someone watching sees first.
  let lastDeltaAt = Number.NEGATIVE_INFINITY;

  // Deltas of at most maxRowsPerDelta rows each, until nothing is pending: a page can change
  // thousands of rows, and one bounded message at a time keeps every receiver's step small.
  // Orphans are held back until the scan has ended (see AuditEngine.takeDelta).
  const emit = (progress: ScanProgress, final: boolean): void => {
    if (!onDelta) return;
    const max = options.maxRowsPerDelta ?? Number.POSITIVE_INFINITY;
    let delta: AuditDelta;
    do {
      delta = engine.takeDelta(max, final);
      onDelta(delta, progress);
    } while (delta.upserted.length >= max);
  };

  // A convention with a lock table: both tables are scanned at once, each in parallel segments, into one engine.
  const lockTable = options.convention.lockTable;
  const sides =
    lockTable === undefined
      ? [{ table: options.table, from: 'table' as const }]
      : [
          { table: options.table, from: 'table' as const },
          { table: lockTable, from: 'lock-table' as const },
        ];
  const latest: (ScanProgress | undefined)[] = sides.map(() => undefined);
  const outcomes = await Promise.all(
    sides.map((side, i) =>
      scanTable({
        client: options.client,
        table: side.table,
        segments: options.segments,
        projection: scanProjection(options.convention),
        signal: options.signal,
        rateLimit: options.rateLimit,
        retry: options.retry,
        errorContext: side.from === 'table' ? options.errorContext : { ...options.errorContext, table: side.table },
        // Someone is watching rows arrive: a small first page per segment gets rows on screen quickly.
        ...(onDelta ? { firstPageSize: FIRST_PAGE_ITEMS } : {}),
        // The page goes straight into the engine: no copies, no per-item work here.
        onPage: (items) => engine.addItems(items, side.from),
        onProgress: (p) => {
          latest[i] = p;
          const progress = combineProgress(latest);
          options.onProgress?.(progress);
          if (!onDelta) return;
          const now = performance.now();
          if (now - lastDeltaAt < interval) return;
          lastDeltaAt = now;
          emit(progress, false);
        },
      }),
    ),
  );
  const outcome = outcomes.find((o) => !o.complete) ?? outcomes[0]!;
  const progress = combineProgress(outcomes.map((o) => o.progress));
  // Drain what is pending, orphans included, so the UI ends with exactly the report's rows.
  if (onDelta) emit(progress, true);
  const report = engine.report(
    outcome.complete
      ? { table: options.table, complete: true }
      : { table: options.table, complete: false, reason: outcome.reason ?? 'incomplete' },
  );
  if (outcome.error) return { report, progress, error: outcome.error };
  if (!report.complete) return { report, progress };
  const index: AuditIndex = {
    table: options.table,
    convention: options.convention,
    startedAt,
    finishedAt: Date.now(),
    holders: (ruleIndex, normalized, scope) => engine.holderKeys(ruleIndex, normalized, scope),
  };
  return { report, progress, index };
}
