/**
 * `locksmith --help` as a whole process, started cold as a user starts it: from the bundle and from
 * the sources through tsx, against `node -e 0`, the machine's floor for starting Node. Variants
 * rotate within each round; medians and the per-round differences.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMs, formatRatio, interleave, median, ratio } from './stats';

const BIN = fileURLToPath(new URL('../bin/locksmith', import.meta.url));
const RSS_HOOK = fileURLToPath(new URL('./rss-hook.mjs', import.meta.url));

/** The start-up variants. */
type StartupVariant = 'node' | 'bundle' | 'tsx';

/**
 * Per-run wall times (ms) of the start-up variants, same index = same run: `node -e 0` (the floor),
 * `locksmith --help` from the fresh bundle, and from the sources through tsx (LOCKSMITH_CLI_BUNDLE=off,
 * what every run paid before); with each process's own CPU time (user + system), which a loaded
 * machine inflates far less than wall time.
 */
export type StartupRuns = Record<StartupVariant | `${StartupVariant}Cpu`, number[]>;

/** Wall time of one whole process (spawn to exit) and its CPU time (the same hook in every variant), failing on a non-zero exit. */
export async function timeProcess(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; cpuMs: number }> {
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

const pairwise = (a: readonly number[], b: readonly number[]): number[] => a.map((x, i) => ratio(x, b[i] ?? Number.NaN));

/** Medians of the start-up rounds, and the per-round differences from the floor. */
export function summarizeStartup(startup: StartupRuns): Record<string, number> {
  return {
    startupRuns: startup.node.length,
    nodeFloorMs: median(startup.node),
    helpBundleMs: median(startup.bundle),
    helpTsxMs: median(startup.tsx),
    helpBundleOverFloorMs: median(startup.bundle.map((b, i) => b - (startup.node[i] ?? Number.NaN))),
    helpTsxVsBundle: median(pairwise(startup.tsx, startup.bundle)),
    nodeFloorCpuMs: median(startup.nodeCpu),
    helpBundleCpuMs: median(startup.bundleCpu),
    helpTsxCpuMs: median(startup.tsxCpu),
  };
}

/** The terminal / docs line of {@link summarizeStartup}. */
export function startupLine(s: Record<string, number>): string {
  const ms = (key: string): string => formatMs(s[key] ?? Number.NaN);
  const help = s.helpBundleMs ?? Number.NaN;
  const over = s.helpBundleOverFloorMs ?? Number.NaN;
  return `locksmith --help (bundle): ${formatMs(help)} median of ${s.startupRuns} (target ≤ 150 ms: ${help <= 150 ? 'met' : 'MISSED'}); node -e 0 floor ${ms('nodeFloorMs')}, ${over < 0 ? '−' : '+'}${formatMs(Math.abs(over))} over it (median of the per-round differences); from the sources through tsx ${ms('helpTsxMs')} (${formatRatio(s.helpTsxVsBundle ?? Number.NaN)} the bundle). Process CPU time (user + system): node -e 0 ${ms('nodeFloorCpuMs')}, bundle ${ms('helpBundleCpuMs')}, tsx ${ms('helpTsxCpuMs')}`;
}
