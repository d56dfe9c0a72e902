import { describe, expect, it } from 'vitest';
import { holderSearchText } from './holder-search';

describe('holderSearchText', () => {
  it.each([
    { view: { method: 'index' as const, indexName: 'byEmail' }, text: 'the index byEmail' },
    { view: { method: 'scan' as const }, text: 'a filtered scan (no index on the attribute)' },
    { view: { method: 'mixed' as const, indexName: 'byEmail' }, text: 'the index byEmail for some rules and a filtered scan for the rules without an index' },
  ])('$view.method', ({ view, text }) => {
    expect(holderSearchText(view)).toBe(text);
  });
});
