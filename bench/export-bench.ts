/**
 * The export benchmark: a generated export of the bench dataset (same generator, same planted
 * problems as the live table), audited by `locksmith audit --export` (DuckDB in a child process),
 * against three baselines over the same files in the same run, interleaved: a plain Node process
 * that gunzips and JSON.parses every line (gunzip-parse.mjs), DuckDB's bare `SELECT count(*)`, and
 * DuckDB counting every column the audit loads (each one extracted). Every figure is of a whole
 * process: wall time, CPU time (user + system of the process and its children, where GNU time is
 * installed), items/s, peak RSS of the process tree (sampled from /proc) and disk used.
 * LOCKSMITH_BENCH_EXPORT_CACHE=DIR keeps the generated export in DIR for the next run (a 2M export
 * takes a while to write).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuditReport } from '../shared/audit/types';
import { ExportWriter } from '../electron/services/export/write-export';
import { datasetChunks, planDataset } from './dataset';
import { folderBytes, sampleTree } from './process-tree';
import { interleave, itemsPerSecond, median, ratio } from './stats';

const BIN = fileURLToPath(new URL('../bin/locksmith', import.meta.url));
const COUNT = fileURLToPath(new URL('./duck-count.ts', import.meta.url));
/**
 * Where the DuckDB baseline is bundled to, inside the checkout (its external imports resolve from
 * node_modules there): plain Node, as the audit's own child runs from the CLI bundle, so neither pays tsx's start-up.
 */
const COUNT_BUNDLE_DIR = fileURLToPath(new URL('../.cache/bench/', import.meta.url));
const PARSE = fileURLToPath(new URL('./gunzip-parse.mjs', import.meta.url));
/** GNU time: the CPU of a process and of every child it waited for (the audit's DuckDB child included). */
const GNU_TIME = '/usr/bin/time';

/** One measured child run. */
export interface ChildSample {
  readonly ms: number;
  /** User + system CPU of the process and its children; NaN without GNU time. */
  readonly cpuMs: number;
  readonly peakRssBytes: number;
  readonly peakDiskBytes: number;
  readonly stdout: string;
}

/** The export bench's figures (medians are taken by the caller's report). */
export interface ExportFigures {
  readonly items: number;
  readonly files: number;
  readonly exportBytes: number;
  readonly writeMs: number;
  readonly count: readonly ChildSample[];
  /** DuckDB counting every column the audit loads: the read with the JSON fields extracted. */
  readonly countColumns: readonly ChildSample[];
  /** A plain Node process gunzipping and JSON.parsing every line (the baseline). */
  readonly parse: readonly ChildSample[];
  readonly audit: readonly ChildSample[];
}

/** The CPU seconds GNU time wrote (`%U %S`), as ms; NaN when it wrote none. */
function cpuFrom(file: string | undefined): number {
  if (file === undefined || !existsSync(file)) return Number.NaN;
  const last = readFileSync(file, 'utf8').trim().split('\n').pop() ?? '';
  const [user, system] = last.split(' ').map(Number);
  return user === undefined || system === undefined ? Number.NaN : (user + system) * 1000;
}

async function runChild(args: readonly string[], env: NodeJS.ProcessEnv, watchDir: string | undefined): Promise<ChildSample> {
  const cpuFile = existsSync(GNU_TIME) ? join(mkdtempSync(join(tmpdir(), 'locksmith-cpu-')), 'cpu') : undefined;
  const command = cpuFile ? GNU_TIME : process.execPath;
  const argv = cpuFile ? ['-f', '%U %S', '-o', cpuFile, process.execPath, ...args] : [...args];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const sampler = sampleTree(child.pid!, watchDir);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.once('error', reject);
    child.once('close', (code) => {
      const peaks = sampler.stop();
      const ms = performance.now() - started;
      const cpuMs = cpuFrom(cpuFile);
      if (cpuFile) rmSync(join(cpuFile, '..'), { recursive: true, force: true });
      // Exit 1 = complete with problems, which the dataset has on purpose (GNU time passes the exit code on).
      if (code !== 0 && code !== 1)
        reject(new Error(`${args.join(' ')} exited ${String(code)}: ${Buffer.concat(err).toString('utf8').trim().slice(-500)}`));
      else resolve({ ms, cpuMs, ...peaks, stdout: Buffer.concat(out).toString('utf8') });
    });
  });
}

/** Writes the dataset as an export under `out` (partitions ~125k items each, at least 8). */
export async function writeDatasetExport(out: string, items: number): Promise<{ dir: string; files: number; ms: number }> {
  const started = performance.now();
  const partitions = Math.max(8, Math.ceil(items / 125_000));
  const writer = new ExportWriter({
    out,
    keys: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } },
    tableArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/bench_accounts',
    partitions,
  });
  await writer.start();
  for (const chunk of datasetChunks(items)) await writer.add(chunk);
  const written = await writer.finish();
  return { dir: written.dir, files: partitions, ms: performance.now() - started };
}

