/** Turning raw samples into medians, target verdicts, a terminal table and the docs section (pure). */
import { formatBytes, formatMs, formatRate, formatRatio, itemsPerSecond, markdownTable, median, percentile, ratio } from './stats';

/** The machine a run came from. */
export interface MachineInfo {
  readonly date: string;
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryBytes: number;
  readonly node: string;
  readonly java: string;
  /** `git describe --always --dirty` of the code measured. */
  readonly revision?: string;
  readonly loadAverageStart: readonly number[];
  readonly loadAverageEnd?: readonly number[];
}

/** Per-run timings of the scan variants (same index = same run, interleaved). */
export interface ScanRuns {
  readonly raw: readonly number[];
  readonly single: readonly number[];
  readonly audit: readonly number[];
  /** The audit with UI deltas on (rows built every 100 ms), as the app runs it. */
  readonly auditUi: readonly number[];
  readonly cli: readonly number[];
  readonly firstGroup: readonly number[];
  readonly cliPeakRss: readonly number[];
  /** Peak RSS of the CLI auditing a tiny table: its fixed start-up footprint. */
  readonly cliIdleRss: readonly number[];
  /** Node CPU time (user + system, ms) of each variant; the CLI's includes its start-up, cliIdleCpu is that start-up alone. */
  readonly rawCpu: readonly number[];
  readonly singleCpu: readonly number[];
  readonly auditCpu: readonly number[];
  readonly auditUiCpu: readonly number[];
  readonly cliCpu: readonly number[];
  readonly cliIdleCpu: readonly number[];
  /** Peak RSS of the CLI auditing a table of half the items (for the marginal growth per item). */
  readonly cliHalfRss?: readonly number[];
  /** JSON bytes of the deltas of the audit with UI deltas (optional: older results lack it). */
  readonly streamedBytes?: readonly number[];
}

/** One UI run's figures. */
export interface UiRun {
  readonly firstRowsMs: number;
  readonly completeMs: number;
  readonly longTasksMs: readonly number[];
  readonly frameMs: readonly number[];
  readonly scrollLongTasksMs: readonly number[];
  readonly rowsText: string;
  /** The same scroll over a minimal hand-written virtual list in the same browser (the machine's floor). */
  readonly baselineFrameMs?: readonly number[];
  /** A raw parallel scan of the same table measured right before this UI run (`--ui-only`): the UI's own baseline. */
  readonly rawMs?: number;
  /** The tab's JS heap in use once the audit is done: the page's and its workers'. */
  readonly heapBytes?: { readonly page: number; readonly workers: number };
}

/** Everything the summary needs. */
export interface BenchFigures {
  readonly items: number;
  /** Items in the half table (absent: not measured). */
  readonly halfItems?: number;
  readonly segments: number;
  readonly runs: number;
  readonly loadMs: number;
  readonly scans: ScanRuns;
  readonly lookups?: { readonly gsi: readonly number[]; readonly scan: readonly number[]; readonly audit?: readonly number[] };
  readonly ui?: readonly UiRun[];
}

