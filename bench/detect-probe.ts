/**
 * `npx tsx bench/detect-probe.ts [--cold N] [--warm N] [--only a,b] [--preset p] [--tree name=dir …]`: convention
 * detection alone on 2,000-item samples (bench/detect-samples.ts), no I/O. Each measurement is a fresh
 * process: the first `detectConvention` call in it (cold: what a CLI's first audit and the app's
 * first survey pay, lazy compilation included), then the median of `--warm` more calls (warm), wall and
 * CPU. With several `--tree`s (checkouts of the repository, e.g. `git archive` of a base commit) the
 * trees are measured interleaved, A B A B…, on the same samples. For a CPU profile of one sample:
 * `node --cpu-prof --import tsx bench/detect-probe.ts --loop <sample> [calls]`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { detectConvention as Detect, DetectOptions } from '../shared/conventions/detect';
import type { PresetName } from '../shared/model';
import { detectSamples, type DetectSample } from './detect-samples';
import { formatMs, interleave, median, textTable } from './stats';

/** One process's figures for one sample. */
interface Measured {
  readonly sample: string;
  readonly importMs: number;
  readonly coldMs: number;
  readonly coldCpuMs: number;
  readonly warmMs: number;
  readonly warmCpuMs: number;
}

const here = resolve(import.meta.dirname, '..');
const { values, positionals } = parseArgs({
  options: {
    cold: { type: 'string', default: '5' },
    warm: { type: 'string', default: '20' },
    only: { type: 'string' },
    tree: { type: 'string', multiple: true },
    child: { type: 'string' },
    samples: { type: 'string' },
    loop: { type: 'string' },
    preset: { type: 'string' },
  },
  allowPositionals: true,
});

/** `--preset`: detection forced to one preset's structure, as `locksmith audit --preset` asks it. */
const options: DetectOptions = values.preset === undefined ? {} : { preset: values.preset as PresetName };

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** Loads `detect.ts` of a tree: the module's own load is timed apart from the first call. */
async function loadDetect(root: string): Promise<{ detect: typeof Detect; importMs: number }> {
  const started = performance.now();
  const mod = (await import(pathToFileURL(join(root, 'shared/conventions/detect.ts')).href)) as { detectConvention: typeof Detect };
  return { detect: mod.detectConvention, importMs: performance.now() - started };
}

/** Child: one cold call, then `warm` timed calls, on one sample read from the parent's file. */
async function child(root: string, file: string, name: string, warm: number): Promise<void> {
  const sample = (JSON.parse(readFileSync(file, 'utf8')) as DetectSample[]).find((s) => s.name === name);
  if (!sample) throw new Error(`no sample ${name}`);
  const { detect, importMs } = await loadDetect(root);
  let cpu = process.cpuUsage();
  let started = performance.now();
  const first = detect(sample.keys, sample.items, options);
  const coldMs = performance.now() - started;
  const coldCpuMs = cpuMs(cpu);
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < warm; i++) {
    cpu = process.cpuUsage();
    started = performance.now();
    const again = detect(sample.keys, sample.items, options);
    walls.push(performance.now() - started);
    cpus.push(cpuMs(cpu));
    if (again.ok !== first.ok) throw new Error('detection changed between calls');
  }
  const out: Measured = { sample: name, importMs, coldMs, coldCpuMs, warmMs: median(walls), warmCpuMs: median(cpus) };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

/** Runs one child process to its single JSON line. */
function measure(root: string, file: string, name: string, warm: number): Promise<Measured> {
  return new Promise((done, fail) => {
    const args = [...process.execArgv, join(here, 'bench/detect-probe.ts'), '--child', root, '--samples', file, '--loop', name];
    const preset = values.preset === undefined ? [] : ['--preset', values.preset];
    const proc = spawn(process.execPath, [...args, '--warm', String(warm), ...preset], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('error', fail);
    proc.on('close', (code) => {
      if (code !== 0) fail(new Error(`probe child for ${name} exited ${code}`));
      else done(JSON.parse(out.trim().split('\n').pop() ?? '{}') as Measured);
    });
  });
}

/** Parent: samples to a file, then every (sample, tree) measured `cold` times, trees interleaved. */
async function parent(): Promise<void> {
  const trees = (values.tree ?? [`this=${here}`]).map((t) => {
    const at = t.indexOf('=');
    return at < 0 ? { name: t, root: resolve(t) } : { name: t.slice(0, at), root: resolve(t.slice(at + 1)) };
  });
  const only = values.only?.split(',');
  const samples = detectSamples().filter((s) => !only || only.includes(s.name));
  const dir = mkdtempSync(join(tmpdir(), 'locksmith-detect-probe-'));
  const file = join(dir, 'samples.json');
  writeFileSync(file, JSON.stringify(samples));
  const runs = Number(values.cold);
  const warm = Number(values.warm);
  const results = new Map<string, Measured[]>();
  try {
    for (let run = 0; run < runs; run++)
      for (const sample of samples)
        for (const tree of interleave(trees, run)) {
          const m = await measure(tree.root, file, sample.name, warm);
          const key = `${sample.name}\u0000${tree.name}`;
          results.set(key, [...(results.get(key) ?? []), m]);
        }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rows: string[][] = [];
  for (const sample of samples)
    for (const tree of trees) {
      const list = results.get(`${sample.name}\u0000${tree.name}`) ?? [];
      const med = (pick: (m: Measured) => number): string => formatMs(median(list.map(pick)));
      rows.push([
        sample.name,
        tree.name,
        med((m) => m.coldMs),
        med((m) => m.coldCpuMs),
        med((m) => m.warmMs),
        med((m) => m.warmCpuMs),
        med((m) => m.importMs),
      ]);
    }
  const header = ['sample', 'tree', 'cold wall', 'cold CPU', 'warm wall', 'warm CPU', 'import'];
  process.stdout.write(`${runs} processes per sample and tree, ${warm} warm calls each (medians)\n${textTable(header, rows)}\n`);
}

/** Profiling aid: one sample detected `calls` times in this process (no child). */
async function loop(name: string, calls: number): Promise<void> {
  const sample = detectSamples().find((s) => s.name === name);
  if (!sample)
    throw new Error(
      `no sample ${name}; samples: ${detectSamples()
        .map((s) => s.name)
        .join(', ')}`,
    );
  const { detect } = await loadDetect(here);
  const cpu = process.cpuUsage();
  for (let i = 0; i < calls; i++) detect(sample.keys, sample.items, options);
  process.stdout.write(`${name}: ${calls} calls, ${formatMs(cpuMs(cpu) / calls)} CPU each\n`);
}

if (values.child !== undefined) {
  if (!values.samples || !values.loop) throw new Error('--child needs --samples and --loop');
  await child(values.child, values.samples, values.loop, Number(values.warm));
} else if (values.loop !== undefined) await loop(values.loop, Number(positionals[0] ?? 50));
else await parent();
