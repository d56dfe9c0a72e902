/** Editable rule drafts: the form's flat fields ↔ the convention's LockRule (pure, unit-tested). */
import { isReservedPlaceholder, lockKeyProblem, scopeNamesOf } from '../../../../shared/conventions/template';
import type { Convention, LockRule, NormalizationStep } from '../../../../shared/model';

/** One rule as the form edits it. */
export interface RuleDraft {
  readonly name: string;
  readonly attribute: string;
  /** The canonical partition-key template; `{value}` stands here, in the sort key, or in both. */
  readonly template: string;
  /** The sort-key template (a literal such as `LOCK`, or text around placeholders), for hash+range tables. */
  readonly range: string;
  readonly normalize: readonly NormalizationStep[];
  /** Legacy templates kept as they were (not edited here). */
  readonly legacy: LockRule['lockKeys'];
  /** Scope placeholders → account attributes (a scoped rule: unique within an org…); `{}` when unscoped. */
  readonly scope: Readonly<Record<string, string>>;
  /** Kept as they were (the library's lock item attributes, the value's DynamoDB type): never dropped by an edit. */
  readonly lockItem?: LockRule['lockItem'];
  readonly valueType?: LockRule['valueType'];
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
    scope: rule.scope ?? {},
    ...(rule.lockItem ? { lockItem: rule.lockItem } : {}),
    ...(rule.valueType ? { valueType: rule.valueType } : {}),
  };
}

/** The scope placeholders the draft's key templates use (besides `{value}`), each once. */
export function draftPlaceholders(draft: RuleDraft): string[] {
  // A reserved name (`{toString}`) gets no attribute field: the template's own error says to rename it.
  return [...new Set([...scopeNamesOf(draft.template), ...scopeNamesOf(draft.range)])].filter((p) => !isReservedPlaceholder(p));
}

/** The fields of a rule draft that can be wrong. */
export type DraftField = 'name' | 'attribute' | 'template' | 'range' | 'scope';

/** The attribute typed for placeholder `p`, trimmed; '' when none (an own field only: `{toString}` is no attribute). */
function scopeText(draft: RuleDraft, p: string): string {
  const typed = Object.hasOwn(draft.scope, p) ? draft.scope[p] : undefined;
  return typeof typed === 'string' ? typed.trim() : '';
}

/** Problems with a draft, per field, in words (shown on the field); empty when it can be saved. */
export function fieldErrors(draft: RuleDraft, hasRange: boolean): Partial<Record<DraftField, string>> {
  const errors: Partial<Record<DraftField, string>> = {};
  if (draft.name.trim() === '') errors.name = 'The rule needs a name.';
  if (draft.attribute.trim() === '') errors.attribute = 'Name the account attribute it protects.';
  const problem = lockKeyProblem(hasRange && draft.range !== '' ? { hash: draft.template, range: draft.range } : { hash: draft.template });
  if (problem?.field === 'hash') errors.template = `The template ${problem.message}.`;
  if (problem?.field === 'range') errors.range = `The sort key ${problem.message}.`;
  const unfilled = draftPlaceholders(draft).find((p) => scopeText(draft, p) === '' && p !== 'scope');
  if (unfilled !== undefined) errors.scope = `Say which account attribute fills {${unfilled}}.`;
  if (hasRange && draft.range === '')
    errors.range = "This table has a sort key; give the lock's sort key (e.g. LOCK, or a template such as EMAIL#{value}).";
  return errors;
}

/** Problems with a draft, in words with the rule's name; empty when it can be saved. */
export function draftErrors(draft: RuleDraft, hasRange: boolean): string[] {
  const errors = fieldErrors(draft, hasRange);
  const label = `Rule ${draft.name || '?'}`;
  return (['name', 'attribute', 'template', 'scope', 'range'] as const).flatMap((f) =>
    errors[f] ? [f === 'name' ? errors[f] : `${label}: ${errors[f]}`] : [],
  );
}

/** Builds the convention from the original and the edited rules and owner attribute. */
export function applyDrafts(base: Convention, drafts: readonly RuleDraft[], ownerAttribute: string): Convention {
  const rules: LockRule[] = drafts.map((d) => {
    // Only the placeholders the template still has keep an attribute; an emptied field unscopes it.
    const scope = Object.fromEntries(draftPlaceholders(d).flatMap((p) => (scopeText(d, p) === '' ? [] : [[p, scopeText(d, p)]])));
    return {
      name: d.name.trim(),
      attribute: d.attribute.trim(),
      lockKeys: [base.keys.range ? { hash: d.template, range: d.range } : { hash: d.template }, ...d.legacy],
      normalize: d.normalize,
      ...(Object.keys(scope).length > 0 ? { scope } : {}),
      ...(d.lockItem ? { lockItem: d.lockItem } : {}),
      ...(d.valueType ? { valueType: d.valueType } : {}),
    };
  });
  const { ownerAttribute: _previous, ...rest } = base;
  const owner = ownerAttribute.trim();
  const edited = JSON.stringify(rules) !== JSON.stringify(base.rules) || owner !== (base.ownerAttribute ?? '');
  return { ...rest, preset: edited ? 'custom' : base.preset, rules, ...(owner ? { ownerAttribute: owner } : {}) };
}
