/**
 * Choosing between a layout learned from the data (detect-layout.ts) and the best preset's reading of
 * the same sample.
 */
import type { Convention, Item, KeySchema } from '../model';
import { uniquelyHeldLocks, type LearnedLayout } from './detect-layout';
import { checkConvention } from './file';

/** A preset's reading of a sample: its convention, confidence and the sampled locks it covers. */
export interface PresetReading {
  readonly convention: Convention;
  readonly confidence: number;
  readonly covered: number;
}

/** Whether the learned layout explains the sample better than a preset: more locks of exactly one holder, then more locks, then more confidence (ties to the preset). */
function learnedReadsBetter(learned: LearnedLayout, preset: PresetReading, sample: readonly Item[], ties: boolean): boolean {
  const mine = uniquelyHeldLocks(learned.convention, sample);
  const theirs = uniquelyHeldLocks(preset.convention, sample);
  if (mine !== theirs) return mine > theirs;
  if (learned.covered !== preset.covered) return learned.covered > preset.covered;
  return ties ? learned.confidence >= preset.confidence : learned.confidence > preset.confidence;
}

/** A template with each scope placeholder named by the attribute it stands for (`{scope}` of a preset is `{orgId}` learned). */
function byAttribute(template: string | undefined, scope: Readonly<Record<string, string>> | undefined): string | undefined {
  return template?.replace(/\{(\w+)\}/g, (whole, name: string) => (scope?.[name] === undefined ? whole : `{${scope[name]}}`));
}

/**
 * How a learned layout compares with a preset's: `same` when each learned rule's first lock key is one of
 * the preset's for that attribute and the preset writes on its locks all the learned layout saw there
 * (attributes, owner); `carries-more` when only that last part differs; else `different`.
 */
function likeness(learned: Convention, preset: Convention): 'same' | 'carries-more' | 'different' {
  let more = learned.ownerAttribute !== undefined && learned.ownerAttribute !== preset.ownerAttribute;
  for (const l of learned.rules) {
    const key = l.lockKeys[0];
    const hash = byAttribute(key?.hash, l.scope);
    const range = byAttribute(key?.range, l.scope);
    const p = preset.rules.find(
      (r) =>
        r.attribute === l.attribute &&
        r.lockKeys.some((k) => byAttribute(k.hash, r.scope) === hash && byAttribute(k.range, r.scope) === range),
    );
    if (!p) return 'different';
    if (Object.entries(l.lockItem ?? {}).some(([name, v]) => p.lockItem?.[name] !== v)) more = true;
  }
  return more ? 'carries-more' : 'same';
}

/**
 * A preset keeps its own layout (its name says which library wrote the table and what it does to
 * values), unless it would propose what the loader refuses or leave out what the locks carry; a
 * layout no preset describes wins when it reads the sample better.
 */
export function learnedWins(keys: KeySchema, learned: LearnedLayout, preset: PresetReading, sample: readonly Item[]): boolean {
  if (!checkConvention(preset.convention, keys).ok) return checkConvention(learned.convention, keys).ok;
  const like = likeness(learned.convention, preset.convention);
  if (like === 'same') return false;
  return learnedReadsBetter(learned, preset, sample, like === 'carries-more');
}