/** Medians and derived figures. */
export interface BenchSummary {
  readonly rawMs: number;
  readonly singleMs: number;
  readonly auditMs: number;
  readonly auditUiMs: number;
  readonly auditUiVsRaw: number;
  readonly auditUiCpuUsPerItem: number;
  readonly cliMs: number;
  /** Median of the per-run ratios audit / raw parallel scan (paired: same run, same load). */
  readonly auditVsRaw: number;
  /** Median of the per-run ratios single-segment / audit: how many times faster the audit is. */
  readonly auditSpeedupVsSingle: number;
  readonly cliVsRaw: number;
  readonly cliSpeedupVsSingle: number;
  readonly firstGroupMs: number;
  /** JSON the UI audit streamed (median bytes per run). */
  readonly streamedBytes: number;
  readonly cliPeakRssBytes: number;
  readonly rssGrowthPerItem: number;
  /**
   * Marginal RSS growth: (peak on the table − peak on the half table) / the items between them.
   * Unlike rssGrowthPerItem it leaves out what any non-trivial scan costs once whatever the table's
   * size (full 1 MB pages in flight, V8's young generation at its working size). NaN when not measured.
   */
  readonly rssSlopePerItem: number;
  /** Node CPU per item, in µs: the raw scan (SDK alone), the audit (SDK + engine), the CLI without its start-up. */
  readonly rawCpuUsPerItem: number;
  readonly singleCpuUsPerItem: number;
  readonly auditCpuUsPerItem: number;
  readonly cliCpuUsPerItem: number;
  /** Median of the per-run ratios of Node CPU, audit / raw. */
  readonly auditCpuVsRaw: number;
  readonly lookup?: {
    readonly gsiP50: number;
    readonly gsiP95: number;
    readonly scanP50: number;
    readonly scanP95: number;
    readonly auditP50?: number;
    readonly auditP95?: number;
  };
  readonly ui?: {
    readonly firstRowsMs: number;
    readonly completeMs: number;
    /** Median of the per-run ratios UI complete / raw parallel scan (each run's own raw scan when it has one). */
    readonly completeVsRaw: number;
    readonly maxLongTaskMs: number;
    /** The longest main-thread task during the scrolls (0 when none passed 50 ms). */
    readonly maxScrollLongTaskMs: number;
    /** Median JS heap of the tab once the audit is done (page + workers; NaN when not measured). */
    readonly heapBytes: number;
    readonly pageHeapBytes: number;
    readonly longTasks: number;
    readonly scrollP50: number;
    readonly scrollP95: number;
    readonly frames: number;
    readonly rows: string;
    /** Frame-time percentiles of the scroll baseline (NaN when not measured). */
    readonly baselineP50: number;
    readonly baselineP95: number;
  };
}

const pairwise = (a: readonly number[], b: readonly number[]): number[] => a.map((x, i) => ratio(x, b[i] ?? Number.NaN));

