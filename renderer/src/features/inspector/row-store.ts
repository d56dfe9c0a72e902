/**
 * The inspector's row store, run in a Web Worker (`row-store.worker.ts`): it applies an audit's
 * streamed deltas, re-checks after writes, sorts and filters, and hands the page only the counts,
 * the view's length and the rows of the window on screen. A large audit's store holds tens of
 * thousands of rows and every batch costs a few O(rows) passes plus the garbage of the parsed rows;
 * on the page's own thread that made long tasks (figures: docs/benchmarks.md). Pure and synchronous, so the
 * unit tests drive it directly and a page without workers runs the same code in place.
 */
import type { ConventionWarning } from '../../../../shared/audit/fit';
import type { AuditCounts, GroupRow } from '../../../../shared/audit/types';
import { problemsOfRows } from '../../../../shared/audit/problem-rules';
import { decodeDelta, type AuditEvent, type LookupView } from '../../../../shared/contract';
import type { KeySchema, Problem } from '../../../../shared/model';
import type { ScanProgress } from '../../../../shared/scan-types';
import { applyAuditDeltas, EMPTY_AUDIT_ROWS, type AuditRows } from './audit-rows';
import { patchRowsWithLookup } from './patch-rows';
import { rowMatches, type InspectorFilter } from './row-filter';
import { filterRows, sortRows, type SortCriterion, type SortedRows } from './row-view';

/** How the page wants the rows: sorted, filtered, for this key schema. */
export interface ViewSpec {
  /** Numbers the page's specs, so it can tell a view of the newest one from an older one. */
  readonly id: number;
  readonly sorting: readonly SortCriterion[];
  readonly keys: KeySchema;
  readonly filter: InspectorFilter;
}

/** What the page asks of the store. `run` numbers the audit run; requests of an older run are ignored. */
export type RowStoreRequest =
  | { readonly type: 'reset'; readonly run: number }
  | { readonly type: 'events'; readonly run: number; readonly events: readonly AuditEvent[] }
  | { readonly type: 'patch'; readonly run: number; readonly lookup: LookupView }
  | { readonly type: 'view'; readonly spec: ViewSpec }
  | { readonly type: 'window'; readonly start: number; readonly end: number }
  | { readonly type: 'export'; readonly id: number; readonly filter: InspectorFilter; readonly keys: KeySchema }
  /** The store subscribes to the run's events itself (its one route in both modes), so the page never parses a row. */
  | { readonly type: 'stream'; readonly run: number; readonly runId: string; readonly source: StreamSource };

/**
 * Where the store reads a run's events: browser mode's event stream (it opens its own), or
 * Electron's MessagePort from main (the preload hands it to the page, the page to the store).
 */
export type StreamSource =
  { readonly kind: 'http'; readonly baseUrl: string; readonly token: string } | { readonly kind: 'port'; readonly port: MessagePort };

/** The end of a run, once every row before it is in the store. */
export interface RunEnd {
  readonly complete: boolean;
  readonly reason: string | undefined;
  /** Rules the table contradicts (the run's `done` event): empty when the convention explains the table. */
  readonly warnings: readonly ConventionWarning[];
}

/** What the page shows of the store. */
export interface RowsView {
  readonly run: number;
  /** Bumped by every change: a window answer older than the view it was cut from is never shown. */
  readonly version: number;
  /** Rows in the store. */
  readonly total: number;
  /** Rows the filter keeps: the grid's length. */
  readonly length: number;
  /** The {@link ViewSpec} this view was made for (0: none yet). */
  readonly specId: number;
  readonly counts: AuditCounts | undefined;
  /** Rows `start…start + rows.length - 1` of the view. */
  readonly start: number;
  readonly rows: readonly GroupRow[];
  /**
   * The window holds the very rows the previous update sent (`rows` is then empty): the page keeps
   * its copies, so a batch that lands off screen re-renders no row (each message would otherwise
   * carry fresh copies of the same rows).
   */
  readonly sameRows?: true;
  /** Set once the run's `done` event is applied. */
  readonly end?: RunEnd;
}

/** What the store tells the page. */
export type RowStoreUpdate =
  | { readonly type: 'view'; readonly view: RowsView }
  | { readonly type: 'export'; readonly id: number; readonly rowsShown: number; readonly problems: readonly Problem[] }
  /** The scan's progress (at most every {@link PROGRESS_EVERY_MS}). */
  | { readonly type: 'progress'; readonly run: number; readonly progress: ScanProgress }
  /** The store broke (an exception, a crashed worker): its rows may be missing some, and it answers nothing more. */
  | { readonly type: 'failed'; readonly reason: string };

/**
 * Progress is passed on at most this often: each one re-renders the inspector and draws a frame,
 * CPU taken from the scan on a machine that runs the table too. A batch of rows takes the progress
 * waiting with it, so most progress costs no render of its own.
 */
export const PROGRESS_EVERY_MS = 250;

/** The view before any run. */
export const EMPTY_VIEW: RowsView = { run: 0, version: 0, total: 0, length: 0, specId: 0, counts: undefined, start: 0, rows: [] };

/**
 * The pause between two applications of streamed rows: grows with the store, as each one costs a
 * few O(rows) passes (and a render of the page), so those stay a small share of the audit's CPU:
 * ~70 ms at 10k rows, the 500 ms cap from 75k.
 */
