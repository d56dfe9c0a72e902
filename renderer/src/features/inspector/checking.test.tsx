/** An account shown before its locks are read: marked checking in words, never healthy, and counted apart while the scan runs. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AuditCounts } from '../../../../shared/audit/types';
import { ProblemCounts } from './problem-counts';
import { CheckingChip } from './status-chips';

const summary = { 'orphan-lock': 0, 'missing-lock': 0, 'duplicate-value': 1, 'owner-mismatch': 0, 'malformed-lock': 0 };
const running: AuditCounts = { scanned: 400, accounts: 120, locks: 280, summary, checking: 37 };

describe('checking', () => {
  it('says in words why the account is not healthy yet', () => {
    const html = renderToStaticMarkup(<CheckingChip />);
    expect(html).toContain('checking');
    expect(html).toContain('its lock has not been read yet');
    expect(html).not.toContain('healthy');
  });

  it('counts the waiting accounts apart while the scan runs, and not once it has settled', () => {
    const props = { filter: 'all' as const, onFilter: () => undefined };
    const during = renderToStaticMarkup(<ProblemCounts counts={running} provisional {...props} />);
    expect(during).toContain('data-testid="count-checking"');
    expect(during).toMatch(/checking <strong data-testid="count-checking">37<\/strong>/);
    const settled = renderToStaticMarkup(<ProblemCounts counts={{ ...running, checking: undefined }} provisional={false} {...props} />);
    expect(settled).not.toContain('count-checking');
  });
});
