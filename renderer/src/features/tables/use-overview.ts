/**
 * The overview of a connection's tables: each table surveyed once (does it hold locks), the
 * connection's audit history, and "Audit all" — the app's own audit runs (`audit.start`, followed on
 * `audit.events`), two at a time, cancellable; each finished run lands in the history by itself.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AppError } from '../../../../shared/result';
import { useBridge } from '../../bridge/bridge-context';
import { useQuery } from '../../bridge/use-method';
import { overviewRows, type OverviewRow, type SurveyState } from './overview-rows';
import { whenNotOpening } from './table-opening';

/** Tables surveyed, and audited by Audit all, at the same time. */
export const AT_ONCE = 2;

/** Where Audit all is. */
export interface AuditAllState {
  readonly running: boolean;
  readonly total: number;
  readonly finished: number;
  /** Items read so far by each running audit. */
  readonly items: Readonly<Record<string, number>>;
  readonly cancelled: boolean;
  /** Tables whose audit could not start or did not complete, and why. */
  readonly failures: Readonly<Record<string, string>>;
}

/** What the overview shows and does. */
export interface OverviewState {
  readonly rows: readonly OverviewRow[];
  readonly historyError: AppError | undefined;
  readonly auditAll: AuditAllState;
  readonly startAll: () => void;
  readonly cancelAll: () => void;
}

const IDLE: AuditAllState = { running: false, total: 0, finished: 0, items: {}, cancelled: false, failures: {} };

/** Runs `task` over `items`, at most AT_ONCE at a time, until `stop()` says so. */
async function bounded<T>(items: readonly T[], task: (item: T) => Promise<void>, stop: () => boolean): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !stop()) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, worker));
}

/** The overview of `tables` on `connectionId`. */
export function useOverview(connectionId: string | undefined, tables: readonly string[] | undefined): OverviewState {
  const bridge = useBridge();
  const history = useQuery('history.list', connectionId ? { connectionId } : null);
  const [surveys, setSurveys] = useState<{ owner: string | undefined; map: ReadonlyMap<string, SurveyState> }>({
    owner: undefined,
    map: new Map(),
  });
  const [auditAll, setAuditAll] = useState<AuditAllState>(IDLE);
  const running = useRef<{ cancelled: boolean; runs: Set<string> } | undefined>(undefined);
  const tablesKey = JSON.stringify(tables ?? []);

  // Each listed table is sampled once per connection (a bounded read), two at a time, none starting while a table is opened.
  useEffect(() => {
    if (!connectionId) return undefined;
    const names = JSON.parse(tablesKey) as string[];
    let live = true;
    const known = surveys.owner === connectionId ? surveys.map : new Map<string, SurveyState>();
    const todo = names.filter((t) => !known.has(t));
    if (todo.length === 0) return undefined;
    const put = (table: string, state: SurveyState): void => {
      if (live) setSurveys((s) => ({ owner: connectionId, map: new Map(s.owner === connectionId ? s.map : []).set(table, state) }));
    };
    for (const t of todo) put(t, { state: 'loading' });
    void bounded(
      todo,
      async (table) => {
        // A table being opened goes first: its audit start and this survey would share the server's one thread.
        await whenNotOpening();
        if (!live) return;
        const result = await bridge
          .call('tables.survey', { connectionId, table })
          .catch((cause: unknown) => ({ ok: false as const, error: { kind: 'unreachable' as const, message: String(cause) } }));
        put(table, result.ok ? { state: 'done', view: result.value } : { state: 'failed', error: result.error });
      },
      () => !live,
    );
    return () => {
      live = false;
    };
    // surveys is read, not a trigger: a survey finishing must not start the effect again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bridge, connectionId, tablesKey]);

  const rows = useMemo(
    () =>
      overviewRows(
        JSON.parse(tablesKey) as string[],
        surveys.owner === connectionId ? surveys.map : new Map<string, SurveyState>(),
        history.data?.entries ?? [],
      ),
    [tablesKey, surveys, connectionId, history.data],
  );
  const reloadHistory = history.reload;

  const startAll = useCallback(() => {
    if (!connectionId || running.current) return;
    const targets = rows.filter((r) => r.auditable).map((r) => r.table);
    const run = { cancelled: false, runs: new Set<string>() };
    running.current = run;
    setAuditAll({ ...IDLE, running: true, total: targets.length });
    const finish = (table: string, failure?: string): void =>
      setAuditAll((s) => {
        const items = { ...s.items };
        delete items[table];
        return { ...s, finished: s.finished + 1, items, failures: failure ? { ...s.failures, [table]: failure } : s.failures };
      });
    const auditOne = async (table: string): Promise<void> => {
      const started = await bridge
        .call('audit.start', { connectionId, table })
        .catch((cause: unknown) => ({ ok: false as const, error: { kind: 'unreachable' as const, message: String(cause) } }));
      if (!started.ok) return finish(table, started.error.message);
      const { runId } = started.value;
      run.runs.add(runId);
      // Cancelled while it was starting: stop it at once.
      if (run.cancelled) void bridge.call('audit.cancel', { runId });
      await new Promise<void>((resolve) => {
        const unsubscribe = bridge.subscribe('audit.events', { runId }, (event) => {
          if (event.type === 'progress') setAuditAll((s) => ({ ...s, items: { ...s.items, [table]: event.progress.items } }));
          if (event.type !== 'done') return;
          unsubscribe();
          run.runs.delete(runId);
          finish(table, event.complete ? undefined : (event.reason ?? 'incomplete'));
          resolve();
        });
      });
    };
    void bounded(targets, auditOne, () => run.cancelled).finally(() => {
      running.current = undefined;
      setAuditAll((s) => ({ ...s, running: false }));
      reloadHistory();
    });
  }, [bridge, connectionId, rows, reloadHistory]);

  const cancelAll = useCallback(() => {
    const run = running.current;
    if (!run) return;
    run.cancelled = true;
    setAuditAll((s) => ({ ...s, cancelled: true }));
    for (const runId of run.runs) void bridge.call('audit.cancel', { runId });
  }, [bridge]);

  return { rows, historyError: history.error, auditAll, startAll, cancelAll };
}
