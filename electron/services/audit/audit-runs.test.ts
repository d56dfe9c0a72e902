import { describe, expect, it } from 'vitest';
import type { AuditReport, GroupRow } from '../../../shared/audit/types';
import { decodeDelta } from '../../../shared/contract/audit-wire';
import type { AuditEvent } from '../../../shared/contract/views';
import type { ScanProgress } from '../../../shared/scan-types';
import { createAuditRuns, MAX_KEPT_RUNS, MAX_SNAPSHOT_RUNS, type AuditPublisher } from './audit-runs';

const summary = { 'orphan-lock': 0, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 };
const counts = { scanned: 2, accounts: 1, locks: 1, summary };
const progress: ScanProgress = { items: 2, pages: 1, segments: 1, segmentsDone: 1, capacityUnits: 0, elapsedMs: 1, retries: 0 };
const report = {
  table: 't',
  complete: true,
  scanned: 2,
  accounts: 1,
  locks: 1,
  summary,
  problems: [],
  warnings: [],
} as unknown as AuditReport;
const row = (id: string): GroupRow => ({ kind: 'orphan-lock', id, key: { PK: `UNIQ#EMAIL#${id}`, SK: 'LOCK' }, rule: 'EMAIL', value: id });

function publisher() {
  const published: AuditEvent[] = [];
  let replay: (filter: Readonly<Record<string, unknown>>) => readonly AuditEvent[] = () => [];
  const hub: AuditPublisher = { publish: (_stream, event) => published.push(event), setReplay: (_stream, r) => (replay = r) };
  return { hub, published, replay: (runId: string) => replay({ runId }) };
}

describe('audit runs', () => {
  it('publishes deltas and done, and replays rows, progress and done to a late subscriber', () => {
    const { hub, published, replay } = publisher();
    const runs = createAuditRuns(hub);
    const run = runs.add('r1');
    runs.delta('r1', run, { upserted: [row('a'), row('b')], removed: [], counts }, progress);
    runs.delta('r1', run, { upserted: [], removed: ['a'], counts }, progress);
    runs.finish('r1', run, report);
    expect(published.map((e) => e.type)).toEqual(['delta', 'progress', 'delta', 'progress', 'done']);
    const [snapshot, ...rest] = replay('r1');
    expect(snapshot).toMatchObject({ type: 'delta', runId: 'r1', snapshot: true });
    expect(snapshot?.type === 'delta' && decodeDelta(snapshot.delta)).toEqual({ upserted: [row('b')], removed: [], counts });
    expect(rest).toEqual([
      { type: 'progress', runId: 'r1', progress },
      { type: 'done', runId: 'r1', complete: true, counts: { scanned: 2, accounts: 1, locks: 1, summary } },
    ]);
    expect(replay('unknown')).toEqual([]);
  });

  it('hands every finished run with history to the recorder, not a cancelled one nor one without history', () => {
    const { hub } = publisher();
    const recorded: string[] = [];
    const runs = createAuditRuns(hub, (r, history) => {
      recorded.push(`${r.table} ${history.source}`);
    });
    const live = runs.add('live');
    live.history = { target: { endpoint: 'http://localhost:8000' }, source: 'live' };
    runs.finish('live', live, report);
    const cancelled = runs.add('cancelled');
    cancelled.history = { target: {}, source: 'live' };
    cancelled.controller.abort();
    runs.finish('cancelled', cancelled, { ...report, complete: false });
    runs.finish('untracked', runs.add('untracked'), report);
    expect(recorded).toEqual(['t live']);
  });

  it('publishes done only once the history entry is written, so a history reloaded on done holds the run', async () => {
    const { hub, published } = publisher();
    let written!: () => void;
    const runs = createAuditRuns(hub, () => new Promise<void>((resolve) => (written = resolve)));
    const run = runs.add('live');
    run.history = { target: {}, source: 'live' };
    runs.finish('live', run, report);
    expect(published.filter((e) => e.type === 'done')).toEqual([]);
    written();
    await new Promise((resolve) => setImmediate(resolve));
    expect(published.filter((e) => e.type === 'done')).toHaveLength(1);
  });

  it('drops the rows of old finished runs, then the runs themselves; running ones stay', () => {
    const { hub, replay } = publisher();
    const runs = createAuditRuns(hub);
    const running = runs.add('running');
    for (let i = 0; i < MAX_KEPT_RUNS + 1; i++) {
      const run = runs.add(`r${i}`);
      runs.delta(`r${i}`, run, { upserted: [row('x')], removed: [], counts }, progress);
      runs.finish(`r${i}`, run, report);
    }
    runs.add('last');
    expect(runs.get('running')).toBe(running);
    expect(runs.get('r0')).toBeUndefined();
    expect(runs.get(`r${MAX_KEPT_RUNS}`)?.report).toBe(report);
    // Old finished runs keep their report (done is replayed) but not their rows.
    expect(replay('r5').map((e) => e.type)).toEqual(['progress', 'done']);
    expect(replay(`r${MAX_KEPT_RUNS}`).map((e) => e.type)).toEqual(['delta', 'progress', 'done']);
    expect(MAX_SNAPSHOT_RUNS).toBeLessThan(MAX_KEPT_RUNS);
  });

  it('close aborts every run', () => {
    const runs = createAuditRuns(publisher().hub);
    const a = runs.add('a');
    runs.close();
    expect(a.controller.signal.aborted).toBe(true);
  });
});
