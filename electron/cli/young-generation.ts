/**
 * Fixes the size of V8's young generation for the rest of the process, from inside it. A scan streams
 * ~1 MB pages and the audit's join survives every scavenge, so V8 grows the new space to its maximum
 * (16 MiB per semi-space, 32 MiB in all) within the first pages; 4 MiB per semi-space costs no
 * measurable CPU and ~26 MiB less peak RSS (docs/benchmarks.md, "Session 7 — CLI").
 *
 * `--max-semi-space-size` is read once, when the heap is set up, so `v8.setFlagsFromString` cannot
 * lower it and a launcher would have to re-exec node. What V8 reads at every growth is
 * `--semi-space-growth-factor` (the new capacity is factor × the current one, then capped at the maximum).
 * So: set the factor to the wanted size over the initial 1 MiB, allocate small surviving objects
 * until a scavenge has grown the new space once (straight to the wanted size), then set the factor
 * to 1 so it never grows again. young-generation.test.ts checks it in a child process, against a
 * control that grows.
 */
import v8 from 'node:v8';

const MIB = 2 ** 20;
/** V8's initial semi-space on 64-bit targets (what one growth multiplies). */
const INITIAL_SEMI_SPACE_MIB = 1;
/** Objects allocated between two size checks (a check walks every heap space: ~10 µs). */
const BATCH = 4_096;
/** Gives up after this many small objects (~5 MiB): the factor flag has no effect on this V8. */
const MAX_OBJECTS = 256 * BATCH;

/** The new space's size now (both semi-spaces), in bytes. */
export function newSpaceBytes(): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Grows the young generation to `semiSpaceMib` MiB per semi-space (a power of two, 2–16) and stops it
 * growing further; a new space already that large or larger only stops growing. Returns the new space's size.
 */
export function fixYoungGeneration(semiSpaceMib: number): number {
  const target = 2 * semiSpaceMib * MIB;
  if (newSpaceBytes() < target) {
    v8.setFlagsFromString(`--semi-space-growth-factor=${Math.round(semiSpaceMib / INITIAL_SEMI_SPACE_MIB)}`);
    // Kept alive until the growth: only bytes that survive a scavenge make V8 grow the new space.
    const survivors: { readonly n: number }[] = [];
    while (newSpaceBytes() < target && survivors.length < MAX_OBJECTS) for (let i = 0; i < BATCH; i++) survivors.push({ n: i });
  }
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  return newSpaceBytes();
}