/** Medians, paired ratios and RSS growth per item. */
export function summarize(f: BenchFigures): BenchSummary {
  const s = f.scans;
  const peak = median([...s.cliPeakRss]);
  const summary: BenchSummary = {
    rawMs: median([...s.raw]),
    singleMs: median([...s.single]),
    auditMs: median([...s.audit]),
    auditUiMs: median([...s.auditUi]),
    auditUiVsRaw: median(pairwise(s.auditUi, s.raw)),
    auditUiCpuUsPerItem: (median([...s.auditUiCpu]) * 1000) / f.items,
    cliMs: median([...s.cli]),
    auditVsRaw: median(pairwise(s.audit, s.raw)),
    auditSpeedupVsSingle: median(pairwise(s.single, s.audit)),
    cliVsRaw: median(pairwise(s.cli, s.raw)),
    cliSpeedupVsSingle: median(pairwise(s.single, s.cli)),
    firstGroupMs: median([...s.firstGroup]),
    streamedBytes: median([...(s.streamedBytes ?? [])]),
    cliPeakRssBytes: peak,
    rssGrowthPerItem: (peak - median([...s.cliIdleRss])) / f.items,
    rssSlopePerItem: f.halfItems && s.cliHalfRss?.length ? (peak - median([...s.cliHalfRss])) / (f.items - f.halfItems) : Number.NaN,
    rawCpuUsPerItem: (median([...s.rawCpu]) * 1000) / f.items,
    singleCpuUsPerItem: (median([...s.singleCpu]) * 1000) / f.items,
    auditCpuUsPerItem: (median([...s.auditCpu]) * 1000) / f.items,
    cliCpuUsPerItem: ((median([...s.cliCpu]) - median([...s.cliIdleCpu])) * 1000) / f.items,
    auditCpuVsRaw: median(pairwise(s.auditCpu, s.rawCpu)),
  };
  const withLookup = f.lookups
    ? {
        ...summary,
        lookup: {
          gsiP50: percentile(f.lookups.gsi, 50),
          gsiP95: percentile(f.lookups.gsi, 95),
          scanP50: percentile(f.lookups.scan, 50),
          scanP95: percentile(f.lookups.scan, 95),
          ...(f.lookups.audit?.length ? { auditP50: percentile(f.lookups.audit, 50), auditP95: percentile(f.lookups.audit, 95) } : {}),
        },
      }
    : summary;
  if (!f.ui || f.ui.length === 0) return withLookup;
  const frames = f.ui.flatMap((u) => [...u.frameMs]);
  const baseline = f.ui.flatMap((u) => [...(u.baselineFrameMs ?? [])]);
  const longTasks = f.ui.flatMap((u) => [...u.longTasksMs]);
  const scrollLongTasks = f.ui.flatMap((u) => [...u.scrollLongTasksMs]);
  const heaps = f.ui.flatMap((u) => (u.heapBytes ? [u.heapBytes] : []));
  return {
    ...withLookup,
    ui: {
      firstRowsMs: median(f.ui.map((u) => u.firstRowsMs)),
      completeMs: median(f.ui.map((u) => u.completeMs)),
      completeVsRaw: median(f.ui.map((u) => ratio(u.completeMs, u.rawMs ?? summary.rawMs))),
      maxLongTaskMs: longTasks.length ? Math.max(...longTasks) : 0,
      maxScrollLongTaskMs: scrollLongTasks.length ? Math.max(...scrollLongTasks) : 0,
      heapBytes: heaps.length ? median(heaps.map((h) => h.page + h.workers)) : Number.NaN,
      pageHeapBytes: heaps.length ? median(heaps.map((h) => h.page)) : Number.NaN,
      longTasks: median(f.ui.map((u) => u.longTasksMs.length)),
      scrollP50: percentile(frames, 50),
      scrollP95: percentile(frames, 95),
      frames: frames.length,
      rows: f.ui[0]?.rowsText ?? '',
      baselineP50: baseline.length ? percentile(baseline, 50) : Number.NaN,
      baselineP95: baseline.length ? percentile(baseline, 95) : Number.NaN,
    },
  };
}

/** One target and whether this run met it. */
export interface TargetVerdict {
  readonly target: string;
  readonly value: string;
  readonly met: boolean | undefined;
}

/** The issue's targets against this run (`met: undefined` when not measured). */
export function targets(items: number, s: BenchSummary): TargetVerdict[] {
  const ui = s.ui;
  return [
    { target: 'audit ≤ 1.10× raw parallel scan', value: formatRatio(s.auditVsRaw), met: s.auditVsRaw <= 1.1 },
    { target: 'audit ≥ 3× faster than single-segment scan', value: formatRatio(s.auditSpeedupVsSingle), met: s.auditSpeedupVsSingle >= 3 },
    {
      target: 'RSS growth ≤ 250 B/item (CLI)',
      value: `${Math.round(s.rssGrowthPerItem)} B/item vs a 1k table${Number.isFinite(s.rssSlopePerItem) ? `; ${Math.round(s.rssSlopePerItem)} B/item marginal (half → full table)` : ''}`,
      met: s.rssGrowthPerItem <= 250,
    },
    {
      target: 'lookup without GSI after an audit: p95 ≤ 50 ms',
      value: s.lookup?.auditP95 !== undefined ? formatMs(s.lookup.auditP95) : 'not this run',
      met: s.lookup?.auditP95 !== undefined ? s.lookup.auditP95 <= 50 : undefined,
    },
    {
      target: '--items 1000000 completes',
      value: items >= 1_000_000 ? 'completed' : 'not this run',
      met: items >= 1_000_000 ? true : undefined,
    },
    // The UI targets: first rows, audit time against a raw scan, main-thread tasks.
    { target: 'UI first rows ≤ 500 ms', value: ui ? formatMs(ui.firstRowsMs) : 'skipped', met: ui ? ui.firstRowsMs <= 500 : undefined },
    {
      target: 'UI audit start → complete ≤ 1.5× raw scan',
      value: ui ? formatRatio(ui.completeVsRaw) : 'skipped',
      met: ui ? ui.completeVsRaw <= 1.5 : undefined,
    },
    {
      target: 'no main-thread task > 50 ms (audit and scroll)',
      value: ui ? `max ${formatMs(ui.maxLongTaskMs)} during the audit, ${formatMs(ui.maxScrollLongTaskMs)} during the scroll` : 'skipped',
      met: ui ? Math.max(ui.maxLongTaskMs, ui.maxScrollLongTaskMs) <= 50 : undefined,
    },
    {
      target: 'scroll p95 ≤ plain-list floor + 3 ms',
      value: ui ? `${formatMs(ui.scrollP95)} vs floor ${formatMs(ui.baselineP95)}` : 'skipped',
      met: ui && Number.isFinite(ui.baselineP95) ? ui.scrollP95 <= ui.baselineP95 + 3 : undefined,
    },
  ];
}

