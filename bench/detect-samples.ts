/**
 * Detection samples of 2,000 items, as a first audit reads them: the bench table's layout (a random
 * 2,000 of its 200,002 items, as four parallel Scan segments return them spread over the key space,
 * and its first 2,000 in slot order, where every account's locks are beside it), each preset's
 * layout (test-layouts.ts) and a few generated layouts (gen-layout.ts) in a shuffled scan order.
 * Deterministic; read by the detection probe and by the test that pins detection's output.
 */
import fc from 'fast-check';
import type { Item, KeySchema } from '../shared/model';
import { buildTable } from '../shared/conventions/gen-table';
import { layoutArb } from '../shared/conventions/gen-layout';
import { PRESET_KEYS } from '../shared/conventions/presets';
import { layoutFor, S } from '../shared/conventions/test-layouts';
import { createPrng } from '../electron/services/sandbox/prng';
import { planDataset, slotItems } from './dataset';

/** One named sample and the key schema of its table. */
export interface DetectSample {
  readonly name: string;
  readonly keys: KeySchema;
  readonly items: readonly Item[];
}

/** The sample size a first audit reads (electron/services/audit/sample.ts). */
export const SAMPLE_ITEMS = 2_000;
/** The bench table's size (bench/hold-table.ts holds it at this size). */
const BENCH_ITEMS = 200_002;

/** `items` in a seeded random order (a Scan returns items in hash order, not in the order they were written). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const next = createPrng(seed).next;
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The bench table's items at the given (sorted, distinct) positions, generated slot by slot as the loader writes them. */
function benchItemsAt(positions: readonly number[]): Item[] {
  const { slots } = planDataset(BENCH_ITEMS);
  const out: Item[] = [];
  let at = 0;
  let next = 0;
  for (let slot = 0; slot < slots && next < positions.length; slot++) {
    for (const item of slotItems(slot)) {
      if (at === positions[next]) {
        out.push(item);
        next++;
      }
      at++;
    }
  }
  return out;
}

/** A random `SAMPLE_ITEMS` of the bench table: few accounts and their locks fall in one sample together. */
function benchRandom(): Item[] {
  const next = createPrng(200_002).next;
  const picked = new Set<number>();
  while (picked.size < SAMPLE_ITEMS) picked.add(Math.floor(next() * BENCH_ITEMS));
  return shuffled(benchItemsAt([...picked].sort((a, b) => a - b)), 1);
}

/** The bench table's first `SAMPLE_ITEMS` items: whole slots, every account beside its locks. */
function benchSlots(): Item[] {
  return shuffled(benchItemsAt(Array.from({ length: SAMPLE_ITEMS }, (_, i) => i)), 2);
}

/** uniq: mixed-case emails with lower-case locks, handles, a display name; some locks missing. */
function uniqItems(): Item[] {
  const l = layoutFor('uniq');
  const items: Item[] = [];
  for (let i = 0; items.length < SAMPLE_ITEMS; i++) {
    const email = i % 3 === 0 ? `User${i}@Example.com` : `user${i}@example.com`;
    items.push(l.account(`a${i}`, { email, username: `hacker_${i}`, displayName: `Person ${i}` }));
    if (i % 2 === 0) items.push(l.lock('EMAIL', email.toLowerCase()));
    if (i % 3 !== 1) items.push(l.lock('HANDLE', `hacker_${i}`));
  }
  return shuffled(items.slice(0, SAMPLE_ITEMS), 3);
}

/** A preset's own layout: accounts holding its default rules' attributes, a lock for most values, a few orphans. */
function presetItems(preset: 'marker' | 'aws-blog' | 'electrodb', seed: number): Item[] {
  const l = layoutFor(preset);
  const items: Item[] = [];
  for (let i = 0; items.length < SAMPLE_ITEMS; i++) {
    const values: Record<string, string> = {};
    for (const rule of l.convention.rules)
      values[rule.attribute] = rule.attribute === 'email' ? `member${i}@example.org` : `${rule.attribute}-${i % 10 === 0 ? 'X' : 'x'}${i}`;
    items.push(l.account(`u-${i}`, { ...values, plan: i % 2 ? 'pro' : 'free', joined: `2025-01-${10 + (i % 20)}` }));
    for (const rule of l.convention.rules) {
      const value = values[rule.attribute]!;
      if (i % 11 === 5) continue;
      items.push(l.lock(rule.name, i % 13 === 7 ? `orphan-${i}` : l.convention.preset === 'electrodb' ? value.toLowerCase() : value));
    }
  }
  return shuffled(items.slice(0, SAMPLE_ITEMS), seed);
}

/** OneTable: current, scoped and legacy locks of `User`, and another model's accounts and locks. */
function onetableItems(): Item[] {
  const l = layoutFor('onetable');
  const items: Item[] = [];
  for (let i = 0; items.length < SAMPLE_ITEMS; i++) {
    items.push(l.account(`u${i}`, { email: `u${i}@x.io`, name: `n${i}` }));
    if (i % 3 === 0) items.push(l.raw(`_unique#User#email#u${i}@x.io`, '_unique#', { _type: S('_Unique') }));
    if (i % 3 === 1) items.push(l.raw(`_Unique:User:email:u${i}@x.io`, '_unique:', { _type: S('_Unique') }));
    if (i % 3 === 2) items.push(l.raw(`_unique#acme#User#email#u${i}@x.io`, '_unique#', { _type: S('_Unique') }));
    if (i % 10 === 0)
      items.push(
        l.raw(`_unique#Org#name#org${i}`, '_unique#', { _type: S('_Unique') }),
        l.raw(`Org#org${i}`, 'Org#', { _type: S('Org'), name: S(`org${i}`) }),
      );
  }
  return shuffled(items.slice(0, SAMPLE_ITEMS), 4);
}

/** Generated layouts (seeded) grown to about `SAMPLE_ITEMS` items: layouts no preset describes. */
function generated(seed: number): DetectSample {
  const [layout] = fc.sample(layoutArb, { seed, numRuns: 1 });
  if (!layout) throw new Error(`no layout for seed ${seed}`);
  const perAccount = buildTable({ ...layout, size: 100 }).items.length / 100;
  const table = buildTable({ ...layout, size: Math.floor(SAMPLE_ITEMS / perAccount) });
  return { name: `generated-${seed}`, keys: layout.keys, items: shuffled(table.items.slice(0, SAMPLE_ITEMS), seed) };
}

/** Every sample, by name. */
export function detectSamples(): DetectSample[] {
  return [
    { name: 'bench-random', keys: PRESET_KEYS.uniq, items: benchRandom() },
    { name: 'bench-slots', keys: PRESET_KEYS.uniq, items: benchSlots() },
    { name: 'uniq', keys: PRESET_KEYS.uniq, items: uniqItems() },
    { name: 'marker', keys: PRESET_KEYS.marker, items: presetItems('marker', 5) },
    { name: 'aws-blog', keys: PRESET_KEYS['aws-blog'], items: presetItems('aws-blog', 6) },
    { name: 'electrodb', keys: PRESET_KEYS.electrodb, items: presetItems('electrodb', 7) },
    { name: 'onetable', keys: PRESET_KEYS.onetable, items: onetableItems() },
    ...[1, 7, 42, 2024].map(generated),
  ];
}
