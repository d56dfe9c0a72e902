/**
 * Pairing lock tags with account attributes by VALUE OVERLAP: the attribute whose values
 * (after the best normalization) coincide most with a tag's lock values is the protected
 * attribute. Names are only a tie-breaker, so `HANDLE` ↔ `username` is found.
 */
import type { Item, NormalizationStep } from '../model';
import { scalarText } from './classify';
import { normalizeValue } from './normalize';
import { countText } from '../count-text';

/** Normalizations tried, simplest first; a longer one is kept only when it finds strictly more overlap. */
const CANDIDATE_NORMALIZATIONS: readonly (readonly NormalizationStep[])[] = [
  [],
  ['lowercase'],
  ['trim'],
  ['nfc'],
  ['trim', 'lowercase'],
  ['trim', 'lowercase', 'nfc'],
];

/** The best attribute for one tag. */
export interface Pairing {
  readonly attribute: string;
  readonly normalize: readonly NormalizationStep[];
  /** Distinct normalized values found both in locks and on accounts. */
  readonly common: number;
  /** True when no value overlapped and the pairing fell back to the attribute's name. */
  readonly byName: boolean;
}

/** Values that cannot be protected values (bugs written into keys), skipped when pairing. */
export const JUNK_VALUES: ReadonlySet<string> = new Set(['', 'undefined', 'null']);

/** Collects, per attribute name, the scalar values of the candidate account items (excluding `skip` attributes). */
export function attributeValues(items: readonly Item[], skip: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of items) {
    for (const name in item) {
      if (skip.has(name)) continue;
      const text = scalarText(item[name]);
      if (text === undefined || JUNK_VALUES.has(text)) continue;
      let list = out.get(name);
      if (!list) out.set(name, (list = []));
      list.push(text);
    }
  }
  return out;
}

/** Distinct values common to locks and accounts once both are normalized with `steps`. */
export function overlap(lockValues: readonly string[], attrValues: readonly string[], steps: readonly NormalizationStep[]): number {
  return overlapWith(new Set(lockValues.map((v) => normalizeValue(v, steps))), attrValues, steps);
}

/** An attribute's values as distinct normalized forms, by normalization, for as long as the list is not grown. */
const formsCache = new WeakMap<readonly string[], { readonly length: number; readonly bySteps: Map<string, ReadonlySet<string>> }>();

/**
 * The distinct forms of `attrValues` under `steps`. Every tag of every preset is paired against the same
 * attribute lists under the same normalizations, so each list is normalized once per normalization.
 */
function distinctForms(attrValues: readonly string[], steps: readonly NormalizationStep[]): ReadonlySet<string> {
  let entry = formsCache.get(attrValues);
  if (!entry || entry.length !== attrValues.length) formsCache.set(attrValues, (entry = { length: attrValues.length, bySteps: new Map() }));
  const id = steps.join(',');
  let forms = entry.bySteps.get(id);
  if (!forms) entry.bySteps.set(id, (forms = new Set(attrValues.map((v) => normalizeValue(v, steps)))));
  return forms;
}

function overlapWith(locks: ReadonlySet<string>, attrValues: readonly string[], steps: readonly NormalizationStep[]): number {
  let common = 0;
  for (const n of distinctForms(attrValues, steps)) if (locks.has(n)) common++;
  return common;
}

const simplify = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Finds the attribute whose values overlap most with `lockValues`. Falls back to an attribute
 * of the same (simplified) name as the tag when nothing overlaps; undefined when neither works.
 */
export function pairTag(
  tag: string,
  lockValues: readonly string[],
  attributes: ReadonlyMap<string, readonly string[]>,
): Pairing | undefined {
  const values = lockValues.filter((v) => !JUNK_VALUES.has(v));
  let best: Pairing | undefined;
  const tagName = simplify(tag);
  // The lock values normalized once per candidate, not once per attribute: the CLI audit waits for this
  // (normalizing with NFC once per attribute was a visible part of that wait).
  const lockSets = CANDIDATE_NORMALIZATIONS.map((steps) => new Set(values.map((v) => normalizeValue(v, steps))));
  for (const [attribute, attrValues] of [...attributes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const [c, steps] of CANDIDATE_NORMALIZATIONS.entries()) {
      const common = overlapWith(lockSets[c]!, attrValues, steps);
      if (common === 0) continue;
      const better =
        !best ||
        common > best.common ||
        // Equal overlap: prefer the attribute named like the tag (a tie-breaker, never the reason).
        (common === best.common && attribute !== best.attribute && simplify(attribute) === tagName && simplify(best.attribute) !== tagName);
      if (better) best = { attribute, normalize: steps, common, byName: false };
    }
  }
  if (best) return best;
  for (const attribute of attributes.keys()) {
    if (simplify(attribute) === tagName) return { attribute, normalize: [], common: 0, byName: true };
  }
  return undefined;
}

/** Formats a count for evidence lines: `1,998`. */
export const fmt = countText;
