/**
 * Fixes the size of V8's young generation for the rest of the process, from inside it. A scan streams
 * ~1 MB pages and the audit's join survives every scavenge, so V8 grows the new space to its maximum
 * (16 MiB per semi-space, 32 MiB in all) within the first pages; at 4 MiB per semi-space the audit's
 * peak RSS is lower (figures: docs/benchmarks.md).
 *
 * `--max-semi-space-size` is read once, when the heap is set up, so `v8.setFlagsFromString` cannot
 * lower it and a launcher would have to re-exec node. What V8 reads at every growth is
 * `--semi-space-growth-factor` (the new capacity is factor × the current one, then capped at the maximum).
 * So: set the factor to the wanted size over the current one (V8 starts at 1 MiB), allocate small
 * surviving objects until a scavenge has grown the new space once (straight to the wanted size, or to
 * a lower maximum node was started with), then set the factor to 1 so it never grows again.
 * young-generation.test.ts checks it in a child process, against a control that grows.
 */
import v8 from 'node:v8';

const MIB = 2 ** 20;
/** Objects allocated between two size checks (a check walks every heap space: ~10 µs). */
const BATCH = 4_096;
/** Gives up after this many small objects (~5 MiB): the factor flag has no effect on this V8. */
const MAX_OBJECTS = 256 * BATCH;

/**
 * The capacity of one semi-space of the new space now, in whole MiB (what `--max-semi-space-size`
 * bounds). The space's size would not do: V8 commits the second semi-space only at the first scavenge.
 */
export function semiSpaceMib(): number {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  return space === undefined ? 0 : Math.round((space.space_used_size + space.space_available_size) / MIB);
}

/**
 * Grows the young generation to `mib` MiB per semi-space (a power of two, 2–16; less when node was
 * started with a lower maximum) and stops it growing further; one already that large or larger only
 * stops growing. Returns the semi-space's size then, in MiB.
 */
export function fixYoungGeneration(mib: number): number {
  const current = semiSpaceMib();
  if (current > 0 && current < mib) {
    v8.setFlagsFromString(`--semi-space-growth-factor=${Math.ceil(mib / current)}`);
    // Kept alive until the growth: only bytes that survive a scavenge make V8 grow the new space.
    const survivors: { readonly n: number }[] = [];
    while (semiSpaceMib() === current && survivors.length < MAX_OBJECTS) for (let i = 0; i < BATCH; i++) survivors.push({ n: i });
  }
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  return semiSpaceMib();
}
