/**
 * Parallel Scan: N segments, each paging to its end, pages handed to the consumer as they
 * arrive. Cancel stops every segment; a failed segment ends the scan as incomplete — never complete.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, DynamoDBClient, ScanCommandInput } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/model';
import type { AppError } from '../../../shared/result';
import type { ScanProgress } from '../../../shared/scan-types';
import { isAbortError, toAppError } from '../dynamo/errors';
import type { ErrorContext } from '../dynamo/errors';
import { DEFAULT_RETRY, withRetry } from '../dynamo/retry';
import type { RetryPolicy } from '../dynamo/retry';
import { RateLimiter, isLimited } from './rate-limit';
import type { RateLimit } from './rate-limit';

/** Which attributes to read: a ProjectionExpression with its name placeholders. */
export interface ScanProjection {
  readonly expression: string;
  readonly names: Readonly<Record<string, string>>;
}

/** A server-side filter (used by lookup); names must not clash with the projection's. */
export interface ScanFilter {
  readonly expression: string;
  readonly names?: Readonly<Record<string, string>>;
  readonly values?: Readonly<Record<string, AttributeValue>>;
}

/** Receives each page; return a promise to apply backpressure to that segment. */
export type PageHandler = (items: readonly Item[], segment: number) => void | Promise<void>;

/** Options of one parallel scan. */
export interface ScanOptions {
  readonly client: DynamoDBClient;
  readonly table: string;
  /** Parallel segments (TotalSegments); default 4. */
  readonly segments?: number;
  readonly projection?: ScanProjection;
  readonly filter?: ScanFilter;
  /** Items per request (Scan `Limit`); default: DynamoDB's 1 MB pages. */
  readonly pageSize?: number;
  /**
   * Items in each segment's first request (when `pageSize` is not set), growing 4× per page until
   * full 1 MB pages: a 1 MB first page holds thousands of items and takes seconds on a busy
   * endpoint, so someone watching rows stream in gets small pages first (a "slow start": with 100,
   * pages of 100, 400, 1,600 and 6,400 items, then full pages; four extra requests per segment).
   */
  readonly firstPageSize?: number;
  /** Strongly consistent reads (ConsistentRead on every Scan request; twice the read capacity). */
  readonly consistentRead?: boolean;
  readonly signal?: AbortSignal;
  readonly rateLimit?: RateLimit;
  readonly retry?: RetryPolicy;
  readonly onPage: PageHandler;
  /** Called after every page and when a segment ends. */
  readonly onProgress?: (progress: ScanProgress) => void;
  readonly errorContext?: ErrorContext;
}

/** How a scan ended. `complete` is true only when every segment reached its end. */
export interface ScanOutcome {
  readonly complete: boolean;
  /** Why the scan is incomplete (cancelled, or the first segment failure). */
  readonly reason?: string;
  readonly error?: AppError;
  readonly progress: ScanProgress;
}

/** Default TotalSegments when the caller does not choose. */
export const DEFAULT_SEGMENTS = 4;
/** DynamoDB's maximum TotalSegments. */
export const MAX_SEGMENTS = 1_000_000;

/** Mutable counters behind ScanProgress. */
class ProgressCounter {
  items = 0;
  pages = 0;
  segmentsDone = 0;
  capacityUnits = 0;
  retries = 0;
  private readonly started = performance.now();

  constructor(readonly segments: number) {}

  snapshot(): ScanProgress {
    return {
      items: this.items,
      pages: this.pages,
      segments: this.segments,
      segmentsDone: this.segmentsDone,
      capacityUnits: this.capacityUnits,
      elapsedMs: Math.round(performance.now() - this.started),
      retries: this.retries,
    };
  }
}

