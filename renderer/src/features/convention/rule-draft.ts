/** Editable rule drafts: the form's flat fields ↔ the convention's LockRule (pure, unit-tested). */
import type { Convention, LockRule, NormalizationStep } from '../../../../shared/model';

/** One rule as the form edits it. */
export interface RuleDraft {
  readonly name: string;
  readonly attribute: string;
  /** The canonical hash template, with `{value}` exactly once. */
  readonly template: string;
  /** The range template (literal), for hash+range tables. */
  readonly range: string;
  readonly normalize: readonly NormalizationStep[];
  /** Legacy templates kept as they were (not edited here). */
  readonly legacy: LockRule['lockKeys'];
}

/** Flattens a rule for editing. */
export function toDraft(rule: LockRule): RuleDraft {
  const [canonical, ...legacy] = rule.lockKeys;
  return {
    name: rule.name,
    attribute: rule.attribute,
    template: canonical?.hash ?? '',
    range: canonical?.range ?? '',
    normalize: rule.normalize,
    legacy,
  };
}

/** The fields of a rule draft that can be wrong. */
export type DraftField = 'name' | 'attribute' | 'template' | 'range';

/** Problems with a draft, per field, in words (shown on the field); empty when it can be saved. */
export function fieldErrors(draft: RuleDraft, hasRange: boolean): Partial<Record<DraftField, string>> {
  const errors: Partial<Record<DraftField, string>> = {};
  if (draft.name.trim() === '') errors.name = 'The rule needs a name.';
  if (draft.attribute.trim() === '') errors.attribute = 'Name the account attribute it protects.';
  if (draft.template.split('{value}').length !== 2) errors.template = 'The template must contain {value} exactly once.';
  if (hasRange && draft.range === '') errors.range = "This table has a sort key; give the lock's sort key (e.g. LOCK).";
  return errors;
}

/** Problems with a draft, in words with the rule's name; empty when it can be saved. */
export function draftErrors(draft: RuleDraft, hasRange: boolean): string[] {
  const errors = fieldErrors(draft, hasRange);
  const label = `Rule ${draft.name || '?'}`;
  return (['name', 'attribute', 'template', 'range'] as const).flatMap((f) => (errors[f] ? [f === 'name' ? errors[f] : `${label}: ${errors[f]}`] : []));
}

/** Builds the convention from the original and the edited rules and owner attribute. */
export function applyDrafts(base: Convention, drafts: readonly RuleDraft[], ownerAttribute: string): Convention {
  const rules: LockRule[] = drafts.map((d) => ({
    name: d.name.trim(),
    attribute: d.attribute.trim(),
    lockKeys: [base.keys.range ? { hash: d.template, range: d.range } : { hash: d.template }, ...d.legacy],
    normalize: d.normalize,
  }));
  const { ownerAttribute: _previous, ...rest } = base;
  const owner = ownerAttribute.trim();
  const edited = JSON.stringify(rules) !== JSON.stringify(base.rules) || owner !== (base.ownerAttribute ?? '');
  return { ...rest, preset: edited ? 'custom' : base.preset, rules, ...(owner ? { ownerAttribute: owner } : {}) };
}
