import { describe, expect, it } from 'vitest';
import type { Item, PresetName } from '../model';
import { PRESET_NAMES } from '../model';
import { layoutFor, S } from '../conventions/test-layouts';
import { AuditEngine } from './engine';
import type { GroupRow } from './types';

/** Deterministic PRNG (mulberry32) so a failing order can be replayed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  const next = rng(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function pages<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** A table of `preset` with every problem kind sprinkled in. */
function table(preset: PresetName, n: number, withOwner = true): { items: Item[]; layout: ReturnType<typeof layoutFor> } {
  const layout = layoutFor(
    preset,
    withOwner ? { ownerAttribute: 'owner', extraLockPrefixes: ['PHONE#'] } : { extraLockPrefixes: ['PHONE#'] },
  );
  const rule = layout.convention.rules[0]!;
  const items: Item[] = [];
  for (let i = 0; i < n; i++) {
    const id = `a${i}`;
    const value = i % 50 === 7 ? 'shared@x.io' : `v${i}@x.io`;
    items.push(layout.account(id, { [rule.attribute]: value }));
    if (i % 40 === 3) continue; // missing-lock
    const owner = i % 60 === 11 ? layout.accountHash(`a${i + 1}`) : layout.accountHash(id); // owner-mismatch
    if (value !== 'shared@x.io' || i === 7)
      items.push(withOwner ? layout.lock(rule.name, value, { owner: S(owner) }) : layout.lock(rule.name, value));
  }
  for (let i = 0; i < n / 20; i++) items.push(layout.lock(rule.name, `ghost${i}@x.io`)); // orphan-lock
  items.push(layout.lock(rule.name, 'undefined'), layout.lock(rule.name, '')); // malformed-lock
  return { items, layout };
}

