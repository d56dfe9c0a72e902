import { describe, expect, it } from 'vitest';
import type { Convention } from '../model';
import { lockRulesWritten } from './lock-rules';

const convention = { rules: [{ name: 'EMAIL' }, { name: 'HANDLE' }] } as unknown as Convention;

describe('lockRulesWritten', () => {
  it('names the one rule a claim, a release or a change of value writes', () => {
    expect(lockRulesWritten({ kind: 'claim', rule: 'EMAIL' }, convention)).toEqual(['EMAIL']);
    expect(lockRulesWritten({ kind: 'release', rule: 'HANDLE' }, convention)).toEqual(['HANDLE']);
    expect(lockRulesWritten({ kind: 'change-value', rule: 'EMAIL' }, convention)).toEqual(['EMAIL']);
  });

  it('names each rule a signup gives a value, and every rule for a deleted account', () => {
    expect(lockRulesWritten({ kind: 'signup', values: { HANDLE: 'ada' } }, convention)).toEqual(['HANDLE']);
    expect(lockRulesWritten({ kind: 'delete-account' }, convention)).toEqual(['EMAIL', 'HANDLE']);
  });
});
