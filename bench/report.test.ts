import { describe, expect, it } from 'vitest';
import { figureRows, summarize, targets, upsertSection, type BenchFigures } from './report';

const figures: BenchFigures = {
  items: 1000,
  segments: 4,
  runs: 3,
  loadMs: 500,
  scans: {
    raw: [100, 200, 100],
    single: [400, 700, 350],
    audit: [105, 230, 110],
    auditUi: [150, 260, 140],
    cli: [600, 700, 650],
    firstGroup: [120, 130, 110],
    cliPeakRss: [200_000_000, 200_100_000, 199_900_000],
    cliIdleRss: [100_000_000, 100_000_000, 100_000_000],
    rawCpu: [50, 60, 55],
    singleCpu: [50, 50, 50],
    auditCpu: [100, 90, 110],
    auditUiCpu: [200, 190, 210],
    cliCpu: [1500, 1600, 1550],
    cliIdleCpu: [1000, 1000, 1000],
  },
};

describe('summarize', () => {
  it('pairs each run’s subject with its own baselines before taking the median', () => {
    const s = summarize(figures);
    // Per-run audit/raw: 1.05, 1.15, 1.10 → 1.10 (a ratio of medians would say 110/100).
    expect(s.auditVsRaw).toBeCloseTo(1.1, 10);
    // Per-run single/audit: 3.81, 3.04, 3.18 → 3.18.
    expect(s.auditSpeedupVsSingle).toBeCloseTo(350 / 110, 10);
    expect(s.rssGrowthPerItem).toBe(100_000);
    // Per-run CPU audit/raw: 2, 1.5, 2 → 2; the CLI's start-up CPU is taken out.
    expect(s.auditCpuVsRaw).toBe(2);
    expect(s.cliCpuUsPerItem).toBe(550);
    expect(s.ui).toBeUndefined();
    expect(s.rssSlopePerItem).toBeNaN();
  });

  it('gives the marginal RSS growth from the half table when it was measured', () => {
    const s = summarize({ ...figures, halfItems: 500, scans: { ...figures.scans, cliHalfRss: [180_000_000, 181_000_000, 179_000_000] } });
    // (200,000,000 − 180,000,000) / (1000 − 500) items.
    expect(s.rssSlopePerItem).toBe(40_000);
    expect(targets(1000, s).find((t) => t.target.startsWith('RSS'))?.value).toBe(
      '100000 B/item vs a 1k table; 40000 B/item marginal (half → full table)',
    );
  });

  it('summarises UI runs over all their frames and long tasks', () => {
    const s = summarize({
      ...figures,
      ui: [
        {
          firstRowsMs: 300,
          completeMs: 900,
          longTasksMs: [60, 140],
          frameMs: [16, 16, 33],
          scrollLongTasksMs: [],
          rowsText: '10 of 10 rows shown',
        },
      ],
    });
    expect(s.ui).toMatchObject({ firstRowsMs: 300, maxLongTaskMs: 140, longTasks: 2, scrollP50: 16, frames: 3 });
    const verdicts = targets(1000, s);
    expect(verdicts.find((t) => t.target.startsWith('no main-thread'))?.met).toBe(false);
    expect(verdicts.find((t) => t.target.startsWith('UI first rows'))?.met).toBe(true);
    expect(verdicts.find((t) => t.target.startsWith('--items'))?.met).toBeUndefined();
    expect(s.ui?.baselineP95).toBeNaN();
    expect(verdicts.find((t) => t.target.startsWith('scroll p95'))?.met).toBeUndefined();
  });

  it('takes the UI against its own raw scan when it has one, and counts scroll long tasks and the heap', () => {
    const run = { firstRowsMs: 600, longTasksMs: [], frameMs: [16, 17], scrollLongTasksMs: [70], rowsText: '', baselineFrameMs: [16, 16] };
    const s = summarize({
      ...figures,
      ui: [
        { ...run, completeMs: 300, rawMs: 200, heapBytes: { page: 10, workers: 30 } },
        { ...run, completeMs: 1000, rawMs: 400, heapBytes: { page: 20, workers: 40 } },
      ],
    });
    // Per-run ratios 1.5 and 2.5 → 2 (not the figures' raw median).
    expect(s.ui).toMatchObject({ completeVsRaw: 2, maxLongTaskMs: 0, maxScrollLongTaskMs: 70, heapBytes: 50, pageHeapBytes: 15 });
    const verdicts = targets(1000, s);
    expect(verdicts.find((t) => t.target.startsWith('UI audit start'))?.met).toBe(false);
    expect(verdicts.find((t) => t.target.startsWith('no main-thread'))?.met).toBe(false);
    expect(verdicts.find((t) => t.target.startsWith('UI first rows'))?.met).toBe(false);
    expect(verdicts.find((t) => t.target.startsWith('scroll p95'))?.met).toBe(true);
  });

  it('reports the scroll baseline beside the inspector scroll', () => {
    const s = summarize({
      ...figures,
      ui: [
        {
          firstRowsMs: 300,
          completeMs: 900,
          longTasksMs: [],
          frameMs: [16, 33],
          scrollLongTasksMs: [],
          rowsText: '',
          baselineFrameMs: [16, 16, 17],
        },
      ],
    });
    expect(s.ui).toMatchObject({ baselineP50: 16, scrollP50: 24.5 });
    expect(
      figureRows(1000, s)
        .find((r) => r[0]?.startsWith('UI: scroll baseline'))
        ?.slice(1, 3),
    ).toEqual(['p50 16 ms', 'p95 17 ms']);
  });
});

describe('upsertSection', () => {
  const section = (n: number, body: string): string => `<!-- bench:${n} -->\n${body}\n<!-- /bench:${n} -->`;

  it('appends under "## Latest figures", creating it when missing', () => {
    const doc = upsertSection('# Benchmarks\n', 200, section(200, 'a'));
    expect(doc).toBe('# Benchmarks\n\n## Latest figures\n\n<!-- bench:200 -->\na\n<!-- /bench:200 -->\n');
  });

  it('replaces only the section of the same item count, keeping hand-written text', () => {
    let doc = upsertSection('# B\n\nintro\n\n## Latest figures\n\n## Analysis\nwhy\n', 200, section(200, 'a'));
    doc = upsertSection(doc, 1000, section(1000, 'm'));
    doc = upsertSection(doc, 200, section(200, 'b'));
    expect(doc).toContain(section(200, 'b'));
    expect(doc).not.toContain(section(200, 'a'));
    expect(doc).toContain(section(1000, 'm'));
    expect(doc).toContain('## Analysis\nwhy');
    expect(doc.indexOf('intro')).toBeLessThan(doc.indexOf('bench:'));
  });
});
