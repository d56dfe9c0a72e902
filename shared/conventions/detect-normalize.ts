/**
 * Choosing a rule's normalization during detection. A preset that models one library takes what
 * that library does (LIBRARY_NORMALIZATION): OneTable writes `_unique#User#email#Ada@X.io` as
 * given, so folding case there would claim a key OneTable never checks. The other presets model
 * an application's own code, so each step is decided from evidence in the sample — value overlap
 * alone cannot tell `[]` from `lowercase` when every sampled value is already lower-case, yet a
 * claim of `ADA` must then fold into the stored `ada` — and, when the sample says nothing, the
 * preset's documented default (PRESET_DEFAULTS) stands.
 */
import type { NormalizationStep, PresetName } from '../model';
import { NORMALIZATION_STEPS } from '../model';
import { JUNK_VALUES } from './detect-overlap';
import { normalizeValue } from './normalize';
import { LIBRARY_NORMALIZATION, PRESET_DEFAULTS, type PresetRuleSpec } from './presets';

/** The chosen steps (canonical order) and one reason per step kept or default dropped. */
export interface InferredNormalization {
  readonly steps: readonly NormalizationStep[];
  readonly reasons: readonly string[];
  /** Kept steps no lock proves: every sampled lock is in their form while some account values are not. */
  readonly unproven: readonly NormalizationStep[];
  /** Steps an account value reaches its lock only with (support outweighs contrary matches). */
  readonly provenFor: readonly NormalizationStep[];
  /** Steps the sample refutes: a value's lock is written without the step, or a lock is not in its form. */
  readonly provenAgainst: readonly NormalizationStep[];
}

const WORDS: Readonly<Record<NormalizationStep, string>> = { trim: 'trimmed', lowercase: 'lower-case', nfc: 'NFC' };

/** Subsets of NORMALIZATION_STEPS as bit masks: bit i is step i, and a subset applies its steps in that (canonical) order. */
const SUBSETS = 1 << NORMALIZATION_STEPS.length;

/**
 * A value under every subset of the steps, indexed by mask: each form is the one without its last
 * step, normalized by that step — one step per subset instead of a whole chain per comparison.
 */
function formsOf(value: string): string[] {
  const forms = [value];
  for (let mask = 1; mask < SUBSETS; mask++) {
    const last = 31 - Math.clz32(mask);
    forms.push(normalizeValue(forms[mask & ~(1 << last)]!, [NORMALIZATION_STEPS[last]!]));
  }
  return forms;
}

/**
 * Decides each step for one rule from its sampled lock values and the paired attribute's values:
 * - for: an account value reaches its lock only with the step, or the locks are all in the step's
 *   form while some account values are not;
 * - against: an account value's lock is written without the step, or a lock is not in its form;
 * - neither: the preset default (`defaults`).
 */
export function inferNormalization(
  lockValues: readonly string[],
  accountValues: readonly string[],
  defaults: readonly NormalizationStep[],
): InferredNormalization {
  const locks = new Set(lockValues.filter((v) => !JUNK_VALUES.has(v)));
  const values = accountValues.filter((v) => !JUNK_VALUES.has(v));
  const steps: NormalizationStep[] = [];
  const reasons: string[] = [];
  const unproven: NormalizationStep[] = [];
  const provenFor: NormalizationStep[] = [];
  const provenAgainst: NormalizationStep[] = [];
  const forms = values.map(formsOf);
  NORMALIZATION_STEPS.forEach((step, index) => {
    const only = [step];
    const bit = 1 << index;
    let support = 0;
    let contra = 0;
    let changed = 0;
    for (const form of forms) {
      if (form[bit] !== form[0]) changed++;
      let sup = false;
      let con = false;
      // Each subset of the other steps, without and with this one: does adding the step reach a lock?
      for (let base = 0; base < SUBSETS; base++) {
        if (base & bit) continue;
        const without = form[base]!;
        const withStep = form[base | bit]!;
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
      provenFor.push(step);
      reasons.push(`${step}: ${support} account values match their lock only ${step === 'trim' ? 'trimmed' : `as ${WORDS[step]}`}`);
    } else if (contra > support) {
      keep = false;
      provenAgainst.push(step);
      if (isDefault) reasons.push(`no ${step} (preset default dropped): ${contra} account values match a lock written without it`);
    } else if (notInForm > 0) {
      keep = false;
      provenAgainst.push(step);
      if (isDefault) reasons.push(`no ${step} (preset default dropped): ${notInForm} sampled locks are not ${WORDS[step]}`);
    } else if (changed > 0 && locks.size > 0) {
      // Weak: the account values that change under the step have no lock in the sample (perhaps the
      // very accounts a repair is for), so nothing shows the application writes the step.
      keep = true;
      unproven.push(step);
      reasons.push(
        `${step}: unproven (confidence lowered) — every sampled lock is ${WORDS[step]} and ${changed} account values are not, but no sampled lock proves the application applies it; check it against the application's code`,
      );
    } else {
      keep = isDefault;
      if (isDefault) reasons.push(`${step}: preset default, nothing in the sample against it`);
    }
    if (keep) steps.push(step);
  });
  return { steps, reasons, unproven, provenFor, provenAgainst };
}

/** How a library-modelling preset writes values, for the evidence. */
const LIBRARY_WORDS: Readonly<Partial<Record<PresetName, string>>> = {
  onetable: 'dynamodb-onetable writes the value as given',
  'aws-blog': 'the AWS reference code writes the value as given',
  electrodb: 'ElectroDB lower-cases the value in its keys',
};

/** A rule's normalization as detection chooses it, and whether the choice is in doubt (which lowers the confidence). */
export interface ChosenNormalization {
  readonly steps: readonly NormalizationStep[];
  readonly reasons: readonly string[];
  /** True when a step rests on no lock that proves it, or the sample contradicts what the library does. */
  readonly doubtful: boolean;
}

/**
 * The steps of one rule: a library preset's fixed steps (never inferred: the library is the judge of
 * which key it checks), else inferred from the sample with the preset's documented default. For a
 * library preset the sample is still read, and a contradiction is said and lowers the confidence.
 */
export function chooseNormalization(
  preset: PresetName,
  tag: string,
  attribute: string,
  lockValues: readonly string[],
  accountValues: readonly string[],
): ChosenNormalization {
  const fixed = LIBRARY_NORMALIZATION[preset];
  if (!fixed) {
    const inferred = inferNormalization(lockValues, accountValues, presetDefaultNormalization(preset, tag, attribute));
    return { steps: inferred.steps, reasons: inferred.reasons, doubtful: inferred.unproven.length > 0 };
  }
  const data = inferNormalization(lockValues, accountValues, fixed);
  const against = [...data.provenFor.filter((s) => !fixed.includes(s)), ...data.provenAgainst.filter((s) => fixed.includes(s))];
  const how = `${fixed.length ? fixed.join(', ') : 'no normalization'}: ${LIBRARY_WORDS[preset] ?? `the ${preset} preset`}`;
  if (against.length === 0) return { steps: fixed, reasons: [how], doubtful: false };
  const said = data.reasons
    .filter((r) => against.some((s) => r.startsWith(`${s}:`) || r.startsWith(`no ${s} `)))
    .map((r) => r.replace(' (preset default dropped)', ''));
  const detail = said.length ? ` (${said.join('; ')})` : '';
  return {
    steps: fixed,
    reasons: [
      `${how}, but the sample disagrees on ${against.join(', ')}${detail}: kept as the library does it (confidence lowered); if the application normalizes values itself, set "normalize" by hand`,
    ],
    doubtful: true,
  };
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
