/**
 * `node --expose-gc --import tsx bench/memory-probe.ts <endpoint> [table]`: one in-process audit
 * (as the CLI runs it) against a running endpoint (see bench/hold-table.ts), printing RSS and heap
 * before, at peak (sampled every 20 ms) and after a forced GC, in MiB. For finding where memory goes.
 */
import { runAudit } from '../electron/services/audit/run-audit';
import { createDynamoClient } from '../electron/services/dynamo/client';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../shared/conventions/presets';
const convention = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);
const client = createDynamoClient({ label: 'x', endpoint: process.argv[2]!, region: 'us-east-1' });
const gc = (globalThis as { gc?: () => void }).gc!;
gc();
const base = process.memoryUsage();
let peakRss = 0,
  peakHeap = 0;
const timer = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 20);
const run = await runAudit({ client, table: process.argv[3] ?? 'bench_accounts', convention, segments: 4 });
clearInterval(timer);
const end = process.memoryUsage();
gc();
const after = process.memoryUsage();
const mb = (n: number) => (n / 1048576).toFixed(1);
console.log(
  JSON.stringify({
    scanned: run.report.scanned,
    baseRss: mb(base.rss),
    baseHeap: mb(base.heapUsed),
    peakRss: mb(peakRss),
    peakHeap: mb(peakHeap),
    endHeap: mb(end.heapUsed),
    heapAfterGc: mb(after.heapUsed),
    rssAfterGc: mb(after.rss),
    external: mb(after.external),
    ab: mb(after.arrayBuffers),
  }),
);
client.destroy();
