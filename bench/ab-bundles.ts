/**
 * `npx tsx bench/ab-bundles.ts <endpoint> <table> <runs> <name=cacheDir>…`: the whole-process CLI audit
 * from two or more builds of the CLI bundle (each built with `LOCKSMITH_CLI_CACHE=<dir> node
 * bin/build-cli.mjs` from a variant of the sources), interleaved, against DynamoDB Local directly and
 * through the latency model in front of it: median wall time, process CPU and peak RSS of each. For
 * deciding whether a start-up or memory measure pays: one build with it, one without.
 * Each variant keeps its own data folder (filled by one unmeasured audit first), as a user's repeat audit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AWS_MODEL, startLatencyModel } from './latency-model';
import { auditCli } from './scan-bench';
import { formatMs, interleave, median } from './stats';

const [endpoint, table, runsText, ...specs] = process.argv.slice(2);
if (!endpoint || !table || !runsText || specs.length < 2)
  throw new Error('usage: ab-bundles.ts <endpoint> <table> <runs> <name=cacheDir>…');
const variants = specs.map((spec) => {
  const [name, dir] = spec.split('=');
  if (!name || !dir) throw new Error(`not name=cacheDir: ${spec}`);
  return { name, env: { LOCKSMITH_CLI_CACHE: dir } };
});
const model = await startLatencyModel(endpoint, AWS_MODEL, { describe: [table] });
try {
  for (const [way, url] of [
    ['direct', endpoint],
    ['model', model.endpoint],
  ] as const) {
    const dirs = new Map(variants.map((v) => [v.name, mkdtempSync(join(tmpdir(), `locksmith-ab-${v.name}-`))]));
    const out = new Map(variants.map((v) => [v.name, { ms: [] as number[], cpu: [] as number[], rss: [] as number[] }]));
    for (const v of variants) await auditCli(url, table, 4, dirs.get(v.name), v.env);
    for (let run = 0; run < Number(runsText); run++) {
      for (const v of interleave(variants, run)) {
        const s = await auditCli(url, table, 4, dirs.get(v.name), v.env);
        const o = out.get(v.name)!;
        o.ms.push(s.ms);
        o.cpu.push(s.cpuMs);
        o.rss.push(s.peakRssBytes ?? Number.NaN);
      }
    }
    for (const [name, o] of out)
      process.stdout.write(
        `${way} ${name}: wall ${formatMs(median(o.ms))} (${o.ms.map((m) => formatMs(m)).join(', ')}), CPU ${formatMs(median(o.cpu))}, peak RSS ${(median(o.rss) / 1048576).toFixed(0)} MiB\n`,
      );
    for (const dir of dirs.values()) rmSync(dir, { recursive: true, force: true });
  }
} finally {
  await model.stop();
}