/** The figure rows shown in the terminal and the docs. */
export function figureRows(items: number, s: BenchSummary): string[][] {
  const rate = (ms: number): string => formatRate(itemsPerSecond(items, ms));
  const cpu = (us: number): string => (Number.isFinite(us) ? `${us.toFixed(1)} µs` : '–');
  const rows: string[][] = [
    ['raw SDK parallel scan (baseline)', formatMs(s.rawMs), rate(s.rawMs), '1.00×', cpu(s.rawCpuUsPerItem), ''],
    [
      'single-segment scan (baseline)',
      formatMs(s.singleMs),
      rate(s.singleMs),
      formatRatio(ratio(s.singleMs, s.rawMs)),
      cpu(s.singleCpuUsPerItem),
      '',
    ],
    [
      'audit, in process (engine, as the CLI)',
      formatMs(s.auditMs),
      rate(s.auditMs),
      formatRatio(s.auditVsRaw),
      cpu(s.auditCpuUsPerItem),
      `${formatRatio(s.auditSpeedupVsSingle)} faster than single; CPU ${formatRatio(s.auditCpuVsRaw)} raw's`,
    ],
    [
      'audit, in process with UI deltas (as the app)',
      formatMs(s.auditUiMs),
      rate(s.auditUiMs),
      formatRatio(s.auditUiVsRaw),
      cpu(s.auditUiCpuUsPerItem),
      `first group ${formatMs(s.firstGroupMs)}; ${formatBytes(s.streamedBytes)} of JSON streamed`,
    ],
    [
      'audit, CLI process (incl. start-up)',
      formatMs(s.cliMs),
      rate(s.cliMs),
      formatRatio(s.cliVsRaw),
      cpu(s.cliCpuUsPerItem),
      `${formatRatio(s.cliSpeedupVsSingle)} faster than single; peak RSS ${formatBytes(s.cliPeakRssBytes)}, growth ${Math.round(s.rssGrowthPerItem)} B/item vs a 1k table${Number.isFinite(s.rssSlopePerItem) ? `, ${Math.round(s.rssSlopePerItem)} B/item marginal` : ''}`,
    ],
  ];
  if (s.lookup) {
    rows.push(['lookup with GSI', `p50 ${formatMs(s.lookup.gsiP50)}`, `p95 ${formatMs(s.lookup.gsiP95)}`, '', '', '']);
    rows.push(['lookup without GSI (filtered scan)', `p50 ${formatMs(s.lookup.scanP50)}`, `p95 ${formatMs(s.lookup.scanP95)}`, '', '', '']);
    if (s.lookup.auditP50 !== undefined)
      rows.push([
        'lookup without GSI after an audit (holders re-read by key)',
        `p50 ${formatMs(s.lookup.auditP50)}`,
        `p95 ${formatMs(s.lookup.auditP95 ?? Number.NaN)}`,
        '',
        '',
        'same values as the GSI lookups, alternating',
      ]);
  }
  if (s.ui) {
    rows.push(['UI: audit start → first rows', formatMs(s.ui.firstRowsMs), '', '', '', '']);
    rows.push([
      'UI: audit start → complete',
      formatMs(s.ui.completeMs),
      rate(s.ui.completeMs),
      formatRatio(s.ui.completeVsRaw),
      '',
      s.ui.rows,
    ]);
    rows.push([
      'UI: long tasks during audit',
      `max ${formatMs(s.ui.maxLongTaskMs)}`,
      `${s.ui.longTasks} per run (median)`,
      '',
      '',
      `during the scrolls: max ${formatMs(s.ui.maxScrollLongTaskMs)}`,
    ]);
    if (Number.isFinite(s.ui.heapBytes))
      rows.push([
        'UI: tab JS heap after the audit',
        formatBytes(s.ui.heapBytes),
        '',
        '',
        '',
        `page ${formatBytes(s.ui.pageHeapBytes)}, the rest in the row-store worker`,
      ]);
    rows.push([
      'UI: scroll frame time',
      `p50 ${formatMs(s.ui.scrollP50)}`,
      `p95 ${formatMs(s.ui.scrollP95)}`,
      '',
      '',
      `${s.ui.frames} frames`,
    ]);
    rows.push([
      'UI: scroll baseline (plain virtual list, same browser)',
      `p50 ${formatMs(s.ui.baselineP50)}`,
      `p95 ${formatMs(s.ui.baselineP95)}`,
      '',
      '',
      "the machine's floor for this scroll",
    ]);
  }
  return rows;
}

