/**
 * Load: one `watch` kept running over a stream while cycles of transactions and break-and-fix
 * writes go by (a fixed 36 cycles: a loaded machine takes longer, it does not get a weaker test; the time cap only stops a run that hangs), in a child process with --expose-gc. Heap after GC
 * and active handles must not grow between the first and the last third; no problem stays open.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { recordFigures } from './figures';

const CHILD = fileURLToPath(new URL('./watch-soak-child.ts', import.meta.url));
/** A safety cap: a run that needs this long has hung, and fails on its cycle count. */
const DURATION_MS = Number(process.env.LOCKSMITH_WATCH_SOAK_MS ?? 420_000);
const CYCLES = 36;
const WARM_UP = 8;
const MAX_GROWTH = 2 * 1024 * 1024;

interface WatchSoakSummary {
  cycles: number;
  writes: number;
  events: number;
  elapsedMs: number;
  samples: { heap: number; handles: number; open: number }[];
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

describe('watch soak', () => {
  it(
    'one watch through many transactions and break-and-fix cycles: no growth in heap, handles or open problems',
    async () => {
      const endpoint = inject('dynamoEndpoint');
      const stdout = await new Promise<string>((resolve, reject) => {
        execFile(
          process.execPath,
          ['--expose-gc', '--import', 'tsx', CHILD, endpoint, String(DURATION_MS), String(CYCLES)],
          { env: { ...process.env, NODE_NO_WARNINGS: '1' }, maxBuffer: 16 * 1024 * 1024, timeout: DURATION_MS + 60_000 },
          (error, out, err) => (error ? reject(new Error(`watch soak child failed: ${error.message}\n${err}`)) : resolve(out)),
        );
      });
      const summary = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as WatchSoakSummary;
      expect(summary.cycles, `only ${summary.cycles} cycles in ${summary.elapsedMs} ms`).toBe(CYCLES);
      // Every cycle raises and resolves exactly its four problems (two orphans, each resolved): nothing else, nothing left open.
      expect(summary.events).toBe(1 + summary.cycles * 4);
      expect(Math.max(...summary.samples.map((s) => s.open))).toBe(0);
      const settled = summary.samples.slice(WARM_UP);
      const third = Math.floor(settled.length / 3);
      const first = settled.slice(0, third);
      const last = settled.slice(-third);
      const heapGrowth = mean(last.map((s) => s.heap)) - mean(first.map((s) => s.heap));
      // The floor, not the peak: a sample taken while the stream's poll (every 20 ms) is in flight counts its
      // socket and timers (4 resources idle, 8 in flight on this machine), so peaks differ by chance between
      // thirds (a fresh clone's CI saw +4); a leaked handle is in every sample after it leaks and raises the floor.
      const handleGrowth = Math.min(...last.map((s) => s.handles)) - Math.min(...first.map((s) => s.handles));
      expect(heapGrowth, `heap grew ${Math.round(heapGrowth / 1024)} KiB over ${summary.cycles} cycles`).toBeLessThan(MAX_GROWTH);
      expect(handleGrowth, `active resources per sample: ${summary.samples.map((s) => s.handles).join(' ')}`).toBeLessThanOrEqual(0);
      await recordFigures('watch-soak', {
        cycles: summary.cycles,
        writes: summary.writes,
        events: summary.events,
        seconds: Math.round(summary.elapsedMs / 1000),
        heapGrowthKiB: Math.round(heapGrowth / 1024),
        detectsLeakKiBPerCycle: Math.ceil(MAX_GROWTH / 1024 / Math.max(1, settled.length - third)),
        handleGrowth,
      });
    },
    DURATION_MS + 90_000,
  );
});
