import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ConventionWarning } from '../../../../shared/audit/fit';
import { ConventionWarnings } from './convention-warnings';

const warning: ConventionWarning = {
  rule: 'EMAIL',
  kind: 'values-elsewhere',
  counts: { rule: 'EMAIL', held: 60, healthy: 0, missing: 60, malformed: 0, embedded: 60, unmatched: 60 },
  message: 'the convention does not explain this table for rule EMAIL: 60 of its 60 missing values stand in keys of another layout',
};

describe('ConventionWarnings', () => {
  it('is an alert naming each warned rule with its sentence, and what it means for repairs and the lock form', () => {
    const html = renderToStaticMarkup(<ConventionWarnings warnings={[warning]} />);
    expect(html).toContain('role="alert"');
    expect(html).toContain('data-rule="EMAIL"');
    expect(html).toContain(warning.message);
    expect(html).toContain('Repairs leave these rules to a person');
  });

  it('shows nothing when the convention explains the table', () => {
    expect(renderToStaticMarkup(<ConventionWarnings warnings={[]} />)).toBe('');
  });
});
