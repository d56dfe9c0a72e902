import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layoutArb, type GenLayout } from './gen-layout';
import { judgeLayout } from './gen-judge';
import { referenceSignup } from './reference-writer';

/** The fixed seeds the unit suite runs (the fuzz run, `npm run fuzz:layouts`, tries many more). */
const SEEDS = [1, 7, 42, 2024, 31337];
const RUNS_PER_SEED = 8;

/** Describes a layout in one line, for a failing case's message. */
const describeLayout = (l: GenLayout): string =>
  JSON.stringify({ keys: l.keys, accounts: l.accounts, rules: l.rules, lockTag: l.lockTag, drift: l.drift });

describe('generated layouts, judged by their own reference writer', () => {
  it.each(SEEDS.map((s) => [s]))(
    'seed %i: detection finds each layout at confidence 1 and the audit reports exactly the planted problems',
    (seed) => {
      fc.assert(
        fc.property(layoutArb, (layout) => {
          const verdict = judgeLayout(layout);
          if (!verdict.found || !verdict.exact) throw new Error(`seed ${seed}: ${describeLayout(layout)}\n${verdict.detail}`);
        }),
        { seed, numRuns: RUNS_PER_SEED },
      );
    },
  );

  it('the reference writer guards the account and every lock on its own key', () => {
    const [layout] = fc.sample(layoutArb, { seed: 3, numRuns: 1 });
    if (!layout) throw new Error('no layout');
    const account = {
      [layout.keys.hash.name]: { S: 'ACCT#1' },
      ...Object.fromEntries(layout.rules.map((r) => [r.attribute, { S: 'x1' }])),
      ...Object.fromEntries(layout.rules.flatMap((r) => (r.scope ? [[r.scope, { S: 'acme' }]] : []))),
    };
    const writes = referenceSignup('t', layout, account);
    expect(writes).toHaveLength(1 + layout.rules.length);
    for (const w of writes)
      expect(w.Put).toMatchObject({
        ConditionExpression: 'attribute_not_exists(#pk)',
        ExpressionAttributeNames: { '#pk': layout.keys.hash.name },
      });
  });
});
