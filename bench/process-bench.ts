/**
 * Whole processes, started cold, as a user starts them: `locksmith audit --json` against a whole
 * raw-scan process (node + SDK, same segments, same projection: bench/raw-scan-process.mjs), the CLI
 * with a fresh data folder (a first audit), again with its remembered convention forgotten, and again
 * with the convention remembered (the speculative audit). Variants alternate within each run; medians and paired ratios.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Convention } from '../shared/model';
import { scanProjection } from '../electron/services/audit/run-audit';
import { auditCli } from './scan-bench';
import { formatMs, formatRatio, interleave, median, ratio } from './stats';

const RAW_PROCESS = fileURLToPath(new URL('./raw-scan-process.mjs', import.meta.url));
const RSS_HOOK = fileURLToPath(new URL('./rss-hook.mjs', import.meta.url));
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'locksmith', AWS_SECRET_ACCESS_KEY: 'locksmith', AWS_REGION: 'us-east-1' };

type Variant = 'rawProcess' | 'cli' | 'cliNoConvention' | 'cliCold';

/** Per-run figures of the audit pair. */
export interface ProcessPairRuns {
  readonly rawProcess: number[];
  /** The CLI as a user runs it again: its data folder remembers the table's convention (the speculative audit starts at once). */
  readonly cli: number[];
  /** The CLI run again with the convention not remembered: no speculative audit (detection first, then the scan). */
  readonly cliNoConvention: number[];
  /** The CLI with a fresh data folder each run: it waits for DescribeTable (the first audit of a table). */
  readonly cliCold: number[];
  readonly rawProcessCpu: number[];
  readonly cliCpu: number[];
  readonly cliNoConventionCpu: number[];
  readonly cliColdCpu: number[];
  /** Peak RSS (bytes) of each warm CLI run and each raw-scan run, and of the same two processes on the 1k-item table. */
  readonly cliPeakRss: number[];
  readonly rawPeakRss: number[];
  readonly cliTinyPeakRss: number[];
  readonly rawTinyPeakRss: number[];
  /** Items of the big and the small table (RSS growth per item is the difference over this). */
  readonly items: number;
  readonly tinyItems: number;
  /** 1-minute load average before each pair. */
  readonly load: number[];
}

