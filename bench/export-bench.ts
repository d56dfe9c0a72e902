/**
 * The export benchmark: a generated export of the bench dataset (same generator, same planted
 * problems as the live table), audited by `locksmith audit --export` (DuckDB in a child process),
 * against DuckDB reading the same files with no checks in the same run: the bare `SELECT count(*)`
 * (the baseline) and a count of every column the audit loads (each one extracted). Reports
 * wall time, items/s, peak RSS of the whole process tree (sampled from /proc) and disk used.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuditReport } from '../shared/audit/types';
import { ExportWriter } from '../electron/services/export/write-export';
import { datasetChunks, planDataset } from './dataset';
import { folderBytes, sampleTree } from './process-tree';
import { itemsPerSecond, median, ratio } from './stats';

const BIN = fileURLToPath(new URL('../bin/locksmith', import.meta.url));
const COUNT = fileURLToPath(new URL('./duck-count.ts', import.meta.url));

/** One measured child run. */
export interface ChildSample {
  readonly ms: number;
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
  readonly audit: readonly ChildSample[];
}

async function runChild(args: readonly string[], env: NodeJS.ProcessEnv, watchDir: string | undefined): Promise<ChildSample> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const sampler = sampleTree(child.pid!, watchDir);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.once('error', reject);
    child.once('close', (code) => {
      const peaks = sampler.stop();
      const ms = performance.now() - started;
      // Exit 1 = complete with problems, which the dataset has on purpose.
      if (code !== 0 && code !== 1)
        reject(new Error(`${args.join(' ')} exited ${String(code)}: ${Buffer.concat(err).toString('utf8').trim().slice(-500)}`));
      else resolve({ ms, ...peaks, stdout: Buffer.concat(out).toString('utf8') });
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

/** Generates the export and measures the audit and the bare DuckDB read, interleaved, `runs` times each. */
export async function benchExport(items: number, runs: number, log: (line: string) => void): Promise<ExportFigures> {
  const work = mkdtempSync(join(tmpdir(), 'locksmith-export-bench-'));
  try {
    const plan = planDataset(items);
    const { dir, files, ms: writeMs } = await writeDatasetExport(join(work, 'export'), items);
    const exportBytes = folderBytes(dir);
    log(
      `  wrote the export: ${plan.items.toLocaleString('en-US')} items, ${files} files, ${(exportBytes / 1e6).toFixed(1)} MB in ${(writeMs / 1000).toFixed(1)} s`,
    );
    const count: ChildSample[] = [];
    const countColumns: ChildSample[] = [];
    const audit: ChildSample[] = [];
    for (let run = 0; run < runs; run++) {
      const cache = join(work, `data${run}`);
      const a = await runChild([BIN, 'audit', '--export', dir, '--preset', 'uniq', '--json'], { LOCKSMITH_DATA_DIR: cache }, cache);
      const report = JSON.parse(a.stdout) as AuditReport;
      const got = { scanned: report.scanned, accounts: report.accounts, locks: report.locks, summary: report.summary };
      const want = { scanned: plan.items, accounts: plan.accounts, locks: plan.locks, summary: plan.summary };
      if (JSON.stringify(got) !== JSON.stringify(want))
        throw new Error(`the export audit found ${JSON.stringify(got)}, the generator planted ${JSON.stringify(want)}`);
      audit.push({ ...a, stdout: '' });
      log(
        `  run ${run + 1}/${runs} export audit: ${(a.ms / 1000).toFixed(2)} s, peak RSS ${(a.peakRssBytes / 2 ** 20).toFixed(0)} MiB, disk ${(a.peakDiskBytes / 2 ** 20).toFixed(0)} MiB`,
      );
      for (const mode of ['bare', 'columns'] as const) {
        const countDir = join(work, `count-${mode}${run}`);
        const c = await runChild(['--import', 'tsx', COUNT, dir, join(countDir, 'count.duckdb'), mode], {}, countDir);
        if (Number(c.stdout.trim()) !== plan.items) throw new Error(`DuckDB counted ${c.stdout.trim()} items, expected ${plan.items}`);
        (mode === 'bare' ? count : countColumns).push({ ...c, stdout: '' });
        log(
          `  run ${run + 1}/${runs} DuckDB ${mode === 'bare' ? 'count(*)' : 'count of the loaded columns'}: ${(c.ms / 1000).toFixed(2)} s, peak RSS ${(c.peakRssBytes / 2 ** 20).toFixed(0)} MiB`,
        );
        rmSync(countDir, { recursive: true, force: true });
      }
      rmSync(cache, { recursive: true, force: true });
    }
    return { items: plan.items, files, exportBytes, writeMs, count, countColumns, audit };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Medians and ratios of an export bench, with the 100M extrapolation labelled as such. */
export function summarizeExport(
  f: ExportFigures,
  liveCli?: { ms: number; peakRssBytes: number; items: number },
): Record<string, string | number> {
  const m = (xs: readonly number[]): number => median(xs);
  const auditMs = m(f.audit.map((s) => s.ms));
  const countMs = m(f.count.map((s) => s.ms));
  const columnsMs = m(f.countColumns.map((s) => s.ms));
  const out: Record<string, string | number> = {
    items: f.items,
    files: f.files,
    exportMB: Math.round(f.exportBytes / 1e5) / 10,
    auditSeconds: Math.round(auditMs) / 1000,
    auditItemsPerSecond: Math.round(itemsPerSecond(f.items, auditMs)),
    auditPeakRssMiB: Math.round(m(f.audit.map((s) => s.peakRssBytes)) / 2 ** 20),
    auditPeakDiskMiB: Math.round(m(f.audit.map((s) => s.peakDiskBytes)) / 2 ** 20),
    countSeconds: Math.round(countMs) / 1000,
    countPeakRssMiB: Math.round(m(f.count.map((s) => s.peakRssBytes)) / 2 ** 20),
    auditVsCount: Math.round(ratio(auditMs, countMs) * 100) / 100,
    countColumnsSeconds: Math.round(columnsMs) / 1000,
    auditVsCountColumns: Math.round(ratio(auditMs, columnsMs) * 100) / 100,
    extrapolated100MMinutes: `${Math.round(((auditMs / f.items) * 1e8) / 60_000)} (extrapolated linearly, not measured)`,
  };
  if (liveCli && liveCli.items === f.items) {
    out.liveCliSeconds = Math.round(liveCli.ms) / 1000;
    out.liveCliPeakRssMiB = Math.round(liveCli.peakRssBytes / 2 ** 20);
    out.auditVsLiveCli = Math.round(ratio(auditMs, liveCli.ms) * 100) / 100;
  }
  return out;
}
