import { describe, expect, it } from 'vitest';
import { holderSearchText } from './holder-search';

describe('holderSearchText', () => {
  it.each([
    { view: { method: 'index' as const, indexName: 'byEmail' }, text: 'the index byEmail' },
    { view: { method: 'scan' as const }, text: 'a filtered scan (no index on the attribute)' },
    {
      view: { method: 'mixed' as const, indexName: 'byEmail' },
      text: 'the index byEmail for some rules and a filtered scan for the rules without an index',
    },
    {
      view: { method: 'audit' as const, usedAudit: '2026-12-01T17:00:00.000Z' },
      text: 'the audit of 2026-12-01T17:00:00.000Z (holders re-read by key)',
    },
    {
      view: { method: 'mixed' as const, indexName: 'byEmail', usedAudit: '2026-12-01T17:00:00.000Z' },
      text: 'the index byEmail for some rules and the audit of 2026-12-01T17:00:00.000Z (holders re-read by key) for the rules without an index',
    },
  ])('$view.method $view.usedAudit', ({ view, text }) => {
    expect(holderSearchText(view)).toBe(text);
  });
});
