import { describe, expect, it } from 'vitest';
import { AuditEngine } from './engine';
import { layoutFor, S } from '../conventions/test-layouts';
import { PRESET_NAMES, type Item, type PresetName } from '../model';
import { problemsOfRows } from './problem-rules';

/** Every problem kind, on one preset's layout: missing, duplicate (with and without a lock), owner-mismatch, orphan, malformed. */
function items(preset: PresetName): { items: Item[]; layout: ReturnType<typeof layoutFor> } {
  const layout = layoutFor(preset, { ownerAttribute: 'owner', extraLockPrefixes: ['PHONE#'] });
  const rule = layout.convention.rules[0]!;
  const out: Item[] = [];
  for (let i = 0; i < 120; i++) {
    const id = `a${i}`;
    const value = i % 50 === 7 ? 'shared@x.io' : i % 50 === 9 ? 'twin@x.io' : `v${i}@x.io`;
    out.push(layout.account(id, { [rule.attribute]: value }));
    if (i % 40 === 3 || value === 'twin@x.io') continue; // missing-lock (and a duplicate nobody locked)
    const owner = i % 60 === 11 ? layout.accountHash(`a${i + 1}`) : layout.accountHash(id);
    if (value !== 'shared@x.io' || i === 7) out.push(layout.lock(rule.name, value, { owner: S(owner) }));
  }
  for (let i = 0; i < 4; i++) out.push(layout.lock(rule.name, `ghost${i}@x.io`));
  out.push(layout.lock(rule.name, 'undefined'), layout.lock(rule.name, ''));
  return { items: out, layout };
}

describe.each(PRESET_NAMES.map((p) => [p]))('problemsOfRows on %s', (preset: PresetName) => {
  it("gives exactly the engine's report problems from the engine's rows", () => {
    const { items: all, layout } = items(preset);
    const engine = new AuditEngine(layout.convention);
    engine.addItems(all);
    const report = engine.report({ table: 't', complete: true });
    expect(new Set(report.problems.map((p) => p.kind)).size).toBe(5);
    expect(problemsOfRows(engine.rows(), layout.convention.keys)).toEqual(report.problems);
  });
});

describe('problemsOfRows on a scoped rule', () => {
  it('keeps each problem in its scope, as the engine reports it', () => {
    const layout = layoutFor('onetable', { rules: [{ attribute: 'nickname', scope: 'orgId' }] });
    const lock = (org: string, value: string): Item =>
      layout.raw(`_unique#${org}#User#nickname#${value}`, '_unique#', { _type: S('_Unique') });
    const user = (id: string, org: string, nickname: string): Item => layout.account(id, { orgId: org, nickname });
    const engine = new AuditEngine(layout.convention);
    engine.addItems([
      user('u1', 'acme', 'ada'),
      user('u2', 'acme', 'ada'),
      lock('acme', 'ada'),
      user('u3', 'globex', 'ada'),
      user('u4', 'initech', 'bob'),
      lock('umbrella', 'bob'),
    ]);
    const report = engine.report({ table: 't', complete: true });
    expect(report.problems.map((p) => p.kind).sort()).toEqual(['duplicate-value', 'missing-lock', 'missing-lock', 'orphan-lock']);
    expect(problemsOfRows(engine.rows(), layout.convention.keys)).toEqual(report.problems);
  });
});
