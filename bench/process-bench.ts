/**
 * Whole processes, started cold, as a user starts them: `locksmith --help` (from the bundle, and
 * from the sources through tsx) against `node -e 0`, the machine's floor for starting Node; and
 * `locksmith audit --json` against a whole raw-scan process (node + SDK, same segments, same
 * projection: bench/raw-scan-process.mjs). Variants alternate within each run; medians and paired ratios.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Convention } from '../shared/model';
import { scanProjection } from '../electron/services/audit/run-audit';
import { auditCli } from './scan-bench';
import { formatMs, formatRatio, interleave, median, ratio } from './stats';

const BIN = fileURLToPath(new URL('../bin/locksmith', import.meta.url));
const RAW_PROCESS = fileURLToPath(new URL('./raw-scan-process.mjs', import.meta.url));
const RSS_HOOK = fileURLToPath(new URL('./rss-hook.mjs', import.meta.url));
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'locksmith', AWS_SECRET_ACCESS_KEY: 'locksmith', AWS_REGION: 'us-east-1' };

/** The start-up variants. */
type StartupVariant = 'node' | 'bundle' | 'tsx';

/**
 * Per-run wall times (ms) of the start-up variants, same index = same run: `node -e 0` (the floor),
 * `locksmith --help` from the fresh bundle, and from the sources through tsx (LOCKSMITH_CLI_BUNDLE=off,
 * what every run paid before); with each process's own CPU time (user + system), which a loaded
 * machine inflates far less than wall time.
 */
export type StartupRuns = Record<StartupVariant | `${StartupVariant}Cpu`, number[]>;

