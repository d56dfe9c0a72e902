import { describe, expect, it } from 'vitest';
import { layoutFor } from '../../../../shared/conventions/test-layouts';
import { exportDocument, provenanceText, type ExportInput } from './export-document';

const convention = layoutFor('uniq').convention;
const summary = { 'orphan-lock': 1, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 };
const input: ExportInput = {
  table: 'accounts',
  connection: undefined,
  convention,
  shown: {
    rowsShown: 1,
    problems: [{ kind: 'orphan-lock', rule: 'HANDLE', value: 'ghost', lock: { PK: 'UNIQ#HANDLE#ghost', SK: 'LOCK' } }],
  },
  counts: { scanned: 10, accounts: 4, locks: 6, summary },
  complete: true,
  reason: undefined,
  warnings: [],
  filter: { filter: 'all', search: '' },
  writes: 0,
  now: new Date('2026-12-01T20:00:00Z'),
};
const source = {
  kind: 'export' as const,
  exportArn: 'arn:aws:dynamodb:us-east-1:0:table/accounts/export/1-ab',
  exportTime: '2026-12-01T19:00:00.000Z',
  itemCount: 10,
};

describe('an export of what the inspector shows, for a run that read a DynamoDB export', () => {
  it('says which export and that its findings are not confirmed yet', () => {
    const document = exportDocument({ ...input, source });
    expect(document.source).toEqual(source);
    expect(provenanceText(document)).toContain(
      `from export ${source.exportArn} at ${source.exportTime} (problem groups only; NOT confirmed against the live table)`,
    );
  });

  it('says how many findings the confirmation kept and how many were stale', () => {
    const document = exportDocument({ ...input, source: { ...source, confirmed: { confirmed: 1, stale: 2 } } });
    expect(provenanceText(document)).toContain('confirmed against the live table: 1 still true, 2 stale');
  });

  it('carries no source for a live audit', () => {
    const document = exportDocument(input);
    expect('source' in document).toBe(false);
    expect(provenanceText(document)).not.toContain('from export');
  });
});
