import { describe, expect, it } from 'vitest';
import type { AccountGroup, AuditCounts, GroupRow, StrayLockRow } from '../../../../shared/audit/types';
import { encodeDelta, type AuditEvent, type LookupView } from '../../../../shared/contract';
import type { KeySchema } from '../../../../shared/model';
import { batchDelayMs, RowStore, type RowsView, type RowStoreUpdate, type ViewSpec } from './row-store';

const keys: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
const summary = { 'orphan-lock': 0, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 };
const counts = (accounts: number, extra: Partial<AuditCounts['summary']> = {}): AuditCounts => ({
  scanned: accounts,
  accounts,
  locks: 0,
  summary: { ...summary, ...extra },
});
const account = (n: number, status: 'ok' | 'missing' = 'ok'): AccountGroup => ({
  kind: 'account',
  id: `a${n}`,
  key: { PK: `ACCT#${String(n).padStart(4, '0')}`, SK: 'PROFILE' },
  locks: [
    {
      rule: 'EMAIL',
      value: `u${n}@x.io`,
      normalized: `u${n}@x.io`,
      status,
      ...(status === 'ok' ? { lock: { PK: `UNIQ#EMAIL#u${n}@x.io`, SK: 'LOCK' } } : {}),
    },
  ],
  problems: status === 'missing' ? ['missing-lock'] : [],
});
const orphan = (value: string): StrayLockRow => ({
  kind: 'orphan-lock',
  id: `o-${value}`,
  key: { PK: `UNIQ#EMAIL#${value}`, SK: 'LOCK' },
  rule: 'EMAIL',
  value,
});
const delta = (rows: readonly GroupRow[], c: AuditCounts, extra: { removed?: string[]; snapshot?: true } = {}): AuditEvent => ({
  type: 'delta',
  runId: 'r',
  delta: encodeDelta({ upserted: rows, removed: extra.removed ?? [], counts: c }),
  ...(extra.snapshot ? { snapshot: true as const } : {}),
});
const done = (c: AuditCounts, complete = true): AuditEvent => ({ type: 'done', runId: 'r', complete, counts: c });
const PROBLEMS_FIRST: ViewSpec = { id: 1, sorting: [{ id: 'problems', desc: true }], keys, filter: { filter: 'all', search: '' } };

function viewOf(update: RowStoreUpdate | undefined): RowsView {
  if (update?.type !== 'view') throw new Error(`expected a view, got ${JSON.stringify(update)}`);
  return update.view;
}

/** A store on run 1, sorted problems first, with a window of the first `size` rows. */
function openStore(size = 10): RowStore {
  const store = new RowStore();
  store.handle({ type: 'view', spec: PROBLEMS_FIRST });
  store.handle({ type: 'window', start: 0, end: size });
  store.handle({ type: 'reset', run: 1 });
  return store;
}

