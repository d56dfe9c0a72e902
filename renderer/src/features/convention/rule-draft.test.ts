import { describe, expect, it } from 'vitest';
import type { Convention } from '../../../../shared/model';
import { applyDrafts, draftErrors, toDraft } from './rule-draft';

const uniq: Convention = {
  preset: 'uniq',
  keys: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } },
  account: { kind: 'key-prefix', prefix: 'ACCT#', range: 'PROFILE' },
  rules: [{ name: 'EMAIL', attribute: 'email', lockKeys: [{ hash: 'UNIQ#EMAIL#{value}', range: 'LOCK' }], normalize: ['lowercase'] }],
  lockPrefixes: ['UNIQ#'],
};

describe('rule drafts', () => {
  it('round-trips an unedited convention unchanged (preset kept)', () => {
    expect(applyDrafts(uniq, uniq.rules.map(toDraft), '')).toEqual(uniq);
  });

  it('an edit makes the convention custom and sets the owner attribute', () => {
    const draft = { ...toDraft(uniq.rules[0]!), normalize: ['trim', 'lowercase'] as const };
    const next = applyDrafts(uniq, [draft], 'owner');
    expect(next.preset).toBe('custom');
    expect(next.ownerAttribute).toBe('owner');
    expect(next.rules[0]?.normalize).toEqual(['trim', 'lowercase']);
  });

  it('reports a template without exactly one {value} and a missing range', () => {
    const draft = { ...toDraft(uniq.rules[0]!), template: 'UNIQ#EMAIL#', range: '' };
    const errors = draftErrors(draft, true);
    expect(errors.join(' ')).toMatch(/\{value\} exactly once/);
    expect(errors.join(' ')).toMatch(/sort key/);
  });
});
