/**
 * Load: a soak of a fixed number of cycles (audits, lookups and claim/release cycles through the
 * composed bridge), in a child process with --expose-gc. Heap after GC and active handles must not
 * grow between the first and the last third of the run. The count is fixed, not the time: a loaded
 * machine takes longer, it does not get a weaker test (the cap only stops a run that hangs).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FIGURES_DIR, recordFigures } from './figures';

const CHILD = fileURLToPath(new URL('./soak-child.ts', import.meta.url));
/** A safety cap: a run that needs this long has hung, and fails on its cycle count. */
const DURATION_MS = Number(process.env.LOCKSMITH_SOAK_MS ?? 480_000);
const CYCLES = 60;
const WARM_UP = 25;
const MAX_GROWTH = 2 * 1024 * 1024;

interface SoakSummary {
  cycles: number;
  transactions: number;
  audits: number;
  lookups: number;
  elapsedMs: number;
  items: number;
  samples: { heap: number; handles: number; kinds: string }[];
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

describe('soak', () => {
  it(
    'repeated audits and claim/release cycles: no growth in heap or open handles',
    async () => {
      const endpoint = inject('dynamoEndpoint');
      const stdout = await new Promise<string>((resolve, reject) => {
        execFile(
          process.execPath,
          ['--expose-gc', '--import', 'tsx', CHILD, endpoint, String(DURATION_MS), String(CYCLES)],
          { env: { ...process.env, NODE_NO_WARNINGS: '1' }, maxBuffer: 16 * 1024 * 1024, timeout: DURATION_MS + 60_000 },
          (error, out, err) => (error ? reject(new Error(`soak child failed: ${error.message}\n${err}`)) : resolve(out)),
        );
      });
      const summary = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as SoakSummary;
      // The whole series, for anyone who wants to look at the curve rather than two averages.
      await mkdir(FIGURES_DIR, { recursive: true });
      await writeFile(
        join(FIGURES_DIR, 'soak-samples.json.txt'),
        `${summary.samples.map((s) => `${s.heap}\t${s.handles}\t${s.kinds}`).join('\n')}\n`,
      );
      expect(summary.cycles, `only ${summary.cycles} cycles in ${summary.elapsedMs} ms`).toBe(CYCLES);
      // The bridge keeps the last 20 audit reports by design (audit.report): compare thirds only after that cache is full.
      const settled = summary.samples.slice(WARM_UP);
      const third = Math.floor(settled.length / 3);
      const first = settled.slice(0, third);
      const last = settled.slice(-third);
      const heapGrowth = mean(last.map((s) => s.heap)) - mean(first.map((s) => s.heap));
      const handleGrowth = Math.max(...last.map((s) => s.handles)) - Math.max(...first.map((s) => s.handles));
      expect(heapGrowth, `heap grew ${Math.round(heapGrowth / 1024)} KiB over ${summary.cycles} cycles`).toBeLessThan(MAX_GROWTH);
      expect(handleGrowth, `handles: ${first[0]?.kinds} → ${last[last.length - 1]?.kinds}`).toBeLessThanOrEqual(0);
      await recordFigures('soak', {
        cycles: summary.cycles,
        audits: summary.audits,
        lookups: summary.lookups,
        transactions: summary.transactions,
        items: summary.items,
        seconds: Math.round(summary.elapsedMs / 1000),
        heapGrowthKiB: Math.round(heapGrowth / 1024),
        // A leak this many KiB per cycle or more would have failed the test.
        detectsLeakKiBPerCycle: Math.ceil(MAX_GROWTH / 1024 / Math.max(1, settled.length - third)),
        handleGrowth,
        maxHandles: Math.max(...summary.samples.map((s) => s.handles)),
      });
    },
    DURATION_MS + 90_000,
  );
});
