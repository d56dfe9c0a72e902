/**
 * An edited convention held against the sampled items before it runs: a misspelt attribute or
 * template shows as "0 of 665 sampled accounts have `emial`" on its field, not as 2,000 orphans
 * after a full scan. Pure.
 */
import type { SampleDigest } from '../../../../shared/contract';
import { parseLockKey } from '../../../../shared/conventions/parse';
import type { Convention } from '../../../../shared/model';

/** What the sample says about one rule's attribute and lock template. */
export interface RuleSampleCheck {
  /** "612 of 665 sampled accounts have `email`". */
  readonly attribute: string;
  readonly attributeOk: boolean;
  /** "598 sampled lock keys match UNIQ#EMAIL#{value}". */
  readonly template: string;
  readonly templateOk: boolean;
}

const n = (value: number): string => value.toLocaleString('en-US');

/** Checks each rule of `convention` against the sample (rules in order); empty without a sample. */
export function checkAgainstSample(convention: Convention, sample: SampleDigest | undefined): RuleSampleCheck[] {
  if (!sample) return [];
  const matches = new Array<number>(convention.rules.length).fill(0);
  let parseable = true;
  try {
    // Each key is read with its own sort key when the digest has them; else with every literal lock range the rules use.
    const ranges = convention.keys.range
      ? [...new Set(convention.rules.flatMap((r) => r.lockKeys.map((k) => k.range ?? '')))]
      : [undefined];
    for (const [i, hash] of sample.otherHashes.entries()) {
      const own = sample.otherRanges?.[i];
      for (const range of sample.otherRanges === undefined ? ranges : [own ?? undefined]) {
        const parsed = parseLockKey(convention, hash, range);
        if (parsed.kind !== 'lock') continue;
        matches[parsed.ruleIndex] = (matches[parsed.ruleIndex] ?? 0) + 1;
        break;
      }
    }
  } catch {
    parseable = false; // a template being typed may not compile yet: its own field error says why
  }
  return convention.rules.map((rule, i) => {
    const having = sample.attributes[rule.attribute] ?? 0;
    const matched = matches[i] ?? 0;
    const first = rule.lockKeys[0];
    const template =
      first === undefined ? '' : first.range !== undefined && first.range.includes('{') ? `${first.hash} / ${first.range}` : first.hash;
    return {
      attribute: `${n(having)} of ${n(sample.accounts)} sampled accounts have \`${rule.attribute}\``,
      attributeOk: sample.accounts === 0 || having > 0,
      template: parseable
        ? `${n(matched)} of ${n(sample.otherHashes.length)} sampled lock keys match ${template}`
        : 'the template cannot be read yet',
      templateOk: parseable && (sample.otherHashes.length === 0 || matched > 0),
    };
  });
}
