/** One rule's fields: name, attribute, lock key template, normalization. */
import { NORMALIZATION_STEPS, type NormalizationStep } from '../../../../shared/model';
import { draftPlaceholders, fieldErrors, type DraftField, type RuleDraft } from './rule-draft';
import type { RuleSampleCheck } from './sample-check';

/** Edits one rule draft. */
export function RuleEditor({
  index,
  draft,
  hasRange,
  check,
  onChange,
  onRemove,
}: {
  index: number;
  draft: RuleDraft;
  hasRange: boolean;
  /** What the sampled items say about this rule, when a sample was read. */
  check: RuleSampleCheck | undefined;
  onChange: (draft: RuleDraft) => void;
  onRemove: () => void;
}) {
  const id = (field: string) => `rule-${index}-${field}`;
  const errors = fieldErrors(draft, hasRange);
  // An error on a field says it there, tied to the input for screen readers.
  const invalid = (field: DraftField) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': id(`${field}-error`) } : {});
  const error = (field: DraftField) =>
    errors[field] ? (
      <span id={id(`${field}-error`)} className="field-error" data-testid={`${id(field)}-error`}>
        {errors[field]}
      </span>
    ) : null;
  const sampleNote = (text: string, ok: boolean, field: string) => (
    <span className={ok ? 'field-hint' : 'field-error'} data-testid={`${id(field)}-sample`}>
      {ok ? '' : 'Check this: '}
      {text}
    </span>
  );
  const toggle = (step: NormalizationStep, on: boolean) => {
    const steps = on ? [...draft.normalize, step] : draft.normalize.filter((s) => s !== step);
    // Keep the offered order so the same choice always yields the same convention.
    onChange({ ...draft, normalize: NORMALIZATION_STEPS.filter((s) => steps.includes(s)) });
  };
  return (
    <fieldset className="rule-editor">
      <legend>Rule {draft.name || index + 1}</legend>
      <div className="grid-2">
        <div className="field">
          <label htmlFor={id('name')}>Name</label>
          <input id={id('name')} value={draft.name} onChange={(e) => onChange({ ...draft, name: e.target.value })} {...invalid('name')} />
          {error('name')}
        </div>
        <div className="field">
          <label htmlFor={id('attribute')}>Account attribute</label>
          <input
            id={id('attribute')}
            value={draft.attribute}
            onChange={(e) => onChange({ ...draft, attribute: e.target.value })}
            {...invalid('attribute')}
          />
          {error('attribute')}
          {check && !errors.attribute ? sampleNote(check.attribute, check.attributeOk, 'attribute') : null}
        </div>
        <div className="field">
          <label htmlFor={id('template')}>{hasRange ? 'Lock partition key template' : 'Lock key template'}</label>
          <input
            id={id('template')}
            className="mono"
            value={draft.template}
            onChange={(e) => onChange({ ...draft, template: e.target.value })}
            {...invalid('template')}
          />
          {error('template') ?? (
            <span className="field-hint">
              Contains {'{value}'} once, e.g. UNIQ#EMAIL#{'{value}'}
              {hasRange ? ' (or the sort key holds it, or both)' : ''}; a scope placeholder such as {'{tenantId}'} makes the value unique
              per tenant
            </span>
          )}
          {check && !errors.template ? sampleNote(check.template, check.templateOk, 'template') : null}
        </div>
        {hasRange ? (
          <div className="field">
            <label htmlFor={id('range')}>Lock sort key</label>
            <input
              id={id('range')}
              className="mono"
              value={draft.range}
              onChange={(e) => onChange({ ...draft, range: e.target.value })}
              {...invalid('range')}
            />
            {error('range') ?? (
              <span className="field-hint">
                A literal such as LOCK, or a template such as User.email#{'{value}'} when the library repeats the value
              </span>
            )}
          </div>
        ) : null}
      </div>
      {draftPlaceholders(draft).map((placeholder) => (
        <div className="field" key={placeholder}>
          <label htmlFor={id(`scope-${placeholder}`)}>
            {'{'}
            {placeholder}
            {'}'} is filled by the account attribute (unique within it)
          </label>
          <input
            id={id(`scope-${placeholder}`)}
            value={draft.scope[placeholder] ?? ''}
            onChange={(e) => onChange({ ...draft, scope: { ...draft.scope, [placeholder]: e.target.value } })}
            placeholder="e.g. orgId"
            data-testid={`rule-scope-${placeholder}`}
          />
        </div>
      ))}
      {error('scope')}
      <div className="row" role="group" aria-label={`Normalization of rule ${draft.name || index + 1}`}>
        <span>Normalization:</span>
        {NORMALIZATION_STEPS.map((step) => (
          <label key={step} className="row">
            <input type="checkbox" checked={draft.normalize.includes(step)} onChange={(e) => toggle(step, e.target.checked)} /> {step}
          </label>
        ))}
        <span className="spacer" />
        <button type="button" className="btn btn-small" onClick={onRemove}>
          Remove rule
        </button>
      </div>
      {draft.legacy.length > 0 ? (
        <p className="field-hint">Also recognised (legacy): {draft.legacy.map((t) => t.hash).join(', ')}</p>
      ) : null}
    </fieldset>
  );
}
