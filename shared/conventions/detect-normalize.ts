/**
 * Choosing a rule's normalization during detection. Value overlap alone cannot tell `[]` from
 * `lowercase` when every sampled value is already lower-case (a small table, or handles that
 * happen to be lower-case) — yet a claim of `ADA` must then fold into the stored `ada`. So each
 * step is decided from evidence in the sample, and, when the sample says nothing, the preset's
 * documented default (PRESET_DEFAULTS) stands.
 */
import type { NormalizationStep, PresetName } from '../model';
import { NORMALIZATION_STEPS } from '../model';
import { JUNK_VALUES } from './detect-overlap';
import { normalizeValue } from './normalize';
import { PRESET_DEFAULTS, type PresetRuleSpec } from './presets';

/** The chosen steps (canonical order) and one reason per step kept or default dropped. */
export interface InferredNormalization {
  readonly steps: readonly NormalizationStep[];
  readonly reasons: readonly string[];
}

const WORDS: Readonly<Record<NormalizationStep, string>> = { trim: 'trimmed', lowercase: 'lower-case', nfc: 'NFC' };

/** Every subset of `steps`, each in the given order. */
function subsets(steps: readonly NormalizationStep[]): NormalizationStep[][] {
  let out: NormalizationStep[][] = [[]];
  for (const step of steps) out = [...out, ...out.map((s) => [...s, step])];
  return out;
}

/** `steps` in canonical order (normalization order matters only in principle, but stay deterministic). */
const canonical = (steps: readonly NormalizationStep[]): NormalizationStep[] => NORMALIZATION_STEPS.filter((s) => steps.includes(s));

/**
 * Decides each step for one rule from its sampled lock values and the paired attribute's values:
 * - for: an account value reaches its lock only with the step, or the locks are all in the step's
 *   form while some account values are not;
 * - against: an account value's lock is written without the step, or a lock is not in its form;
 * - neither: the preset default (`defaults`).
 */
export function inferNormalization(lockValues: readonly string[], accountValues: readonly string[], defaults: readonly NormalizationStep[]): InferredNormalization {
  const locks = new Set(lockValues.filter((v) => !JUNK_VALUES.has(v)));
  const values = accountValues.filter((v) => !JUNK_VALUES.has(v));
  const steps: NormalizationStep[] = [];
  const reasons: string[] = [];
  for (const step of NORMALIZATION_STEPS) {
    const only = [step];
    // Each subset of the other steps, without and with this one: does adding the step reach a lock?
    const pairs = subsets(NORMALIZATION_STEPS.filter((s) => s !== step)).map((base) => [canonical(base), canonical([...base, step])] as const);
    let support = 0;
    let contra = 0;
    let changed = 0;
    for (const value of values) {
      if (normalizeValue(value, only) !== value) changed++;
      let sup = false;
      let con = false;
      for (const [base, extended] of pairs) {
        const without = normalizeValue(value, base);
        const withStep = normalizeValue(value, extended);
        if (without === withStep) continue;
        if (locks.has(withStep)) sup = true;
        if (locks.has(without)) con = true;
      }
      if (sup) support++;
      if (con) contra++;
    }
    let notInForm = 0;
    for (const lock of locks) if (normalizeValue(lock, only) !== lock) notInForm++;
    const isDefault = defaults.includes(step);
    let keep: boolean;
    if (support > contra) {
      keep = true;
      reasons.push(`${step}: ${support} account values match their lock only ${step === 'trim' ? 'trimmed' : `as ${WORDS[step]}`}`);
    } else if (contra > support) {
      keep = false;
      if (isDefault) reasons.push(`no ${step} (preset default dropped): ${contra} account values match a lock written without it`);
    } else if (notInForm > 0) {
      keep = false;
      if (isDefault) reasons.push(`no ${step} (preset default dropped): ${notInForm} sampled locks are not ${WORDS[step]}`);
    } else if (changed > 0 && locks.size > 0) {
      keep = true;
      reasons.push(`${step}: every sampled lock is ${WORDS[step]} while ${changed} account values are not`);
    } else {
      keep = isDefault;
      if (isDefault) reasons.push(`${step}: preset default, nothing in the sample against it`);
    }
    if (keep) steps.push(step);
  }
  return { steps, reasons };
}

/** The tag a preset rule spec is written with (presets.ts: upper-cased attribute for uniq and marker, the attribute otherwise). */
export function defaultRuleTag(preset: PresetName, spec: PresetRuleSpec): string {
  return spec.tag ?? (preset === 'uniq' || preset === 'marker' ? spec.attribute.toUpperCase() : spec.attribute);
}

/** The documented normalization of a preset's default rule with this tag (or attribute); none when the preset has no such rule. */
export function presetDefaultNormalization(preset: PresetName, tag: string, attribute: string): readonly NormalizationStep[] {
  const rules = PRESET_DEFAULTS[preset].rules;
  const hit = rules.find((r) => defaultRuleTag(preset, r) === tag) ?? rules.find((r) => r.attribute === attribute);
  return hit?.normalize ?? [];
}
