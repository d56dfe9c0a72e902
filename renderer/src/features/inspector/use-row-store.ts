/**
 * The store half of `useAudit`: the row store (a Web Worker, `row-store.ts`) that subscribes to a
 * run's events itself, the rows view it sends back, and its numbering of runs. It reports the run's
 * progress and failure (its end comes with the rows view: `run-end.ts`); what a run is and when it starts is
 * the policy's (`use-audit.ts`).
 */
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { LookupView } from '../../../../shared/contract';
import type { LocksmithBridge } from '../../../../shared/contract/api';
import type { KeySchema } from '../../../../shared/model';
import type { ScanProgress } from '../../../../shared/scan-types';
import type { ShownProblems } from './audit-state';
import { auditStreamSource } from './audit-stream-source';
import { createPendingExports } from './pending-exports';
import type { InspectorFilter } from './row-filter';
import { frameViews } from './frame-views';
import { EMPTY_VIEW, type RowsView, type RowStoreUpdate, type ViewSpec } from './row-store';
import { openRowStore, type RowStoreClient } from './row-store-client';

/** What the store tells the policy about the current run. */
export interface RunListener {
  readonly progress: (progress: ScanProgress) => void;
  /** The store broke, or the run's events could not be reached: the rows may lack some. */
  readonly failed: (reason: string) => void;
}

/** The row store as the policy drives it. */
export interface RowStoreHandle {
  readonly rows: RowsView;
  /** Leaves the current run (its events are dropped from now on) and starts numbering the next; returns that number. */
  readonly leave: () => number;
  /** Whether `run` (from {@link leave}) is still the current one. */
  readonly isCurrent: (run: number) => boolean;
  /** Makes the store run `runId`'s one subscriber. */
  readonly follow: (run: number, runId: string) => void;
  /** Drops the broken store: the next run opens a fresh one. */
  readonly discard: () => void;
  readonly patch: (lookup: LookupView) => void;
  readonly setView: (spec: ViewSpec) => void;
  readonly setWindow: (start: number, end: number) => void;
  readonly shownProblems: (filter: InspectorFilter, keys: KeySchema) => Promise<ShownProblems>;
}

/** Holds one row store for the inspector's runs; `listener` hears the current run's progress and failure. */
export function useRowStore(bridge: LocksmithBridge, listener: RunListener): RowStoreHandle {
  const [rows, setRows] = useState<RowsView>(EMPTY_VIEW);
  // Bumped by every leave: a start whose answer arrives after a newer start (or unmount) is
  // stale. It also numbers the run in the row store, which drops what an older run sends.
  const generationRef = useRef(0);
  const exportsRef = useRef(createPendingExports());
  const listenerRef = useRef(listener);
  useEffect(() => {
    listenerRef.current = listener;
  }, [listener]);

  // A transition: React renders it in slices of a few ms, yielding to input and frames between
  // them, where a plain update from a message renders in one long task on a large
  // audit (figures: docs/benchmarks.md). The run's end is part of the view (applied a frame later: run-end.ts).
  // At most one view a frame reaches it (frame-views.ts).
  const [frames] = useState(() =>
    frameViews((view) => {
      if (view.run !== generationRef.current) return;
      startTransition(() => {
        setRows((previous) => (view.sameRows && previous.run === view.run ? { ...view, rows: previous.rows } : view));
      });
    }),
  );

  // The rows live in the row store: it reads the run's events itself, and the page gets back what
  // it shows. The run is done once the store has applied its `done` event, so whatever reads the
  // rows after `phase: 'done'` reads all of them.
  const onUpdate = useCallback(
    (update: RowStoreUpdate) => {
      if (update.type === 'export') {
        exportsRef.current.answer(update.id, { rowsShown: update.rowsShown, problems: update.problems });
        return;
      }
      if (update.type === 'progress') {
        const { progress } = update;
        if (update.run === generationRef.current) startTransition(() => listenerRef.current.progress(progress));
        return;
      }
      if (update.type === 'failed') {
        exportsRef.current.fail(update.reason);
        listenerRef.current.failed(update.reason);
        return;
      }
      if (update.view.run === generationRef.current) frames.push(update.view);
    },
    [frames],
  );
  const storeRef = useRef<RowStoreClient | undefined>(undefined);
  // Unmounted: the policy's last leave must not open a store nobody will close.
  const closedRef = useRef(false);
  const post: RowStoreClient['post'] = useCallback(
    (request) => {
      if (closedRef.current) {
        if (request.type === 'stream' && request.source.kind === 'port') request.source.port.close();
        return;
      }
      (storeRef.current ??= openRowStore(onUpdate)).post(request);
    },
    [onUpdate],
  );

  const leave = useCallback(() => {
    generationRef.current += 1;
    frames.drop();
    setRows(EMPTY_VIEW);
    // Events of the old run are dropped, not applied to the next one (a discarded store's
    // successor is opened, and numbered, by this reset).
    post({ type: 'reset', run: generationRef.current });
    return generationRef.current;
  }, [post, frames]);
  const isCurrent = useCallback((run: number) => run === generationRef.current, []);

  const follow = useCallback(
    (run: number, runId: string) => {
      void auditStreamSource(bridge, runId).then((source) => {
        if (!source.ok) {
          if (run === generationRef.current) listenerRef.current.failed(source.error.message);
          return;
        }
        // Left while the port was on its way: closing it ends main's subscription.
        if (run !== generationRef.current) {
          if (source.value.kind === 'port') source.value.port.close();
          return;
        }
        post({ type: 'stream', run, runId, source: source.value });
      });
    },
    [bridge, post],
  );

  const discard = useCallback(() => {
    storeRef.current?.close();
    storeRef.current = undefined;
  }, []);
  // Closing the store (its worker) closes its stream too.
  useEffect(() => {
    closedRef.current = false;
    return () => {
      closedRef.current = true;
      discard();
    };
  }, [discard]);

  const patch = useCallback((lookup: LookupView) => post({ type: 'patch', run: generationRef.current, lookup }), [post]);
  const setView = useCallback((spec: ViewSpec) => post({ type: 'view', spec }), [post]);
  const setWindow = useCallback((start: number, end: number) => post({ type: 'window', start, end }), [post]);
  const shownProblems = useCallback(
    (filter: InspectorFilter, keys: KeySchema): Promise<ShownProblems> =>
      exportsRef.current.ask((id) => post({ type: 'export', id, filter, keys })),
    [post],
  );
  return { rows, leave, isCurrent, follow, discard, patch, setView, setWindow, shownProblems };
}