export function batchDelayMs(rowCount: number): number {
  return Math.min(500, Math.max(30, Math.round(rowCount / 150)));
}

/**
 * The store's state machine. `handle` returns what the page must hear now; streamed events are
 * queued and applied by `flush`, which the host calls after `flushDelay()` (at once for a run's end).
 */
export class RowStore {
  private run = 0;
  private version = 0;
  private rows: AuditRows = EMPTY_AUDIT_ROWS;
  private sorted: SortedRows | undefined;
  private view: readonly GroupRow[] = [];
  private spec: ViewSpec | undefined;
  private window = { start: 0, end: 0 };
  private sent: { start: number; rows: readonly GroupRow[] } | undefined;
  private pending: AuditEvent[] = [];
  private end: RunEnd | undefined;
  // The run's re-checks after writes, in order: a snapshot (a reconnecting stream's replay) holds
  // the rows as the audit read them, before those writes, so they are applied again after it.
  private patches: LookupView[] = [];

  /** Handles one request; returns the update to send, if any. */
  handle(request: RowStoreRequest): RowStoreUpdate | undefined {
    switch (request.type) {
      case 'reset':
        this.run = request.run;
        this.rows = EMPTY_AUDIT_ROWS;
        this.sorted = undefined;
        this.pending = [];
        this.end = undefined;
        this.sent = undefined;
        this.patches = [];
        return this.refresh();
      case 'events':
        if (request.run !== this.run) return undefined;
        this.pending.push(...request.events);
        return request.events.some((e) => e.type === 'done') ? this.flush() : undefined;
      case 'patch':
        if (request.run !== this.run) return undefined;
        this.flush(); // rows still waiting for their batch come first
        this.rows = patchRowsWithLookup(this.rows, request.lookup);
        this.patches.push(request.lookup);
        return this.refresh();
      case 'view':
        this.spec = request.spec;
        return this.refresh();
      case 'window':
        this.window = { start: Math.max(0, request.start), end: Math.max(request.start, request.end) };
        this.sent = undefined; // the page asked: it gets the rows
        return { type: 'view', view: this.current() };
      case 'export':
        return this.exported(request.id, request.filter, request.keys);
      case 'stream':
        return undefined; // the host's business (row-store-host.ts)
    }
  }

  /** Whether events wait to be applied, and after how long they should be. */
  flushDelay(): number | undefined {
    return this.pending.length === 0 ? undefined : this.rows.list.length === 0 ? 0 : batchDelayMs(this.rows.list.length);
  }

  /** Applies the queued events (in arrival order) and returns the new view; undefined when nothing was queued. */
  flush(): RowStoreUpdate | undefined {
    const events = this.pending;
    if (events.length === 0) return undefined;
    this.pending = [];
    // A snapshot (the hub's replay on subscribing) holds every row so far: it replaces the store,
    // and deltas before it are already in it.
    const snapshotAt = events.findLastIndex((e) => e.type === 'delta' && e.snapshot === true);
    if (snapshotAt >= 0) this.rows = EMPTY_AUDIT_ROWS;
    const deltas = events.slice(Math.max(0, snapshotAt)).flatMap((e) => (e.type === 'delta' ? [decodeDelta(e.delta)] : []));
    this.rows = applyAuditDeltas(this.rows, deltas, { inPlace: true });
    for (const event of events) {
      // The run's own final counts are the truth, as they were before rows had a store of their own.
      if (event.type === 'done') {
        this.end = { complete: event.complete, reason: event.reason, warnings: event.warnings ?? [] };
        this.rows = { ...this.rows, counts: event.counts };
      }
    }
    // After the run's final counts too: those are the audit's, from before the writes.
    if (snapshotAt >= 0) for (const lookup of this.patches) this.rows = patchRowsWithLookup(this.rows, lookup);
    return this.refresh();
  }

  private refresh(): RowStoreUpdate {
    this.version += 1;
    if (this.spec) {
      this.sorted = sortRows(this.sorted, this.rows, this.spec.sorting, this.spec.keys);
      this.view = filterRows(this.sorted.rows, this.spec.filter);
    } else {
      this.view = this.rows.list;
    }
    return { type: 'view', view: this.current() };
  }

  private current(): RowsView {
    const { start, end } = this.window;
    const rows = this.view.slice(start, end);
    const sent = this.sent;
    const same =
      sent !== undefined && sent.start === start && sent.rows.length === rows.length && rows.every((row, i) => row === sent.rows[i]);
    this.sent = { start, rows };
    const view: RowsView = {
      run: this.run,
      version: this.version,
      total: this.rows.list.length,
      length: this.view.length,
      specId: this.spec?.id ?? 0,
      counts: this.rows.counts,
      start,
      rows: same ? [] : rows,
      ...(same ? { sameRows: true as const } : {}),
    };
    return this.end ? { ...view, end: this.end } : view;
  }

  // An export is what the inspector shows: the rows the filter keeps (in any order: the problems are sorted).
  private exported(id: number, filter: InspectorFilter, keys: KeySchema): RowStoreUpdate {
    const shown = this.rows.list.filter((row) => rowMatches(row, filter));
    return { type: 'export', id, rowsShown: shown.length, problems: problemsOfRows(shown, keys) };
  }
}