/** The export to measure: generated into the run's folder, or kept under LOCKSMITH_BENCH_EXPORT_CACHE and reused. */
async function benchDataset(work: string, items: number, log: (line: string) => void): Promise<{ dir: string; files: number; ms: number }> {
  const keep = process.env.LOCKSMITH_BENCH_EXPORT_CACHE;
  const root = keep ? join(keep, `export-${items}`) : join(work, 'export');
  const done = join(root, 'bench-export.json');
  if (keep && existsSync(done)) {
    const kept = JSON.parse(readFileSync(done, 'utf8')) as { dir: string; files: number; ms: number };
    log(`  reusing the export in ${root} (LOCKSMITH_BENCH_EXPORT_CACHE)`);
    return kept;
  }
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const written = await writeDatasetExport(root, items);
  // Written last: a folder without it is a generation that did not finish, written again next time.
  if (keep) writeFileSync(done, JSON.stringify(written));
  return written;
}

/** The measured processes of one run. */
type Variant = 'audit' | 'parse' | 'bare' | 'columns';

const VARIANT_TEXT: Record<Variant, string> = {
  audit: 'export audit',
  parse: 'Node gunzip + JSON.parse',
  bare: 'DuckDB count(*)',
  columns: 'DuckDB count of the loaded columns',
};

/** Seconds and CPU of a sample, as a log line's tail. */
const sampleText = (s: ChildSample): string =>
  `${(s.ms / 1000).toFixed(2)} s (CPU ${(s.cpuMs / 1000).toFixed(2)} s), peak RSS ${(s.peakRssBytes / 2 ** 20).toFixed(0)} MiB`;

