import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { GroupRow } from '../../../../shared/audit/types';
import { InspectorTable } from './inspector-table';
import type { RowsView } from './row-store';

const row: GroupRow = {
  kind: 'account',
  id: '{"PK":"USER#1","SK":"PROFILE"}',
  key: { PK: 'USER#1', SK: 'PROFILE' },
  locks: [],
  problems: [],
};

function view(rows: readonly GroupRow[], length: number): RowsView {
  return { run: 1, version: 1, total: length, length, specId: 0, counts: undefined, start: 0, rows };
}

function render(rows: RowsView): string {
  return renderToStaticMarkup(
    <InspectorTable
      rows={rows}
      onView={() => undefined}
      onWindow={() => undefined}
      keys={{ hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } }}
      rules={['EMAIL']}
      showProblems
      filter={{ filter: 'all', search: '' }}
    />,
  );
}

describe('InspectorTable', () => {
  it('names no active row before the window holds it: a reference to a row not in the page is invalid ARIA', () => {
    // Rendered away from a page (as on the first frame, before the virtualizer has measured): rows
    // exist, but the window holds none of them.
    const html = render(view([row], 1));
    expect(html).toContain('aria-rowcount="2"');
    expect(html).not.toContain('id="inspector-row-0"');
    expect(html).not.toContain('aria-activedescendant');
  });

  it('names no active row when there are none', () => {
    expect(render(view([], 0))).not.toContain('aria-activedescendant');
  });
});
