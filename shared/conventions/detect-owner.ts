/** Finding an owner attribute during detection: lock items that name their holder's hash key. */
import type { Item, KeySchema } from '../model';
import { scalarText } from './classify';
import { fmt } from './detect-overlap';

/** An attribute on lock items whose values are the hash keys of sampled accounts. */
export function detectOwner(
  keys: KeySchema,
  locks: readonly Item[],
  accounts: readonly Item[],
  skip: ReadonlySet<string>,
): { attribute: string; evidence: string } | undefined {
  const accountHashes = new Set<string>();
  for (const a of accounts) {
    const h = scalarText(a[keys.hash.name]);
    if (h !== undefined) accountHashes.add(h);
  }
  const tally = new Map<string, { present: number; named: number }>();
  for (const lock of locks) {
    for (const name in lock) {
      if (skip.has(name)) continue;
      const text = scalarText(lock[name]);
      if (text === undefined) continue;
      const t = tally.get(name) ?? { present: 0, named: 0 };
      t.present++;
      if (accountHashes.has(text)) t.named++;
      tally.set(name, t);
    }
  }
  let best: { attribute: string; present: number; named: number } | undefined;
  for (const [attribute, t] of tally) {
    // Half the locks carrying it must name a sampled account (the sample may miss the rest).
    if (t.named === 0 || t.named * 2 < t.present) continue;
    if (!best || t.named > best.named) best = { attribute, ...t };
  }
  if (!best) return undefined;
  return {
    attribute: best.attribute,
    evidence: `owner attribute \`${best.attribute}\`: ${fmt(best.named)} of ${fmt(best.present)} sampled locks carrying it name a sampled account's ${keys.hash.name}`,
  };
}
