import { describe, expect, it } from 'vitest';
import { AuditEngine } from '../shared/audit/engine';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../shared/conventions/presets';
import { accountId, datasetChunks, lookupEmail, planDataset, slotItems } from './dataset';

const uniq = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);

describe('bench dataset', () => {
  it('audits to exactly the planned counts and problems', () => {
    const plan = planDataset(30_000);
    const engine = new AuditEngine(uniq, { trackDeltas: false });
    for (const chunk of datasetChunks(30_000, 4_000)) engine.addItems(chunk);
    const counts = engine.counts();
    expect(counts.scanned).toBe(plan.items);
    expect(counts.accounts).toBe(plan.accounts);
    expect(counts.locks).toBe(plan.locks);
    expect(counts.summary).toEqual(plan.summary);
  });

  it('is about a third accounts, two thirds locks, ~1% of items in problems', () => {
    const plan = planDataset(200_000);
    expect(plan.items).toBeGreaterThanOrEqual(200_000);
    expect(plan.items).toBeLessThan(200_004);
    expect(plan.accounts / plan.items).toBeCloseTo(1 / 3, 1);
    const problems = Object.values(plan.summary).reduce((a, b) => a + b, 0);
    expect(problems / plan.items).toBeGreaterThan(0.003);
    expect(problems / plan.items).toBeLessThan(0.02);
  });

  it('gives every slot a distinct account id', () => {
    const ids = new Set(Array.from({ length: 50_000 }, (_, i) => accountId(i)));
    expect(ids.size).toBe(50_000);
  });

  it('is deterministic and chunked', () => {
    expect(slotItems(42)).toEqual(slotItems(42));
    const sizes = [...datasetChunks(10_000, 3_000)].map((c) => c.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(planDataset(10_000).items);
    expect(sizes.slice(0, -1).every((s) => s >= 3_000)).toBe(true);
  });

  it('picks lookup values held by healthy accounts', () => {
    const email = lookupEmail(10_000, 3, 10);
    const engine = new AuditEngine(uniq, { trackDeltas: false });
    for (const chunk of datasetChunks(10_000)) engine.addItems(chunk);
    expect(engine.problems().some((p) => p.value === email.toLowerCase())).toBe(false);
    expect(email).toMatch(/@/);
  });
});
