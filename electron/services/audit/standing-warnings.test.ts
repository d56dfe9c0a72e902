import { describe, expect, it } from 'vitest';
import type { ConventionWarning } from '../../../shared/audit/fit';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import { StandingWarnings, warnedRuleRefusal } from './standing-warnings';

const convention = layoutFor('uniq').convention;
const other = layoutFor('uniq', { lockRange: 'L' }).convention;
const warning: ConventionWarning = {
  rule: 'EMAIL',
  kind: 'locks-misread',
  counts: { rule: 'EMAIL', held: 60, healthy: 0, missing: 60, malformed: 60, embedded: 0, unmatched: 0 },
  message: 'the convention does not explain this table for rule EMAIL: 60 of its lock items cannot be read',
};
const report = (warnings: readonly ConventionWarning[], complete = true) => ({ table: 'users', complete, convention, warnings });

describe('standing warnings of the app', () => {
  it('keeps what the latest complete audit found, per target, table and convention; a clean one clears it', () => {
    const store = new StandingWarnings();
    store.record('t1', report([warning]));
    expect(store.find('t1', 'users', convention, 'EMAIL')).toBe(warning);
    expect(store.find('t1', 'users', convention, 'HANDLE')).toBeUndefined();
    expect(store.find('t2', 'users', convention, 'EMAIL')).toBeUndefined();
    expect(store.find('t1', 'users', other, 'EMAIL')).toBeUndefined();
    store.record('t1', report([], false));
    expect(store.find('t1', 'users', convention, 'EMAIL')).toBe(warning);
    store.record('t1', report([]));
    expect(store.find('t1', 'users', convention, 'EMAIL')).toBeUndefined();
  });

  it('refuses a lock write under a warned rule unless the convention is the one saved for the table', () => {
    expect(warnedRuleRefusal(undefined, convention, undefined)).toBeUndefined();
    expect(warnedRuleRefusal(warning, convention, undefined)).toMatch(
      /^the convention does not explain this table for rule EMAIL: .*need a reviewed convention: check it in the Convention tab and save it/,
    );
    expect(warnedRuleRefusal(warning, convention, other)).toContain('Nothing was sent.');
    // Saved through the convention editor: a person reviewed it (key order does not matter).
    expect(warnedRuleRefusal(warning, convention, JSON.parse(JSON.stringify(convention)) as typeof convention)).toBeUndefined();
  });
});
