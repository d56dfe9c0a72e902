/**
 * A/B of builds of the CLI, interleaved, for deciding whether a start-up or memory measure pays: one build
 * with it, one without. A variant is `name=<dir>`: a cache folder of this checkout's bundle (built with
 * `LOCKSMITH_CLI_CACHE=<dir> node bin/build-cli.mjs` from a variant of the sources or of the build), or
 * another checkout (a folder holding bin/locksmith), which starts from its own bundle.
 *   `npx tsx bench/ab-bundles.ts <endpoint> <table> <runs> <name=dir>… [--first]`: the whole-process CLI
 *     audit against DynamoDB Local directly and through the latency model in front of it: median wall time,
 *     process CPU and peak RSS of each. Each variant keeps its own data folder (filled by one unmeasured audit
 *     first), as a user's repeat audit; with --first every run has a fresh data folder (a user's first audit),
 *     and through the model the time from spawn to the audit's first full Scan is reported too.
 *   `npx tsx bench/ab-bundles.ts help <runs> <name=dir>…`: `locksmith --help` and `locksmith audit --help` from each
 *     build against `node -e 0` (the floor for starting Node): wall, CPU, and the median per-round difference from the floor.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AWS_MODEL, startLatencyModel } from './latency-model';
import { auditCli } from './scan-bench';
import { timeProcess } from './startup-bench';
import { formatMs, interleave, median } from './stats';

const OWN_BIN = fileURLToPath(new URL('../bin/locksmith', import.meta.url));

/** One build under test: the launcher to start and the environment that points it at its bundle. */
interface Variant {
  readonly name: string;
  readonly bin: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cache: string;
}

/** Per-variant figures of one way. */
interface Figures {
  readonly ms: number[];
  readonly cpu: number[];
  readonly rss: number[];
  readonly scanAt: number[];
}

const argv = process.argv.slice(2);
const first = argv.includes('--first');
const positional = argv.filter((a) => a !== '--first');
const helpMode = positional[0] === 'help';
const [endpoint, table] = helpMode ? [] : positional;
const [runsText, ...specs] = positional.slice(helpMode ? 1 : 2);
if ((!helpMode && (!endpoint || !table)) || !runsText || specs.length < 2)
  throw new Error('usage: ab-bundles.ts <endpoint> <table> <runs> <name=dir>… [--first] | ab-bundles.ts help <runs> <name=dir>…');
const runs = Number(runsText);
const variants: Variant[] = specs.map((spec) => {
  const [name, dir] = spec.split('=');
  if (!name || !dir) throw new Error(`not name=dir: ${spec}`);
  const checkout = join(dir, 'bin', 'locksmith');
  if (!existsSync(checkout)) return { name, bin: OWN_BIN, env: { LOCKSMITH_CLI_CACHE: resolve(dir) }, cache: resolve(dir) };
  const cache = resolve(dir, '.cache', 'cli');
  return { name, bin: resolve(checkout), env: { LOCKSMITH_CLI_CACHE: cache }, cache };
});

/** Fails unless `v` starts from its own bundle: a source edited after the build would run through tsx instead. */
async function checkLaunch(v: Variant): Promise<void> {
  const stderr = await new Promise<string>((done) =>
    execFile(process.execPath, [v.bin, '--help'], { env: { ...process.env, ...v.env, LOCKSMITH_TRACE_LAUNCH: '1' } }, (_e, _o, err) =>
      done(err),
    ),
  );
  if (!stderr.startsWith(`locksmith launch: bundle ${v.cache}/`))
    throw new Error(`${v.name} did not start from its bundle: ${stderr.trim()}`);
}

const loads: number[] = [];
const line = (way: string, name: string, o: Figures): string =>
  `${way} ${name}: wall ${formatMs(median(o.ms))} (${o.ms.map((m) => formatMs(m)).join(', ')}), CPU ${formatMs(median(o.cpu))} (${o.cpu.map((m) => formatMs(m)).join(', ')})` +
  (o.rss.length ? `, peak RSS ${(median(o.rss) / 1048576).toFixed(0)} MiB` : '') +
  (o.scanAt.length ? `, first full Scan ${formatMs(median(o.scanAt))} after spawn (${o.scanAt.map((m) => formatMs(m)).join(', ')})` : '');
const emptyFigures = (): Figures => ({ ms: [], cpu: [], rss: [], scanAt: [] });

