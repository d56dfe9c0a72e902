import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectSamples } from '../../bench/detect-samples';
import type { PresetName } from '../model';
import { detectConvention } from './detect';
import { layoutArb } from './gen-layout';
import { buildTable } from './gen-table';

// Detection's whole answer (the convention, every evidence line, the confidence, or the error) pinned
// on realistic 2,000-item samples and on generated layouts: a faster detection must say exactly the same.
describe('detection output, pinned', () => {
  const samples = detectSamples();

  it.each(samples.map((s) => [s.name, s] as const))('%s (2,000 items)', (_name, sample) => {
    expect(detectConvention(sample.keys, sample.items)).toMatchSnapshot();
  });

  const forced: readonly (readonly [string, PresetName])[] = [
    ['bench-slots', 'uniq'],
    ['bench-random', 'marker'],
    ['aws-blog', 'marker'],
    ['marker', 'aws-blog'],
    ['electrodb', 'electrodb'],
    ['onetable', 'onetable'],
    ['uniq', 'onetable'],
  ];
  it.each(forced)('%s with --preset %s', (name, preset) => {
    const sample = samples.find((s) => s.name === name);
    if (!sample) throw new Error(`no sample ${name}`);
    expect(detectConvention(sample.keys, sample.items, { preset })).toMatchSnapshot();
  });

  it.each([1, 7, 42, 2024, 31337].map((s) => [s]))('generated layouts of seed %i', (seed) => {
    const detected = fc.sample(layoutArb, { seed, numRuns: 8 }).map((layout) => {
      const table = buildTable(layout);
      return detectConvention(layout.keys, table.items);
    });
    expect(detected).toMatchSnapshot();
  });
});
