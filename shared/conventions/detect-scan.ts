/** What detection's lock scans observe: a lock-looking item, and what one preset's shape finds in a sample. */
import type { Item } from '../model';
import type { PresetOptions } from './presets';

/** One sampled item that looks like a lock. */
export interface LockObservation {
  /** The part of the key naming the rule (`EMAIL`; OneTable: `User#email`). */
  readonly tag: string;
  readonly value: string;
  /** The scope text written before the model in a scoped OneTable lock (`_unique#<scope>#User#…`). */
  readonly scope?: string;
  readonly item: Item;
}

/** What one preset's shape finds in a sample. */
export interface LockScan {
  readonly locks: readonly LockObservation[];
  /** Items that are neither locks of this shape nor account candidates (OneTable's other models). */
  readonly ignored: ReadonlySet<Item>;
  /** An attribute that types items (OneTable `_type`), never a protected value. */
  readonly typeAttribute?: string;
  readonly note?: string;
  /** The tag as a preset rule spec takes it. */
  tagName(tag: string): string;
  /** The rule name the tag becomes. */
  ruleName(tag: string): string;
  /** Preset options suggested by the sample (account prefix, model…); may append evidence. */
  presetOptions(accounts: readonly Item[], attributes: readonly string[], evidence: string[]): Partial<PresetOptions>;
  /** Lock prefixes to keep for tags paired with no attribute (so their locks show as malformed). */
  extraPrefixes(unpairedTags: readonly string[]): string[];
}

/** The string value of attribute `name` of an item (none for an absent name or a non-string). */
export function text(item: Item, name: string | undefined): string | undefined {
  return name === undefined ? undefined : item[name]?.S;
}

/** The most common value of a list, with its count. */
export function mostCommon(values: readonly string[]): { value: string; count: number } | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: { value: string; count: number } | undefined;
  for (const [value, count] of counts) if (!best || count > best.count) best = { value, count };
  return best;
}