describe.each(PRESET_NAMES.map((p) => [p]))('streaming on %s', (preset: PresetName) => {
  const { items, layout } = table(preset, 600);

  it('gives the same report and rows whatever the page order and size', () => {
    const reference = new AuditEngine(layout.convention);
    reference.addItems(items);
    const report = reference.report({ table: 't', complete: true });
    expect(Object.values(report.summary).every((n) => n > 0)).toBe(true);
    for (const [seed, size] of [
      [1, 7],
      [2, 100],
      [3, 1],
      [4, 1000],
    ] as const) {
      const engine = new AuditEngine(layout.convention);
      for (const page of pages(shuffled(items, seed), size)) engine.addItems(page);
      expect(engine.report({ table: 't', complete: true })).toEqual(report);
      expect(engine.rows()).toEqual(reference.rows());
    }
  });

  it.each([true, false])(
    'without deltas (healthy values kept without a join entry) gives the same report, rows and holders in any order (owner attribute: %s)',
    (withOwner) => {
      const t = table(preset, 600, withOwner);
      // The delta path (entries recomputed as they are touched, lone slots settled at the end) as the reference
      // for the read-time path (every entry recomputed on the first read).
      const reference = new AuditEngine(t.layout.convention);
      reference.addItems(t.items);
      const report = reference.report({ table: 't', complete: true });
      for (const [seed, size] of [
        [5, 13],
        [6, 1000],
      ] as const) {
        const engine = new AuditEngine(t.layout.convention, { trackDeltas: false });
        for (const page of pages(shuffled(t.items, seed), size)) engine.addItems(page);
        for (const value of ['shared@x.io', 'v1@x.io', 'v3@x.io', 'ghost0@x.io', 'nobody@x.io'])
          expect(engine.holderKeys(0, value)).toEqual(reference.holderKeys(0, value));
        expect(engine.report({ table: 't', complete: true })).toEqual(report);
        expect(engine.rows()).toEqual(reference.rows());
      }
    },
  );

  it('counts while the scan runs what a settled read of the items so far counts, missing locks aside', () => {
    const engine = new AuditEngine(layout.convention);
    const settled = new AuditEngine(layout.convention, { trackDeltas: false });
    for (const page of pages(shuffled(items, 12), 29)) {
      engine.addItems(page);
      settled.addItems(page);
      // An orphan so far (a lock whose account is not read yet) is counted as it stands, kept compact or not.
      expect(engine.takeDelta(25, false).counts.summary).toEqual({ ...settled.counts().summary, 'missing-lock': 0 });
    }
    expect(engine.takeDelta(25).counts.summary).toEqual(settled.counts().summary);
  });

  it('delivers deltas that rebuild exactly the final rows', () => {
    const engine = new AuditEngine(layout.convention);
    const view = new Map<string, GroupRow>();
    for (const page of pages(shuffled(items, 9), 37)) {
      engine.addItems(page);
      const delta = engine.takeDelta(25);
      for (const id of delta.removed) view.delete(id);
      for (const row of delta.upserted) view.set(row.id, row);
    }
    for (let delta = engine.takeDelta(25); delta.upserted.length || delta.removed.length; delta = engine.takeDelta(25)) {
      for (const id of delta.removed) view.delete(id);
      for (const row of delta.upserted) view.set(row.id, row);
    }
    expect([...view.values()].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(engine.rows());
  });

  it('holds orphans and marks accounts awaiting a lock checking while the scan runs, and still ends with exactly the final rows', () => {
    const engine = new AuditEngine(layout.convention);
    const view = new Map<string, GroupRow>();
    let upserts = 0;
    let removals = 0;
    let checkingSent = 0;
    const apply = (delta: ReturnType<AuditEngine['takeDelta']>): void => {
      upserts += delta.upserted.length;
      removals += delta.removed.length;
      for (const id of delta.removed) view.delete(id);
      for (const row of delta.upserted) view.set(row.id, row);
    };
    for (const page of pages(shuffled(items, 11), 37)) {
      engine.addItems(page);
      const delta = engine.takeDelta(25, false);
      // While the scan runs no orphan row goes out, and an account still waiting for a lock goes out
      // only marked checking, with no missing lock among its problems (nor in the counts).
      expect(delta.upserted.filter((r) => r.kind === 'orphan-lock')).toEqual([]);
      const waiting = delta.upserted.filter(
        (r) => r.kind === 'account' && r.locks.some((l) => l.lock === undefined && l.status === 'missing'),
      );
      expect(waiting.filter((r) => r.kind === 'account' && (r.checking !== true || r.problems.includes('missing-lock')))).toEqual([]);
      expect(delta.counts.summary['missing-lock']).toBe(0);
      checkingSent += delta.upserted.filter((r) => r.kind === 'account' && r.checking).length;
      apply(delta);
    }
    for (let delta = engine.takeDelta(25); delta.upserted.length || delta.removed.length; delta = engine.takeDelta(25)) apply(delta);
    const final = engine.rows();
    // Once settled, no row is left checking: the view is exactly the audit's rows.
    expect([...view.values()].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(final);
    expect(checkingSent).toBeGreaterThan(0);
    // Each row went out about once, plus once more for each checking row: nothing was sent only to be retracted.
    expect(removals).toBe(0);
    expect(upserts - checkingSent).toBeLessThan(final.length * 1.2);
  });
});

describe('scale', () => {
  it('audits 100k items fed in 1,000-item pages', () => {
    const layout = layoutFor('uniq');
    const items: Item[] = [];
    for (let i = 0; i < 50_000; i++) {
      items.push(layout.account(`a${i}`, { email: `u${i}@x.io` }));
      items.push(layout.lock('EMAIL', `u${i}@x.io`));
    }
    const engine = new AuditEngine(layout.convention, { trackDeltas: false });
    for (const page of pages(items, 1000)) engine.addItems(page);
    // Healthy values are kept without a join entry (what keeps a million-item audit small).
    expect(engine.joinEntries()).toBe(0);
    const counts = engine.counts();
    expect(counts).toMatchObject({ scanned: 100_000, accounts: 50_000, locks: 50_000 });
    expect(Object.values(counts.summary).reduce((a, b) => a + b, 0)).toBe(0);
    // A second holder and a lone account each need one.
    engine.addItems([layout.account('dup', { email: 'u1@x.io' }), layout.account('lone', { email: 'lone@x.io' })]);
    expect(engine.problems().map((p) => p.kind)).toEqual(['missing-lock', 'duplicate-value']);
    expect(engine.joinEntries()).toBe(2);
    // Tracking deltas (the app), healthy values are kept without an entry too.
    const tracking = new AuditEngine(layout.convention);
    for (const page of pages(items.slice(0, 2000), 100)) {
      tracking.addItems(page);
      tracking.takeDelta(500, false);
    }
    expect(tracking.joinEntries()).toBe(0);
  });
});
