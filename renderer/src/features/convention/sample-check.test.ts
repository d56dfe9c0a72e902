import { describe, expect, it } from 'vitest';
import type { SampleDigest } from '../../../../shared/contract';
import { layoutFor } from '../../../../shared/conventions/test-layouts';
import type { Convention } from '../../../../shared/model';
import { checkAgainstSample } from './sample-check';

const base = layoutFor('uniq').convention;
const sample: SampleDigest = {
  accounts: 665,
  attributes: { PK: 665, SK: 665, email: 612, username: 665 },
  otherHashes: ['UNIQ#EMAIL#a@x.io', 'UNIQ#EMAIL#b@x.io', 'UNIQ#HANDLE#ada', 'UNIQ#PHONE#1'],
};
const withRule = (index: number, patch: Partial<Convention['rules'][number]>): Convention => ({
  ...base,
  rules: base.rules.map((r, i) => (i === index ? { ...r, ...patch } : r)),
});

describe('checkAgainstSample', () => {
  it('counts accounts holding each attribute and lock keys matching each template', () => {
    const checks = checkAgainstSample(base, sample);
    const email = base.rules.findIndex((r) => r.attribute === 'email');
    expect(checks[email]).toEqual({
      attribute: '612 of 665 sampled accounts have `email`',
      attributeOk: true,
      template: '2 of 4 sampled lock keys match UNIQ#EMAIL#{value}',
      templateOk: true,
    });
  });

  it('flags a misspelt attribute and a template nothing matches', () => {
    const email = base.rules.findIndex((r) => r.attribute === 'email');
    const range = base.rules[email]!.lockKeys[0]!.range;
    const checks = checkAgainstSample(
      withRule(email, { attribute: 'emial', lockKeys: [{ hash: 'UNIQ#EMIAL#{value}', ...(range !== undefined ? { range } : {}) }] }),
      sample,
    );
    expect(checks[email]).toMatchObject({ attribute: '0 of 665 sampled accounts have `emial`', attributeOk: false, templateOk: false });
    expect(checks[email]?.template).toMatch(/^0 of 4 sampled lock keys match UNIQ#EMIAL#\{value\}$/);
  });

  it('says nothing without a sample', () => {
    expect(checkAgainstSample(base, undefined)).toEqual([]);
  });
});