/** Per-run figures of the audit pair. */
export interface ProcessPairRuns {
  readonly rawProcess: number[];
  /** The CLI as a user runs it again: its data folder remembers the table's key schema (checked by one GetItem). */
  readonly cli: number[];
  /** The CLI with a fresh data folder each run: it waits for DescribeTable (the first audit of a table). */
  readonly cliCold: number[];
  readonly rawProcessCpu: number[];
  readonly cliCpu: number[];
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

/** Wall time of one whole process (spawn to exit) and its CPU time (the same hook in every variant), failing on a non-zero exit. */
async function timeProcess(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; cpuMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'locksmith-bench-start-'));
  const rssFile = join(dir, 'rss.json');
  try {
    const started = performance.now();
    const ms = await new Promise<number>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', RSS_HOOK, ...args],
        { env: { ...env, LOCKSMITH_BENCH_RSS_FILE: rssFile } },
        (error, _stdout, stderr) => {
          const elapsed = performance.now() - started;
          if (error) reject(new Error(`${args.join(' ')} failed: ${stderr.trim() || error.message}`));
          else resolve(elapsed);
        },
      );
    });
    return { ms, cpuMs: (JSON.parse(readFileSync(rssFile, 'utf8')) as { cpuMs: number }).cpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `runs` interleaved rounds of node -e 0, locksmith --help (bundle) and (tsx); checks the bundle is what ran. */
export async function measureStartup(runs: number, log: (line: string) => void): Promise<StartupRuns> {
  const out: StartupRuns = { node: [], bundle: [], tsx: [], nodeCpu: [], bundleCpu: [], tsxCpu: [] };
  const check = await new Promise<string>((resolve) =>
    execFile(process.execPath, [BIN, '--help'], { env: { ...process.env, LOCKSMITH_TRACE_LAUNCH: '1' } }, (_e, _o, stderr) =>
      resolve(stderr),
    ),
  );
  if (!check.startsWith('locksmith launch: bundle '))
    throw new Error(`locksmith --help did not start from the bundle (${check.trim()}): run \`node bin/build-cli.mjs\` first`);
  for (let run = 0; run < runs; run++) {
    for (const variant of interleave<StartupVariant>(['node', 'bundle', 'tsx'], run)) {
      const env = variant === 'tsx' ? { ...process.env, LOCKSMITH_CLI_BUNDLE: 'off' } : process.env;
      const { ms, cpuMs } = await timeProcess(variant === 'node' ? ['-e', '0'] : [BIN, '--help'], env);
      out[variant].push(ms);
      out[`${variant}Cpu`].push(cpuMs);
    }
  }
  log(
    `  start-up, ${runs} runs: node -e 0 ${formatMs(median(out.node))} (CPU ${formatMs(median(out.nodeCpu))}), --help (bundle) ${formatMs(median(out.bundle))} (CPU ${formatMs(median(out.bundleCpu))}), --help (tsx) ${formatMs(median(out.tsx))} (CPU ${formatMs(median(out.tsxCpu))})`,
  );
  return out;
}

/** The raw-scan process: node + SDK only; peak RSS and CPU from the same hook as the CLI's. */
async function rawScanProcess(
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
    cliCold: [],
    rawProcessCpu: [],
    cliCpu: [],
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
  try {
    check((await auditCli(options.endpoint, options.table, options.segments, dataDir)).report);
    for (let run = 0; run < options.runs; run++) {
      out.load.push(loadavg()[0] ?? Number.NaN);
      for (const variant of interleave<'rawProcess' | 'cli' | 'cliCold'>(['rawProcess', 'cli', 'cliCold'], run)) {
        await measureVariant(variant, dataDir);
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
  }
  return out;

  async function measureVariant(variant: 'rawProcess' | 'cli' | 'cliCold', dataDir: string): Promise<void> {
    if (variant === 'rawProcess') {
      const s = await rawScanProcess(options.endpoint, options.table, options.segments, options.convention);
      if (s.items !== options.items) throw new Error(`the raw-scan process read ${s.items} items, expected ${options.items}`);
      out.rawProcess.push(s.ms);
      out.rawProcessCpu.push(s.cpuMs);
      out.rawPeakRss.push(s.peakRssBytes);
      return;
    }
    const s = await auditCli(options.endpoint, options.table, options.segments, variant === 'cli' ? dataDir : undefined);
    check(s.report);
    out[variant].push(s.ms);
    out[`${variant}Cpu`].push(s.cpuMs);
    if (variant === 'cli') out.cliPeakRss.push(s.peakRssBytes ?? Number.NaN);
  }
}

const pairwise = (a: readonly number[], b: readonly number[]): number[] => a.map((x, i) => ratio(x, b[i] ?? Number.NaN));

/** Medians and paired ratios of both measurements. */
export function summarizeProcesses(startup: StartupRuns | undefined, pair: ProcessPairRuns | undefined): Record<string, number> {
  return {
    ...(startup
      ? {
          startupRuns: startup.node.length,
          nodeFloorMs: median(startup.node),
          helpBundleMs: median(startup.bundle),
          helpTsxMs: median(startup.tsx),
          helpBundleOverFloorMs: median(startup.bundle.map((b, i) => b - (startup.node[i] ?? Number.NaN))),
          helpTsxVsBundle: median(pairwise(startup.tsx, startup.bundle)),
          nodeFloorCpuMs: median(startup.nodeCpu),
          helpBundleCpuMs: median(startup.bundleCpu),
          helpTsxCpuMs: median(startup.tsxCpu),
        }
      : {}),
    ...(pair
      ? {
          pairRuns: pair.cli.length,
          rawProcessMs: median(pair.rawProcess),
          cliProcessMs: median(pair.cli),
          cliVsRawProcess: median(pairwise(pair.cli, pair.rawProcess)),
          rawProcessCpuMs: median(pair.rawProcessCpu),
          cliProcessCpuMs: median(pair.cliCpu),
          cliCpuVsRawProcess: median(pairwise(pair.cliCpu, pair.rawProcessCpu)),
          cliColdProcessMs: median(pair.cliCold),
          cliColdVsRawProcess: median(pairwise(pair.cliCold, pair.rawProcess)),
          cliColdProcessCpuMs: median(pair.cliColdCpu),
          cliPeakRssBytes: median(pair.cliPeakRss),
          rawPeakRssBytes: median(pair.rawPeakRss),
          cliRssGrowthPerItem: (median(pair.cliPeakRss) - median(pair.cliTinyPeakRss)) / (pair.items - pair.tinyItems),
          rawRssGrowthPerItem: (median(pair.rawPeakRss) - median(pair.rawTinyPeakRss)) / (pair.items - pair.tinyItems),
        }
      : {}),
  };
}

/** The terminal / docs lines of {@link summarizeProcesses}. */
export function processLines(s: Record<string, number>): string[] {
  const lines: string[] = [];
  if (s.helpBundleMs !== undefined) {
    lines.push(
      `locksmith --help (bundle): ${formatMs(s.helpBundleMs)} median of ${s.startupRuns} (target ≤ 150 ms: ${s.helpBundleMs <= 150 ? 'met' : 'MISSED'}); node -e 0 floor ${formatMs(s.nodeFloorMs ?? Number.NaN)}, ${(s.helpBundleOverFloorMs ?? 0) < 0 ? '−' : '+'}${formatMs(Math.abs(s.helpBundleOverFloorMs ?? Number.NaN))} over it (median of the per-round differences); from the sources through tsx ${formatMs(s.helpTsxMs ?? Number.NaN)} (${formatRatio(s.helpTsxVsBundle ?? Number.NaN)} the bundle). Process CPU time (user + system): node -e 0 ${formatMs(s.nodeFloorCpuMs ?? Number.NaN)}, bundle ${formatMs(s.helpBundleCpuMs ?? Number.NaN)}, tsx ${formatMs(s.helpTsxCpuMs ?? Number.NaN)}`,
    );
  }
  if (s.cliVsRawProcess !== undefined) {
    lines.push(
      `audit, whole CLI process vs whole raw-scan process: ${formatMs(s.cliProcessMs ?? Number.NaN)} vs ${formatMs(s.rawProcessMs ?? Number.NaN)}, ${formatRatio(s.cliVsRawProcess)} (median of ${s.pairRuns} paired runs; target ≤ 1.10×: ${s.cliVsRawProcess <= 1.1 ? 'met' : 'MISSED'}); CPU ${formatRatio(s.cliCpuVsRawProcess ?? Number.NaN)} the raw process's. The table's key schema and detected convention remembered from an earlier audit (the scan starts at once; the keys are re-checked by GetItem and Query, the convention by detection on a fresh sample, and the run is kept only if both agree); a first audit of the table (fresh data folder, waits for DescribeTable): ${formatMs(s.cliColdProcessMs ?? Number.NaN)}, ${formatRatio(s.cliColdVsRawProcess ?? Number.NaN)}`,
    );
  }
  if (s.cliRssGrowthPerItem !== undefined) {
    const mib = (b: number | undefined): string => `${((b ?? Number.NaN) / 1048576).toFixed(0)} MiB`;
    lines.push(
      `CLI peak RSS ${mib(s.cliPeakRssBytes)}, growth ${Math.round(s.cliRssGrowthPerItem)} B/item over the 1k-item table (target ≤ 250: ${s.cliRssGrowthPerItem <= 250 ? 'met' : 'MISSED'}); the raw-scan process ${mib(s.rawPeakRssBytes)}, ${Math.round(s.rawRssGrowthPerItem ?? Number.NaN)} B/item`,
    );
  }
  return lines;
}