/** The header of {@link figureRows}. */
export const FIGURE_HEADER = ['measure', 'time (median)', 'items/s', 'vs raw', 'Node CPU/item', 'notes'] as const;

const verdict = (met: boolean | undefined): string => (met === undefined ? '–' : met ? 'met' : 'MISSED');

/** The Markdown section of one item count, between markers so later runs replace it. */
export function docsSection(machine: MachineInfo, f: BenchFigures, s: BenchSummary): string {
  const mem = formatBytes(machine.memoryBytes);
  const load = (l: readonly number[] | undefined): string => (l ? l.map((x) => x.toFixed(2)).join(' / ') : '–');
  return [
    `<!-- bench:${f.items} -->`,
    `### ${f.items.toLocaleString('en-US')} items — ${machine.date}`,
    '',
    `Code: ${machine.revision ?? 'unknown'}. Machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${mem} RAM, Node ${machine.node}, ${machine.java}; load average (1/5/15 min) ${load(machine.loadAverageStart)} at start, ${load(machine.loadAverageEnd)} at end.`,
    `Table loaded in ${formatMs(f.loadMs)} (${formatRate(itemsPerSecond(f.items, f.loadMs))}, parallel BatchWriteItem, GSI on email). ${f.segments} segments, ${f.runs} interleaved runs, medians.`,
    '',
    markdownTable([...FIGURE_HEADER], figureRows(f.items, s)),
    '',
    markdownTable(
      ['target', 'this run', 'verdict'],
      targets(f.items, s).map((t) => [t.target, t.value, verdict(t.met)]),
    ),
    `<!-- /bench:${f.items} -->`,
  ].join('\n');
}

/** Replaces the section of the same item count in `doc`, or appends it under "## Latest figures". */
export function upsertSection(doc: string, items: number, section: string): string {
  const open = `<!-- bench:${items} -->`;
  const close = `<!-- /bench:${items} -->`;
  const start = doc.indexOf(open);
  const end = doc.indexOf(close);
  if (start >= 0 && end > start) return doc.slice(0, start) + section + doc.slice(end + close.length);
  const heading = '## Latest figures';
  const at = doc.indexOf(heading);
  if (at < 0) return `${doc.trimEnd()}\n\n${heading}\n\n${section}\n`;
  const insert = at + heading.length;
  return `${doc.slice(0, insert)}\n\n${section}${doc.slice(insert)}`;
}
