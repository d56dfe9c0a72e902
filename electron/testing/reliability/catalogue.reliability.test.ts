/** Keeps docs/reliability.md honest: every cited test exists, and the document cites exactly the catalogue. */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from './catalogue';
import { fill, REPORT_PATH, renderReport } from './report';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('the reliability catalogue', () => {
  it.each(SCENARIOS.map((s) => [s.scenario, s] as const))('%s: the cited file exists and contains the cited test', (_name, scenario) => {
    const path = `${root}${scenario.file}`;
    expect(existsSync(path), path).toBe(true);
    expect(readFileSync(path, 'utf8')).toContain(scenario.test);
  });

  it('docs/reliability.md is the rendering of this catalogue (figures aside)', () => {
    const doc = readFileSync(REPORT_PATH, 'utf8');
    const rows = doc.split('\n').filter((line) => /^\| (Faults|Load|Bad input|Attacks) \|/.test(line));
    expect(rows).toHaveLength(SCENARIOS.length);
    for (const s of SCENARIOS) expect(doc).toContain(`\`${s.file}\` — ${JSON.stringify(s.test).replace(/\|/g, '\\|')}`);
  });

  it('renders placeholders from figures, and says so when a scenario has none', () => {
    expect(fill('{a} of {b}', { id: 'x', recordedAt: '', figures: { a: 1200, b: 'all' } })).toBe('1,200 of all');
    expect(fill('{a}', undefined)).toBeUndefined();
    expect(renderReport(new Map())).toContain('_no figures recorded');
  });
});
