import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './args';

describe('parseBenchArgs', () => {
  it('defaults to 200,000 items, 3 runs, 4 segments, a 2g heap, the UI included', () => {
    expect(parseBenchArgs([])).toEqual({
      items: 200_000,
      runs: 3,
      segments: 4,
      heap: '2g',
      lookups: 40,
      json: false,
      skipUi: false,
      uiOnly: false,
      exportItems: 200_000,
      exportOnly: false,
      cliOnly: false,
      startupRuns: 15,
      admin: false,
    });
  });

  it('reads every flag, accepting digit separators', () => {
    expect(
      parseBenchArgs(['--items', '1_000_000', '--runs', '5', '--segments', '8', '--heap', '6g', '--lookups', '10', '--json', '--skip-ui']),
    ).toEqual({
      items: 1_000_000,
      runs: 5,
      segments: 8,
      heap: '6g',
      lookups: 10,
      json: true,
      skipUi: true,
      uiOnly: false,
      exportItems: 1_000_000,
      exportOnly: false,
      cliOnly: false,
      startupRuns: 15,
      admin: false,
    });
  });

  it('measures the export audit at --export-items (0 skips it), alone with --export-only', () => {
    expect(parseBenchArgs(['--export-items', '10_000_000', '--export-only'])).toMatchObject({ exportItems: 10_000_000, exportOnly: true });
    expect(parseBenchArgs(['--export-items', '0']).exportItems).toBe(0);
    expect(() => parseBenchArgs(['--export-items', 'many'])).toThrow(/--export-items/);
  });

  it('measures only whole processes with --cli-only, start-up over --startup-runs rounds', () => {
    expect(parseBenchArgs(['--cli-only', '--startup-runs', '20'])).toMatchObject({ cliOnly: true, startupRuns: 20 });
    expect(() => parseBenchArgs(['--startup-runs', '0'])).toThrow(/--startup-runs/);
  });

  it('pages through dynamodb-admin only when asked, and only beside a live table', () => {
    expect(parseBenchArgs([]).admin).toBe(false);
    expect(parseBenchArgs(['--cli-only', '--admin']).admin).toBe(true);
    expect(() => parseBenchArgs(['--export-only', '--admin'])).toThrow(/--admin needs the live table/);
  });

  it('gives a million-item table a bigger default heap', () => {
    expect(parseBenchArgs(['--items', '1000000']).heap).toBe('4g');
  });

  it('rejects bad numbers, heaps and unknown flags', () => {
    expect(() => parseBenchArgs(['--items', '0'])).toThrow(/--items/);
    expect(() => parseBenchArgs(['--runs', 'two'])).toThrow(/--runs/);
    expect(() => parseBenchArgs(['--heap', 'lots'])).toThrow(/--heap/);
    expect(() => parseBenchArgs(['--fast'])).toThrow();
    expect(() => parseBenchArgs(['--skip-ui', '--ui-only'])).toThrow(/exclude/);
  });
});