/** The whole raw-scan process: node + SDK only; peak RSS and CPU from the same hook as the CLI's. */
export async function rawScanProcess(
  endpoint: string,
  table: string,
  segments: number,
  convention: Convention,
): Promise<{ ms: number; items: number; cpuMs: number; peakRssBytes: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'locksmith-bench-raw-'));
  const rssFile = join(dir, 'rss.json');
  const projection = scanProjection(convention);
  const started = performance.now();
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          RSS_HOOK,
          RAW_PROCESS,
          endpoint,
          table,
          String(segments),
          JSON.stringify({ expression: projection.expression, names: projection.names }),
        ],
        {
          env: { ...process.env, ...CREDENTIALS, LOCKSMITH_BENCH_RSS_FILE: rssFile },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.once('error', reject);
      child.once('close', (code) =>
        code === 0
          ? resolve(Buffer.concat(out).toString('utf8'))
          : reject(new Error(`raw-scan process exited ${String(code)}: ${Buffer.concat(err).toString('utf8').trim()}`)),
      );
    });
    const ms = performance.now() - started;
    const usage = JSON.parse(readFileSync(rssFile, 'utf8')) as { cpuMs: number; maxRssBytes: number };
    return { ms, items: (JSON.parse(stdout) as { items: number }).items, cpuMs: usage.cpuMs, peakRssBytes: usage.maxRssBytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `runs` rounds of the CLI audit process and the raw-scan process, alternating which goes first;
 * `check` verifies each CLI report against the planted data (a wrong audit is no figure).
 */
export async function measureProcessPair(
  options: {
    endpoint: string;
    table: string;
    segments: number;
    convention: Convention;
    items: number;
    runs: number;
    tiny: { table: string; items: number };
  },
  check: (report: Awaited<ReturnType<typeof auditCli>>['report']) => void,
  log: (line: string) => void,
): Promise<ProcessPairRuns> {
  const out: ProcessPairRuns = {
    rawProcess: [],
    cli: [],
    cliNoConvention: [],
    cliCold: [],
    rawProcessCpu: [],
    cliCpu: [],
    cliNoConventionCpu: [],
    cliColdCpu: [],
    cliPeakRss: [],
    rawPeakRss: [],
    cliTinyPeakRss: [],
    rawTinyPeakRss: [],
    items: options.items,
    tinyItems: options.tiny.items,
    load: [],
  };
  // One data folder for the warm variant, filled by an audit that is not counted (a user's earlier audit).
  const dataDir = mkdtempSync(join(tmpdir(), 'locksmith-bench-data-'));
  // A second one whose remembered convention is removed before each run.
  const noConventionDir = mkdtempSync(join(tmpdir(), 'locksmith-bench-no-convention-'));
  try {
    check((await auditCli(options.endpoint, options.table, options.segments, dataDir)).report);
    check((await auditCli(options.endpoint, options.table, options.segments, noConventionDir)).report);
    for (let run = 0; run < options.runs; run++) {
      out.load.push(loadavg()[0] ?? Number.NaN);
      for (const variant of interleave<Variant>(['rawProcess', 'cli', 'cliNoConvention', 'cliCold'], run)) {
        await measureVariant(variant);
        log(`  run ${run + 1}/${options.runs} ${variant} process: ${formatMs(out[variant].at(-1) ?? Number.NaN)}`);
      }
    }
    // The RSS baseline: both processes on the 1k-item table (target 2 is growth per item above it).
    for (let run = 0; run < 3; run++) {
      const cli = await auditCli(options.endpoint, options.tiny.table, options.segments, dataDir);
      if (cli.report.scanned !== options.tiny.items)
        throw new Error(`the CLI read ${cli.report.scanned} items of ${options.tiny.table}, expected ${options.tiny.items}`);
      out.cliTinyPeakRss.push(cli.peakRssBytes ?? Number.NaN);
      out.rawTinyPeakRss.push(
        (await rawScanProcess(options.endpoint, options.tiny.table, options.segments, options.convention)).peakRssBytes,
      );
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(noConventionDir, { recursive: true, force: true });
  }
  return out;

  async function measureVariant(variant: Variant): Promise<void> {
    if (variant === 'rawProcess') {
      const s = await rawScanProcess(options.endpoint, options.table, options.segments, options.convention);
      if (s.items !== options.items) throw new Error(`the raw-scan process read ${s.items} items, expected ${options.items}`);
      out.rawProcess.push(s.ms);
      out.rawProcessCpu.push(s.cpuMs);
      out.rawPeakRss.push(s.peakRssBytes);
      return;
    }
    if (variant === 'cliNoConvention') rmSync(join(noConventionDir, 'cache', 'conventions.json'), { force: true });
    const dir = variant === 'cli' ? dataDir : variant === 'cliNoConvention' ? noConventionDir : undefined;
    const s = await auditCli(options.endpoint, options.table, options.segments, dir);
    check(s.report);
    out[variant].push(s.ms);
    out[`${variant}Cpu`].push(s.cpuMs);
    if (variant === 'cli') out.cliPeakRss.push(s.peakRssBytes ?? Number.NaN);
  }
}

const pairwise = (a: readonly number[], b: readonly number[]): number[] => a.map((x, i) => ratio(x, b[i] ?? Number.NaN));

/** Medians and paired ratios of the audit pair. */
export function summarizeProcesses(pair: ProcessPairRuns): Record<string, number> {
  return {
    pairRuns: pair.cli.length,
    rawProcessMs: median(pair.rawProcess),
    cliProcessMs: median(pair.cli),
    cliVsRawProcess: median(pairwise(pair.cli, pair.rawProcess)),
    rawProcessCpuMs: median(pair.rawProcessCpu),
    cliProcessCpuMs: median(pair.cliCpu),
    cliCpuVsRawProcess: median(pairwise(pair.cliCpu, pair.rawProcessCpu)),
    cliNoConventionProcessMs: median(pair.cliNoConvention),
    cliNoConventionVsRawProcess: median(pairwise(pair.cliNoConvention, pair.rawProcess)),
    cliNoConventionProcessCpuMs: median(pair.cliNoConventionCpu),
    cliColdProcessMs: median(pair.cliCold),
    cliColdVsRawProcess: median(pairwise(pair.cliCold, pair.rawProcess)),
    cliColdProcessCpuMs: median(pair.cliColdCpu),
    cliPeakRssBytes: median(pair.cliPeakRss),
    rawPeakRssBytes: median(pair.rawPeakRss),
    cliRssGrowthPerItem: (median(pair.cliPeakRss) - median(pair.cliTinyPeakRss)) / (pair.items - pair.tinyItems),
    rawRssGrowthPerItem: (median(pair.rawPeakRss) - median(pair.rawTinyPeakRss)) / (pair.items - pair.tinyItems),
  };
}

const verdict = (ratioValue: number, target: number): string => (ratioValue <= target ? 'met' : 'MISSED');

/** The terminal / docs lines of {@link summarizeProcesses}, each starting with `way` (which endpoint). */
export function processLines(s: Record<string, number>, way: string): string[] {
  const ms = (key: string): string => formatMs(s[key] ?? Number.NaN);
  const r = (key: string): string => formatRatio(s[key] ?? Number.NaN);
  const mib = (key: string): string => `${((s[key] ?? Number.NaN) / 1048576).toFixed(0)} MiB`;
  const growth = s.cliRssGrowthPerItem ?? Number.NaN;
  return [
    `${way}: audit, whole CLI process vs whole raw-scan process (median of ${s.pairRuns} paired runs, target ≤ 1.10×). ` +
      `A first audit of the table (fresh data folder: DescribeTable, sample, detection, then the scan): ${ms('cliColdProcessMs')} vs ${ms('rawProcessMs')}, ${r('cliColdVsRawProcess')} (${verdict(s.cliColdVsRawProcess ?? Number.NaN, 1.1)}). ` +
      `Again, convention remembered (the audit started at once with the remembered convention on its keys, kept only if DescribeTable and detection agree): ${ms('cliProcessMs')}, ${r('cliVsRawProcess')} (${verdict(s.cliVsRawProcess ?? Number.NaN, 1.1)}); CPU ${r('cliCpuVsRawProcess')} the raw process's. ` +
      `Again, convention not remembered (no speculative start): ${ms('cliNoConventionProcessMs')}, ${r('cliNoConventionVsRawProcess')}`,
    `${way}: CLI peak RSS ${mib('cliPeakRssBytes')}, growth ${Math.round(growth)} B/item over the 1k-item table (target ≤ 250: ${growth <= 250 ? 'met' : 'MISSED'}); the raw-scan process ${mib('rawPeakRssBytes')}, ${Math.round(s.rawRssGrowthPerItem ?? Number.NaN)} B/item`,
  ];
}
