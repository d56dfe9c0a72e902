/**
 * `npx tsx bench/start-trace.ts <endpoint> [runs]`: where the CLI audit's start goes, through the
 * latency model in front of a held table (bench/hold-table.ts). Three variants, interleaved: a first
 * audit (fresh data folder), again with the remembered convention forgotten, again with it remembered. For each:
 * when the audit's first full Scan reached the endpoint after the process was spawned, what was
 * asked before it, the whole process's wall and CPU time. The figures for keeping or removing the
 * start-up measures (docs/benchmarks.md, "Start-up measures through the model").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AWS_MODEL, startLatencyModel } from './latency-model';
import { auditCli } from './scan-bench';
import { formatMs, interleave, median } from './stats';

const TABLE = 'bench_accounts';
const [endpoint, runsText] = process.argv.slice(2);
if (!endpoint) throw new Error('usage: start-trace.ts <endpoint> [runs]');
const runs = Number(runsText ?? 5);
type Variant = 'first' | 'forgotten' | 'remembered';
const model = await startLatencyModel(endpoint, AWS_MODEL, { describe: [TABLE], trace: true });
const dirs = {
  forgotten: mkdtempSync(join(tmpdir(), 'locksmith-trace-forgotten-')),
  remembered: mkdtempSync(join(tmpdir(), 'locksmith-trace-remembered-')),
};
try {
  // Each remembering folder is filled by one unmeasured audit (a user's earlier one).
  for (const dir of Object.values(dirs)) await auditCli(model.endpoint, TABLE, 4, dir);
  const out = new Map<Variant, { scanAt: number[]; wall: number[]; cpu: number[]; asked: string }>();
  for (let run = 0; run < runs; run++) {
    for (const variant of interleave<Variant>(['first', 'forgotten', 'remembered'], run)) {
      if (variant === 'forgotten') rmSync(join(dirs.forgotten, 'cache', 'conventions.json'), { force: true });
      model.stats.trace.length = 0;
      const spawned = performance.now();
      const s = await auditCli(model.endpoint, TABLE, 4, variant === 'first' ? undefined : dirs[variant]);
      const first = model.stats.trace.find((e) => e.operation === 'Scan' && !e.limited)?.at ?? Number.NaN;
      const o = out.get(variant) ?? { scanAt: [], wall: [], cpu: [], asked: '' };
      o.scanAt.push(first - spawned);
      o.wall.push(s.ms);
      o.cpu.push(s.cpuMs);
      o.asked = model.stats.trace
        .filter((e) => e.at < first)
        .map((e) => `${e.operation}${e.limited ? ' (Limit)' : ''} +${Math.round(e.at - spawned)} ms`)
        .join(', ');
      out.set(variant, o);
    }
  }
  for (const [variant, o] of out)
    process.stdout.write(
      `${variant}: first full Scan ${formatMs(median(o.scanAt))} after spawn (${o.scanAt.map((m) => formatMs(m)).join(', ')}); wall ${formatMs(median(o.wall))}, CPU ${formatMs(median(o.cpu))}; asked before it (last run): ${o.asked}\n`,
    );
} finally {
  await model.stop();
  for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
}
