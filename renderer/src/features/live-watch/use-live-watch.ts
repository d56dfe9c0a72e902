/**
 * The "Live" toggle's state: on → `watch.start` (the table's stream must exist; the error says how
 * to enable it) and a subscription to `watch.events`; off, a table change or leaving the inspector →
 * unsubscribe and `watch.stop`; a new convention → started again with it. The events go through the
 * pure reducer in live-problems.ts.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Convention } from '../../../../shared/model';
import type { AppError } from '../../../../shared/result';
import type { LiveWatchEvent } from '../../../../shared/watch/watch-events';
import { useBridge } from '../../bridge/bridge-context';
import { applyLiveEvent, NO_LIVE_PROBLEMS, type LiveProblems } from './live-problems';

/** What the panel shows and does. */
export interface LiveWatchState extends LiveProblems {
  readonly on: boolean;
  readonly starting: boolean;
  readonly error: AppError | undefined;
  readonly toggle: (on: boolean) => void;
}

/** The live watch of one table. */
export function useLiveWatch(connectionId: string | undefined, table: string, convention: Convention | undefined): LiveWatchState {
  const bridge = useBridge();
  const key = `${connectionId ?? ''}|${table}`;
  // The table the toggle was switched on for: another table starts paused (derived, not synced).
  const [onFor, setOnFor] = useState<string>();
  const on = onFor === key;
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<AppError>();
  const [live, setLive] = useState<LiveProblems>(NO_LIVE_PROBLEMS);
  const session = useRef<{ watchId?: string; unsubscribe?: () => void; cancelled: boolean } | undefined>(undefined);
  // The convention the running watch reads with: main judges every record by it.
  const conventionKey = convention === undefined ? '' : JSON.stringify(convention);
  const startedWith = useRef<string | undefined>(undefined);

  const end = useCallback(() => {
    const current = session.current;
    session.current = undefined;
    if (!current) return;
    current.cancelled = true;
    current.unsubscribe?.();
    if (current.watchId) void bridge.call('watch.stop', { watchId: current.watchId });
  }, [bridge]);

  const toggle = useCallback(
    (next: boolean) => {
      end();
      startedWith.current = next ? conventionKey : undefined;
      setOnFor(next ? key : undefined);
      setError(undefined);
      setStarting(false);
      setLive(NO_LIVE_PROBLEMS);
      if (!next || !connectionId) return;
      const mine: { watchId?: string; unsubscribe?: () => void; cancelled: boolean } = { cancelled: false };
      session.current = mine;
      setStarting(true);
      void bridge.call('watch.start', { connectionId, table, ...(convention ? { convention } : {}) }).then((result) => {
        if (mine.cancelled) {
          if (result.ok) void bridge.call('watch.stop', { watchId: result.value.watchId });
          return;
        }
        setStarting(false);
        if (!result.ok) {
          setError(result.error);
          setOnFor(undefined);
          session.current = undefined;
          return;
        }
        mine.watchId = result.value.watchId;
        mine.unsubscribe = bridge.subscribe('watch.events', { watchId: result.value.watchId }, (event: LiveWatchEvent) =>
          setLive((state) => applyLiveEvent(state, event)),
        );
      });
    },
    [bridge, connectionId, table, convention, conventionKey, end, key],
  );

  // Audited again under another convention while live: the watch is started again with it (the old one would keep
  // judging records by rules the page no longer shows).
  useEffect(() => {
    if (onFor === key && startedWith.current !== undefined && startedWith.current !== conventionKey) toggle(true);
  }, [onFor, key, conventionKey, toggle]);

  // Needed: a watch holds a stream reader in main; it must end with the table or the inspector.
  useEffect(() => end, [end, connectionId, table]);

  return on
    ? { ...live, on, starting, error, toggle }
    : { ...NO_LIVE_PROBLEMS, on, starting: false, error: onFor === undefined ? error : undefined, toggle };
}
