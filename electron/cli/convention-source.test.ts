import { describe, expect, it } from 'vitest';
import { AuditEngine } from '../../shared/audit/engine';
import { detectConvention } from '../../shared/conventions/detect';
import { conventionToFile, parseConventionFile } from '../../shared/conventions/file';
import { PRESET_DEFAULTS, presetConvention } from '../../shared/conventions/presets';
import { DEMO_TABLES, DEMO_TABLE_NAMES } from '../services/sandbox/demo-data';
import { EXPECTED_PROBLEMS, problemSignature } from '../services/sandbox/expected-problems';
import { presetDefaults, presetFlag } from './convention-source';
import { CliError } from './command';

// What `audit` without --preset runs on the sandbox: detection must find the convention the demo
// data was written with (expected-problems.ts), from the whole table or from a small first sample.
describe.each(DEMO_TABLE_NAMES)('detection on demo table %s', (name) => {
  const spec = DEMO_TABLES[name];
  const items = spec.build();
  const documented = presetConvention(spec.preset, spec.keys, PRESET_DEFAULTS[spec.preset]);
  const expected = EXPECTED_PROBLEMS[name];

  it.each([
    ['the whole table', items.length],
    ['a 60-item sample', 60],
  ])('from %s finds the documented rules and normalization', (_label, size) => {
    const result = detectConvention(spec.keys, items.slice(0, size));
    if (!result.ok) throw new Error(result.error.message);
    const c = result.value.convention;
    expect(c.preset).toBe(spec.preset);
    expect(c.account).toEqual(documented.account);
    expect(c.ownerAttribute).toBeUndefined();
    expect(c.rules).toEqual(documented.rules);
    // What `locksmith detect` prints must load back through --convention unchanged.
    expect(parseConventionFile(JSON.parse(JSON.stringify(conventionToFile(c))), spec.keys)).toEqual({ ok: true, value: c });
  });

  it('audits the whole table under the detected convention with exactly the written-down problems', () => {
    const result = detectConvention(spec.keys, items);
    if (!result.ok) throw new Error(result.error.message);
    const engine = new AuditEngine(result.value.convention, { trackDeltas: false });
    engine.addItems(items);
    const report = engine.report({ table: name, complete: true });
    expect(report.problems.map(problemSignature).sort()).toEqual(expected.problems.map(problemSignature).sort());
    expect({ accounts: report.accounts, locks: report.locks }).toEqual({ accounts: expected.accounts, locks: expected.locks });
  });
});

describe('presetFlag', () => {
  it('accepts known presets and refuses others with the list', () => {
    expect(presetFlag({ preset: 'uniq' })).toBe('uniq');
    expect(presetFlag({})).toBeUndefined();
    expect(() => presetFlag({ preset: 'Uniq' })).toThrow(/unknown preset "Uniq" \(presets: uniq, marker, onetable, aws-blog, electrodb\)/);
  });
});

describe('presetDefaults (the fallback when the sample shows no locks)', () => {
  const withSortKey = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } } as const;

  it.each(['marker', 'aws-blog'] as const)('refuses %s on a table with a sort key instead of templates without a range', async (preset) => {
    const refused = presetDefaults(preset, withSortKey, 'people', 'no lock items in the sample');
    await expect(refused).rejects.toBeInstanceOf(CliError);
    await expect(refused).rejects.toThrow(/--preset .*people has a sort key \(SK\).*no lock items in the sample/);
  });

  it.each(['uniq', 'onetable'] as const)('gives %s defaults whose templates fit a table with a sort key', async (preset) => {
    const convention = await presetDefaults(preset, withSortKey, 'people', 'empty');
    expect(parseConventionFile(conventionToFile(convention), withSortKey)).toMatchObject({ ok: true });
    expect(convention.rules.flatMap((r) => r.lockKeys).every((t) => t.range !== undefined)).toBe(true);
  });

  it.each(['marker', 'aws-blog'] as const)('gives %s defaults on a hash-only table', async (preset) => {
    const convention = await presetDefaults(preset, { hash: { name: 'pk', type: 'S' } }, 'people', 'empty');
    expect(convention).toEqual(presetConvention(preset, { hash: { name: 'pk', type: 'S' } }, PRESET_DEFAULTS[preset]));
  });

  it('refuses defaults that do not fit the key types, naming why', async () => {
    await expect(presetDefaults('uniq', { hash: { name: 'id', type: 'N' } }, 'numbers', 'empty')).rejects.toThrow(
      /defaults do not fit numbers: .*string \(S\) hash key/,
    );
  });
});
