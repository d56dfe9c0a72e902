/**
 * `node --expose-gc --import tsx bench/engine-probe.ts [items] [--deltas]`: the audit engine alone on generated
 * pages (JSON round-tripped like the SDK's, 4,000 items each, no I/O): CPU per item and the heap it
 * retains per item after a forced GC. For iterating on the engine; `npm run bench` has the figures.
 * `--deltas`: as the app runs it (electron/services/audit/run-audit.ts), tracking deltas and taking them
 * in bounded messages after every four pages, then settled at the end.
 */
import { AuditEngine } from '../shared/audit/engine';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../shared/conventions/presets';
import type { Item } from '../shared/model';
import { datasetChunks, planDataset } from './dataset';
import { STREAM_ROWS_PER_DELTA } from '../electron/services/audit/run-audit';

const items = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 200_000);
const deltas = process.argv.includes('--deltas');
const convention = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);
const gc = (globalThis as { gc?: () => void }).gc;
const pages: Item[][] = [];
const all: Item[] = [];
for (const chunk of datasetChunks(items, 20_000))
  for (const i of chunk)
    all.push({ PK: i.PK!, SK: i.SK!, ...(i.email ? { email: i.email } : {}), ...(i.username ? { username: i.username } : {}) });
// Scan order is hash order, not slot order: shuffle (deterministically) so the join is probed as a real scan probes it.
let seed = 1;
for (let i = all.length - 1; i > 0; i--) {
  seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
  const j = seed % (i + 1);
  [all[i], all[j]] = [all[j]!, all[i]!];
}
for (let i = 0; i < all.length; i += 4_000) pages.push(JSON.parse(JSON.stringify(all.slice(i, i + 4_000))) as Item[]);
all.length = 0;
gc?.();
const cpu = process.cpuUsage();
const started = performance.now();
let engine: AuditEngine | undefined = new AuditEngine(convention, { trackDeltas: deltas });
let rowsSent = 0;
const takeDeltas = (settled: boolean): void => {
  let taken: number;
  do {
    taken = engine!.takeDelta(STREAM_ROWS_PER_DELTA, settled).upserted.length;
    rowsSent += taken;
  } while (taken >= STREAM_ROWS_PER_DELTA);
};
// Pages are dropped as they are fed, as a scan's are.
for (let i = 0; i < pages.length; i++) {
  engine.addItems(pages[i]!);
  pages[i] = [];
  if (deltas && i % 4 === 3) takeDeltas(false);
}
if (deltas) takeDeltas(true);
const report = engine.report({ table: 't', complete: true });
const problems = report.problems.length;
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
gc?.();
const withEngine = process.memoryUsage().heapUsed;
engine = undefined;
gc?.();
const retained = withEngine - process.memoryUsage().heapUsed;
const plan = planDataset(items);
const ok = report.scanned === plan.items && JSON.stringify(report.summary) === JSON.stringify(plan.summary);
process.stdout.write(
  `${JSON.stringify({ items: report.scanned, ok, ms: Math.round(ms), cpuUsPerItem: +((used.user + used.system) / report.scanned).toFixed(2), retainedBytesPerItem: gc ? Math.round(retained / report.scanned) : undefined, problems, ...(deltas ? { rowsSent } : {}), engineAlive: engine === undefined ? 'freed' : 'kept' })}\n`,
);