/** The median per-round difference of `o` from `base` and in how many rounds `o` was lower, for each measure both have. */
function paired(o: Figures, base: Figures): string {
  const measures = [
    ['wall', o.ms, base.ms],
    ['CPU', o.cpu, base.cpu],
    ['first full Scan', o.scanAt, base.scanAt],
  ] as const;
  return measures
    .filter(([, a]) => a.length > 0)
    .map(([label, a, b]) => {
      const d = a.map((x, i) => x - b[i]!);
      const m = median(d);
      return `${label} ${m < 0 ? '−' : '+'}${formatMs(Math.abs(m))} (lower in ${d.filter((x) => x < 0).length} of ${d.length})`;
    })
    .join(', ');
}

/** What help mode starts: the top-level help (the registry alone) and a command's (its module loaded, nothing it runs). */
const HELP_ARGS: readonly (readonly string[])[] = [['--help'], ['audit', '--help']];

/** `node -e 0`, then `locksmith --help` and `locksmith audit --help` of each variant, `runs` interleaved rounds. */
async function helpAb(): Promise<void> {
  const cases = [
    { name: 'node -e 0', args: ['-e', '0'], env: process.env },
    ...HELP_ARGS.flatMap((args) =>
      variants.map((v) => ({ name: `${v.name} ${args.join(' ')}`, args: [v.bin, ...args], env: { ...process.env, ...v.env } })),
    ),
  ];
  const out = new Map(cases.map((c) => [c.name, emptyFigures()]));
  for (let run = 0; run < runs; run++) {
    loads.push(loadavg()[0] ?? Number.NaN);
    for (const c of interleave(cases, run)) {
      const s = await timeProcess(c.args, c.env);
      out.get(c.name)!.ms.push(s.ms);
      out.get(c.name)!.cpu.push(s.cpuMs);
    }
  }
  const floor = out.get('node -e 0')!;
  for (const [name, o] of out) {
    const over =
      o === floor
        ? ''
        : `; over the floor: wall +${formatMs(median(o.ms.map((m, i) => m - floor.ms[i]!)))}, CPU +${formatMs(median(o.cpu.map((m, i) => m - floor.cpu[i]!)))} (median per round)`;
    process.stdout.write(`${line('help', name, o)}${over}\n`);
  }
}

/** The audit of each variant, `runs` interleaved rounds, directly and through the model. */
async function auditAb(url: string, table: string): Promise<void> {
  const model = await startLatencyModel(url, AWS_MODEL, { describe: [table], trace: first });
  try {
    for (const [way, at] of [
      ['direct', url],
      ['model', model.endpoint],
    ] as const) {
      const dirs = new Map(variants.map((v) => [v.name, mkdtempSync(join(tmpdir(), `locksmith-ab-${v.name}-`))]));
      const out = new Map(variants.map((v) => [v.name, emptyFigures()]));
      if (!first) for (const v of variants) await auditCli(at, table, 4, dirs.get(v.name), v.env, v.bin);
      for (let run = 0; run < runs; run++) {
        loads.push(loadavg()[0] ?? Number.NaN);
        for (const v of interleave(variants, run)) {
          model.stats.trace.length = 0;
          const spawned = performance.now();
          const s = await auditCli(at, table, 4, first ? undefined : dirs.get(v.name), v.env, v.bin);
          const o = out.get(v.name)!;
          o.ms.push(s.ms);
          o.cpu.push(s.cpuMs);
          o.rss.push(s.peakRssBytes ?? Number.NaN);
          const scan = model.stats.trace.find((e) => e.operation === 'Scan' && !e.limited);
          if (first && way === 'model') o.scanAt.push((scan?.at ?? Number.NaN) - spawned);
        }
      }
      for (const [name, o] of out) process.stdout.write(`${line(way, name, o)}\n`);
      const base = out.get(variants[0]!.name)!;
      for (const [name, o] of [...out].slice(1))
        process.stdout.write(`${way} ${name} − ${variants[0]!.name}, per round: ${paired(o, base)}\n`);
      for (const dir of dirs.values()) rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await model.stop();
  }
}

for (const v of variants) await checkLaunch(v);
if (helpMode) await helpAb();
else await auditAb(endpoint!, table!);
for (const v of variants) await checkLaunch(v);
process.stdout.write(`${runs} rounds; 1-minute load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}\n`);