/** Generates the export (or reuses a kept one) and measures the audit and its baselines, interleaved, `runs` times each. */
export async function benchExport(items: number, runs: number, log: (line: string) => void): Promise<ExportFigures> {
  const work = mkdtempSync(join(tmpdir(), 'locksmith-export-bench-'));
  try {
    const plan = planDataset(items);
    const { dir, files, ms: writeMs } = await benchDataset(work, items, log);
    const exportBytes = folderBytes(dir);
    log(
      `  the export: ${plan.items.toLocaleString('en-US')} items, ${files} files, ${(exportBytes / 1e6).toFixed(1)} MB, written in ${(writeMs / 1000).toFixed(1)} s`,
    );
    const samples: Record<Variant, ChildSample[]> = { audit: [], parse: [], bare: [], columns: [] };
    const count = await bundleDuckCount();
    const measure: Record<Variant, (run: number) => Promise<ChildSample>> = {
      audit: async (run) => {
        const cache = join(work, `data${run}`);
        try {
          const a = await runChild([BIN, 'audit', '--export', dir, '--preset', 'uniq', '--json'], { LOCKSMITH_DATA_DIR: cache }, cache);
          const report = JSON.parse(a.stdout) as AuditReport;
          const got = { scanned: report.scanned, accounts: report.accounts, locks: report.locks, summary: report.summary };
          const want = { scanned: plan.items, accounts: plan.accounts, locks: plan.locks, summary: plan.summary };
          if (JSON.stringify(got) !== JSON.stringify(want))
            throw new Error(`the export audit found ${JSON.stringify(got)}, the generator planted ${JSON.stringify(want)}`);
          return a;
        } finally {
          rmSync(cache, { recursive: true, force: true });
        }
      },
      parse: async () => {
        const p = await runChild([PARSE, dir], {}, undefined);
        if (Number(p.stdout.trim()) !== plan.items)
          throw new Error(`the plain parse read ${p.stdout.trim()} items, expected ${plan.items}`);
        return p;
      },
      bare: (run) => duckCount(count, work, dir, 'bare', run, plan.items),
      columns: (run) => duckCount(count, work, dir, 'columns', run, plan.items),
    };
    for (let run = 0; run < runs; run++) {
      for (const variant of interleave<Variant>(['audit', 'parse', 'bare', 'columns'], run)) {
        const sample = await measure[variant](run);
        samples[variant].push({ ...sample, stdout: '' });
        log(`  run ${run + 1}/${runs} ${VARIANT_TEXT[variant]}: ${sampleText(sample)}`);
      }
      const last = (v: Variant): ChildSample => samples[v][run]!;
      log(
        `  run ${run + 1}/${runs} export audit ÷ plain parse ${ratio(last('audit').ms, last('parse').ms).toFixed(2)}× (CPU ${ratio(last('audit').cpuMs, last('parse').cpuMs).toFixed(2)}×), ÷ DuckDB count(*) ${ratio(last('audit').ms, last('bare').ms).toFixed(2)}× (CPU ${ratio(last('audit').cpuMs, last('bare').cpuMs).toFixed(2)}×)`,
      );
    }
    return {
      items: plan.items,
      files,
      exportBytes,
      writeMs,
      count: samples.bare,
      countColumns: samples.columns,
      parse: samples.parse,
      audit: samples.audit,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(join(COUNT_BUNDLE_DIR, `duck-count-${process.pid}.mjs`), { force: true });
  }
}

/** duck-count.ts as one ES module of plain JavaScript (esbuild, dependencies external); returns its path. */
async function bundleDuckCount(): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(COUNT_BUNDLE_DIR, `duck-count-${process.pid}.mjs`);
  await build({
    entryPoints: [COUNT],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}

/** One DuckDB baseline process over the export (the bundled duck-count.ts), checked to count every item. */
async function duckCount(
  count: string,
  work: string,
  dir: string,
  mode: 'bare' | 'columns',
  run: number,
  items: number,
): Promise<ChildSample> {
  const countDir = join(work, `count-${mode}${run}`);
  try {
    const c = await runChild([count, dir, join(countDir, 'count.duckdb'), mode], {}, countDir);
    if (Number(c.stdout.trim()) !== items) throw new Error(`DuckDB counted ${c.stdout.trim()} items, expected ${items}`);
    return c;
  } finally {
    rmSync(countDir, { recursive: true, force: true });
  }
}

/** Medians and ratios of an export bench (wall and CPU, against each baseline), with the 100M extrapolation labelled as such. */
export function summarizeExport(
  f: ExportFigures,
  liveCli?: { ms: number; peakRssBytes: number; items: number },
): Record<string, string | number> {
  const m = (xs: readonly number[]): number => median(xs);
  const wall = (xs: readonly ChildSample[]): number => m(xs.map((s) => s.ms));
  const cpu = (xs: readonly ChildSample[]): number => m(xs.map((s) => s.cpuMs));
  const rss = (xs: readonly ChildSample[]): number => Math.round(m(xs.map((s) => s.peakRssBytes)) / 2 ** 20);
  const round2 = (x: number): number => Math.round(x * 100) / 100;
  const seconds = (ms: number): number => Math.round(ms) / 1000;
  const auditMs = wall(f.audit);
  const out: Record<string, string | number> = {
    items: f.items,
    files: f.files,
    exportMB: Math.round(f.exportBytes / 1e5) / 10,
    auditSeconds: seconds(auditMs),
    auditCpuSeconds: seconds(cpu(f.audit)),
    auditItemsPerSecond: Math.round(itemsPerSecond(f.items, auditMs)),
    auditPeakRssMiB: rss(f.audit),
    auditPeakDiskMiB: Math.round(m(f.audit.map((s) => s.peakDiskBytes)) / 2 ** 20),
    parseSeconds: seconds(wall(f.parse)),
    parseCpuSeconds: seconds(cpu(f.parse)),
    parsePeakRssMiB: rss(f.parse),
    auditVsParse: round2(ratio(auditMs, wall(f.parse))),
    auditVsParseCpu: round2(ratio(cpu(f.audit), cpu(f.parse))),
    countSeconds: seconds(wall(f.count)),
    countCpuSeconds: seconds(cpu(f.count)),
    countPeakRssMiB: rss(f.count),
    auditVsCount: round2(ratio(auditMs, wall(f.count))),
    auditVsCountCpu: round2(ratio(cpu(f.audit), cpu(f.count))),
    countColumnsSeconds: seconds(wall(f.countColumns)),
    auditVsCountColumns: round2(ratio(auditMs, wall(f.countColumns))),
    targets: `audit ≤ 1.0× the plain parse: ${ratio(auditMs, wall(f.parse)) <= 1 ? 'met' : 'missed'}; ≤ 1.5× DuckDB's bare read: ${ratio(auditMs, wall(f.count)) <= 1.5 ? 'met' : 'missed'}; peak RSS ≤ 1 GiB: ${rss(f.audit) <= 1024 ? 'met' : 'missed'}`,
    extrapolated100MMinutes: `${Math.round(((auditMs / f.items) * 1e8) / 60_000)} (extrapolated linearly, not measured)`,
  };
  if (liveCli && liveCli.items === f.items) {
    out.liveCliSeconds = Math.round(liveCli.ms) / 1000;
    out.liveCliPeakRssMiB = Math.round(liveCli.peakRssBytes / 2 ** 20);
    out.auditVsLiveCli = Math.round(ratio(auditMs, liveCli.ms) * 100) / 100;
  }
  return out;
}
