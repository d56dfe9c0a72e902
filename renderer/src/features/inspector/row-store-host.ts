/**
 * Runs a {@link RowStore} behind a message channel (the worker's, or the page's own in place): the
 * store is the one subscriber of its run's events in both modes, the one place progress is
 * throttled, and the one place a failure is caught and told.
 */
import type { AuditEvent } from '../../../../shared/contract';
import type { ScanProgress } from '../../../../shared/scan-types';
import { PROGRESS_EVERY_MS, RowStore, type RowStoreRequest, type RowStoreUpdate, type StreamSource } from './row-store';

/** Subscribes to a run's audit events from `source`; returns the unsubscribe. */
export type OpenStream = (source: StreamSource, runId: string, listener: (event: AuditEvent) => void) => () => void;

/**
 * Runs a store behind `post`: requests are handled in order, queued stream events are applied
 * after the store's pause (the host's own timer, so the page never waits on it). A `stream` request
 * makes the store the run's subscriber: events go straight in; one for a run already left is closed.
 */
export function hostRowStore(post: (update: RowStoreUpdate) => void, openStream: OpenStream): (request: RowStoreRequest) => void {
  const store = new RowStore();
  let run = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;
  let progress: { run: number; progress: ScanProgress } | undefined;
  let progressTimer: ReturnType<typeof setTimeout> | undefined;
  // A store that threw may have dropped the events it was applying: it says so once and stops,
  // rather than go on answering with rows that look whole.
  let failed = false;
  const leave = (): void => {
    unsubscribe?.();
    unsubscribe = undefined;
    clearTimeout(progressTimer);
    progressTimer = undefined;
    progress = undefined;
  };
  const guarded = (step: () => void): void => {
    if (failed) return;
    try {
      step();
    } catch (error) {
      failed = true;
      clearTimeout(timer);
      leave();
      post({ type: 'failed', reason: error instanceof Error ? error.message : String(error) });
    }
  };
  const send = (update: RowStoreUpdate | undefined): void => {
    if (update) post(update);
  };
  const sendProgress = (): void => {
    clearTimeout(progressTimer);
    progressTimer = undefined;
    if (progress) post({ type: 'progress', ...progress });
    progress = undefined;
  };
  const schedule = (): void => {
    if (timer !== undefined) return;
    const delay = store.flushDelay();
    if (delay === undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      guarded(() => {
        // Progress waiting for its own turn goes now, so the page renders both at once.
        if (progress) sendProgress();
        send(store.flush());
        schedule();
      });
    }, delay);
  };
  // One event of the subscribed run: progress waits for its turn (or the next rows), the rest queue in the store.
  const receive = (subscribed: number, event: AuditEvent): void => {
    if (event.type === 'progress') {
      progress = { run: subscribed, progress: event.progress };
      progressTimer ??= setTimeout(sendProgress, PROGRESS_EVERY_MS);
      return;
    }
    if (event.type === 'done') sendProgress();
    handle({ type: 'events', run: subscribed, events: [event] });
  };
  const handle = (request: RowStoreRequest): void => guarded(() => handleNow(request));
  const handleNow = (request: RowStoreRequest): void => {
    if (request.type === 'reset') {
      run = request.run;
      leave();
    }
    if (request.type === 'stream') {
      const { source, runId } = request;
      if (request.run !== run) {
        // Started, then left before its port came: nobody reads it, so main's subscription ends now.
        if (source.kind === 'port') source.port.close();
        return;
      }
      leave();
      const subscribed = request.run;
      unsubscribe = openStream(source, runId, (event) => receive(subscribed, event));
      return;
    }
    send(store.handle(request));
    schedule();
  };
  return handle;
}