function baseInput(options: ScanOptions): ScanCommandInput {
  const names: Record<string, string> = { ...options.projection?.names, ...options.filter?.names };
  const input: ScanCommandInput = { TableName: options.table, ReturnConsumedCapacity: 'TOTAL' };
  if (options.projection) input.ProjectionExpression = options.projection.expression;
  if (options.filter) {
    input.FilterExpression = options.filter.expression;
    if (options.filter.values) input.ExpressionAttributeValues = { ...options.filter.values };
  }
  if (Object.keys(names).length > 0) input.ExpressionAttributeNames = names;
  if (options.pageSize) input.Limit = options.pageSize;
  if (options.consistentRead) input.ConsistentRead = true;
  return input;
}

// Past this many items per request the slow start ends and pages are DynamoDB's full 1 MB.
const RAMP_END = 10_000;

/** Scans the whole table with parallel segments; resolves (never rejects) with how it ended. */
export async function scanTable(options: ScanOptions): Promise<ScanOutcome> {
  const segments = Math.min(MAX_SEGMENTS, Math.max(1, Math.floor(options.segments ?? DEFAULT_SEGMENTS)));
  const counter = new ProgressCounter(segments);
  const input = baseInput(options);
  const limiter = isLimited(options.rateLimit) ? new RateLimiter(options.rateLimit) : undefined;
  const policy = options.retry ?? DEFAULT_RETRY;
  // One controller for all segments: the caller's cancel or the first failure stops every segment.
  const stop = new AbortController();
  const onOuterAbort = (): void => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) stop.abort(options.signal.reason);
  else options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let failure: AppError | undefined;

  const runSegment = async (segment: number): Promise<void> => {
    let startKey: Record<string, AttributeValue> | undefined;
    let rampLimit = options.pageSize ? undefined : options.firstPageSize;
    // One page per call, so nothing references a page once it is handled: read in the loop's own
    // body, the page would stay referenced by the suspended loop while the next request is awaited
    // (V8 keeps the frame's registers), one extra page per segment (scanner.int.test.ts checks).
    const readPage = async (): Promise<Record<string, AttributeValue> | undefined> => {
      if (limiter) await limiter.acquire(stop.signal);
      const request: ScanCommandInput = { ...input, Segment: segment, TotalSegments: segments, ExclusiveStartKey: startKey };
      if (rampLimit !== undefined) {
        request.Limit = rampLimit;
        rampLimit = rampLimit * 4 > RAMP_END ? undefined : rampLimit * 4;
      }
      const page = await withRetry(() => options.client.send(new ScanCommand(request), { abortSignal: stop.signal }), {
        policy,
        signal: stop.signal,
        onRetry: () => {
          counter.retries++;
        },
      });
      const items = page.Items ?? [];
      const units = page.ConsumedCapacity?.CapacityUnits ?? 0;
      counter.items += items.length;
      counter.pages++;
      counter.capacityUnits += units;
      if (limiter) limiter.consumed(units);
      const consumed = options.onPage(items, segment);
      if (consumed) await consumed;
      options.onProgress?.(counter.snapshot());
      return page.LastEvaluatedKey;
    };
    do {
      startKey = await readPage();
      if (stop.signal.aborted) return;
    } while (startKey);
    counter.segmentsDone++;
    options.onProgress?.(counter.snapshot());
  };

  await Promise.all(
    Array.from({ length: segments }, (_, segment) =>
      runSegment(segment).catch((error: unknown) => {
        if (isAbortError(error) || stop.signal.aborted) {
          // Cancelled by the caller or by another segment's failure: not a failure of its own.
          if (!stop.signal.aborted) stop.abort();
          return;
        }
        failure ??= toAppError(error, { ...options.errorContext, table: options.table });
        stop.abort();
      }),
    ),
  );
  options.signal?.removeEventListener('abort', onOuterAbort);

  const progress = counter.snapshot();
  if (failure) return { complete: false, reason: `scan failed: ${failure.message}`, error: failure, progress };
  if (options.signal?.aborted || progress.segmentsDone < segments) {
    return { complete: false, reason: 'cancelled', error: { kind: 'cancelled', message: 'scan cancelled' }, progress };
  }
  return { complete: true, progress };
}