describe('RowStore', () => {
  it('queues streamed deltas until flushed, then shows them sorted, with the counts', () => {
    const store = openStore();
    expect(
      store.handle({
        type: 'events',
        run: 1,
        events: [delta([account(1), account(2, 'missing'), orphan('z')], counts(2, { 'missing-lock': 1, 'orphan-lock': 1 }))],
      }),
    ).toBeUndefined();
    expect(store.flushDelay()).toBe(0); // the first rows go out at once
    const view = viewOf(store.flush());
    expect(view.rows.map((r) => r.id)).toEqual(['o-z', 'a2', 'a1']);
    expect([view.total, view.length, view.counts?.summary['missing-lock'], view.end]).toEqual([3, 3, 1, undefined]);
    expect(store.flushDelay()).toBeUndefined();
  });

  it('applies a run’s end at once, with its final counts, and only then reports it', () => {
    const store = openStore();
    store.handle({ type: 'events', run: 1, events: [delta([account(1)], counts(1))] });
    const view = viewOf(
      store.handle({ type: 'events', run: 1, events: [delta([account(2)], counts(2)), done(counts(2, { 'orphan-lock': 0 }), false)] }),
    );
    expect(view.rows.map((r) => r.id)).toEqual(['a1', 'a2']);
    expect(view.end).toEqual({ complete: false, reason: undefined, warnings: [] });
    expect(view.counts).toEqual(counts(2));
  });

  it('drops what an older run sends, and a reset empties the store', () => {
    const store = openStore();
    store.handle({ type: 'events', run: 1, events: [delta([account(1)], counts(1))] });
    store.flush();
    const reset = viewOf(store.handle({ type: 'reset', run: 2 }));
    expect([reset.run, reset.total, reset.rows]).toEqual([2, 0, []]);
    expect(store.handle({ type: 'events', run: 1, events: [delta([account(9)], counts(1)), done(counts(1))] })).toBeUndefined();
    expect(store.flushDelay()).toBeUndefined();
  });

  it('replaces the store with a snapshot (a re-joining subscriber)', () => {
    const store = openStore();
    store.handle({ type: 'events', run: 1, events: [delta([account(1), account(2)], counts(2))] });
    store.flush();
    store.handle({ type: 'events', run: 1, events: [delta([account(3)], counts(1), { snapshot: true })] });
    expect(viewOf(store.flush()).rows.map((r) => r.id)).toEqual(['a3']);
  });

  it('cuts the window asked for, filters and searches', () => {
    const store = openStore(2);
    const rows = Array.from({ length: 8 }, (_, i) => account(i + 1, i % 3 === 0 ? 'missing' : 'ok'));
    store.handle({ type: 'events', run: 1, events: [delta(rows, counts(8))] });
    store.flush();
    const window = viewOf(store.handle({ type: 'window', start: 3, end: 5 }));
    expect([window.start, window.rows.map((r) => r.id), window.length]).toEqual([3, ['a2', 'a3'], 8]);
    const problems = viewOf(store.handle({ type: 'view', spec: { ...PROBLEMS_FIRST, filter: { filter: 'problems', search: '' } } }));
    expect([problems.length, problems.total]).toEqual([3, 8]);
    const search = viewOf(store.handle({ type: 'view', spec: { ...PROBLEMS_FIRST, filter: { filter: 'all', search: 'U7@' } } }));
    expect([search.length, search.start, search.rows]).toEqual([1, 3, []]);
    expect(viewOf(store.handle({ type: 'window', start: 0, end: 2 })).rows.map((r) => r.id)).toEqual(['a7']);
  });

  it('says the window is unchanged instead of sending the same rows again, until the page asks', () => {
    const store = openStore(2);
    store.handle({ type: 'events', run: 1, events: [delta([account(1, 'missing'), account(2, 'missing')], counts(2))] });
    expect(viewOf(store.flush()).rows.map((r) => r.id)).toEqual(['a1', 'a2']);
    store.handle({ type: 'events', run: 1, events: [delta([account(3)], counts(3))] }); // sorts below the window
    const unchanged = viewOf(store.flush());
    expect([unchanged.sameRows, unchanged.rows, unchanged.total]).toEqual([true, [], 3]);
    store.handle({ type: 'events', run: 1, events: [delta([orphan('z')], counts(3))] }); // sorts into it
    const changed = viewOf(store.flush());
    expect([changed.sameRows, changed.rows.map((r) => r.id)]).toEqual([undefined, ['o-z', 'a1']]);
    expect(viewOf(store.handle({ type: 'window', start: 0, end: 2 })).rows.map((r) => r.id)).toEqual(['o-z', 'a1']);
  });

  it('applies a re-check after a write to the rows and counts', () => {
    const store = openStore();
    store.handle({
      type: 'events',
      run: 1,
      events: [
        delta([account(1, 'missing'), orphan('z')], counts(1, { 'missing-lock': 1, 'orphan-lock': 1 })),
        done(counts(1, { 'missing-lock': 1, 'orphan-lock': 1 })),
      ],
    });
    const released: LookupView = { value: 'z', method: 'scan', rules: [{ rule: 'EMAIL', normalized: 'z', verdict: 'free', holders: [] }] };
    const view = viewOf(store.handle({ type: 'patch', run: 1, lookup: released }));
    expect(view.rows.map((r) => r.id)).toEqual(['a1']);
    expect(view.counts?.summary['orphan-lock']).toBe(0);
    expect(store.handle({ type: 'patch', run: 0, lookup: released })).toBeUndefined();
  });

  it('re-applies the re-checks after a snapshot: a reconnecting stream does not bring back the rows as they were before the write', () => {
    const store = openStore();
    const before = counts(1, { 'missing-lock': 1, 'orphan-lock': 1 });
    const audited = [account(1, 'missing'), orphan('z')];
    store.handle({ type: 'events', run: 1, events: [delta(audited, before), done(before)] });
    const released: LookupView = { value: 'z', method: 'scan', rules: [{ rule: 'EMAIL', normalized: 'z', verdict: 'free', holders: [] }] };
    const claimed: LookupView = {
      value: 'u1@x.io',
      method: 'scan',
      rules: [
        {
          rule: 'EMAIL',
          normalized: 'u1@x.io',
          verdict: 'held',
          holders: [{ PK: 'ACCT#0001', SK: 'PROFILE' }],
          lock: { PK: 'UNIQ#EMAIL#u1@x.io', SK: 'LOCK' },
        },
      ],
    };
    store.handle({ type: 'patch', run: 1, lookup: released });
    const patched = viewOf(store.handle({ type: 'patch', run: 1, lookup: claimed }));
    // The hub's replay on reconnecting: every row as the audit read it, then the run's end.
    const replayed = viewOf(store.handle({ type: 'events', run: 1, events: [delta(audited, before, { snapshot: true }), done(before)] }));
    expect(replayed.rows).toEqual(patched.rows);
    expect(replayed.rows.map((r) => r.id)).toEqual(['a1']);
    expect(replayed.rows[0]?.kind === 'account' && replayed.rows[0].locks[0]?.status).toBe('ok');
    expect(replayed.counts?.summary).toEqual(patched.counts?.summary);
    expect([replayed.counts?.summary['orphan-lock'], replayed.counts?.summary['missing-lock']]).toEqual([0, 0]);
  });

  it('exports the problems of the rows a filter keeps, re-checks included', () => {
    const store = openStore();
    store.handle({ type: 'events', run: 1, events: [delta([account(1, 'missing'), account(2), orphan('z')], counts(2)), done(counts(2))] });
    const all = store.handle({ type: 'export', id: 7, filter: { filter: 'all', search: '' }, keys });
    expect(all).toMatchObject({ type: 'export', id: 7, rowsShown: 3 });
    expect(all?.type === 'export' && all.problems.map((p) => p.kind)).toEqual(['orphan-lock', 'missing-lock']);
    const orphans = store.handle({ type: 'export', id: 8, filter: { filter: 'orphan-lock', search: '' }, keys });
    expect(orphans).toMatchObject({ rowsShown: 1, problems: [{ kind: 'orphan-lock', value: 'z' }] });
  });

  it('waits longer between batches as the store grows, up to half a second', () => {
    expect(batchDelayMs(0)).toBe(30);
    expect(batchDelayMs(10_000)).toBeGreaterThan(batchDelayMs(1_000));
    expect(batchDelayMs(70_000)).toBeGreaterThan(batchDelayMs(10_000));
    expect(batchDelayMs(1_000_000)).toBe(500);
  });
});
