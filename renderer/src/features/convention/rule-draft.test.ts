import { describe, expect, it } from 'vitest';
import type { Convention } from '../../../../shared/model';
import { applyDrafts, draftErrors, draftPlaceholders, toDraft } from './rule-draft';

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
    expect(errors.join(' ')).toMatch(/must contain \{value\} \(in the partition key, the sort key, or both\)/);
    expect(errors.join(' ')).toMatch(/sort key/);
  });
});

describe('a draft template naming a built-in object property', () => {
  it('is an error on the template, not a crash, and gets no attribute field', () => {
    const draft = { ...toDraft(uniq.rules[0]!), template: 'UNIQ#{toString}#{value}' };
    expect(draftErrors(draft, true).join(' ')).toMatch(/\{toString\} is a name every JavaScript object already has/);
    expect(draftPlaceholders(draft)).toEqual([]);
  });
});

describe('rule drafts of scoped rules and full lock items', () => {
  const onetable: Convention = {
    preset: 'onetable',
    keys: { hash: { name: 'pk', type: 'S' }, range: { name: 'sk', type: 'S' } },
    account: { kind: 'attribute-equals', attribute: '_type', value: 'User' },
    rules: [
      {
        name: 'User.nickname',
        attribute: 'nickname',
        lockKeys: [{ hash: '_unique#{scope}#User#nickname#{value}', range: '_unique#' }],
        normalize: [],
        scope: { scope: 'orgId' },
        lockItem: { _type: '_Unique' },
      },
    ],
    lockPrefixes: ['_unique#User#'],
  };

  it('an edit elsewhere never drops the scope or the lock item template (a scoped rule must stay scoped)', () => {
    const draft = { ...toDraft(onetable.rules[0]!), normalize: ['nfc'] as const };
    const next = applyDrafts(onetable, [draft], '');
    expect(next.rules[0]).toMatchObject({ scope: { scope: 'orgId' }, lockItem: { _type: '_Unique' }, normalize: ['nfc'] });
    expect(applyDrafts(onetable, onetable.rules.map(toDraft), '')).toEqual(onetable);
  });

  it('a composite template needs the attribute of each placeholder', () => {
    const draft = { ...toDraft(onetable.rules[0]!), template: 'UNIQ#EMAIL#{tenantId}#{value}', scope: {} };
    expect(draftErrors(draft, true).join(' ')).toMatch(/which account attribute fills \{tenantId\}/);
    const filled = applyDrafts(onetable, [{ ...draft, scope: { tenantId: 'tenantId' } }], '');
    expect(filled.rules[0]?.scope).toEqual({ tenantId: 'tenantId' });
  });
});
