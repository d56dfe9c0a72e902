import { describe, expect, it } from 'vitest';
import type { RepairPlanView, RepairStatusView } from '../../../shared/contract/repair-views';
import { repairSummary, unverifiedFixes } from './repair';

// Only the fields these two read: which fixes each transaction holds, and how each transaction and fix ended.
const plan = { transactions: [{ fixes: [0, 1] }, { fixes: [2] }] } as unknown as RepairPlanView;
const status = (verified: readonly boolean[]): RepairStatusView =>
  ({
    planId: 'p',
    phase: 'done',
    finished: 2,
    transactions: verified.map((v, index) => ({ index, state: 'succeeded', verified: v })),
    fixes: [0, 1, 2].map((index) => ({ index, state: 'succeeded', message: 'applied' })),
  }) as unknown as RepairStatusView;

describe('repair --execute: applied is not verified', () => {
  it('counts the fixes of every applied transaction whose re-read did not match, and says so in the last line', () => {
    expect(unverifiedFixes(plan, status([true, true]))).toBe(0);
    expect(unverifiedFixes(plan, status([false, true]))).toBe(2);
    expect(repairSummary('t', status([true, false]), 0, unverifiedFixes(plan, status([true, false])))).toBe(
      'Repair of t: 3 of 3 fixes done (1 NOT verified: re-read them), 0 refused, 0 failed.\n',
    );
    expect(repairSummary('t', status([true, true]), 0)).toBe('Repair of t: 3 of 3 fixes done, 0 refused, 0 failed.\n');
  });
});

describe('repair --execute: an unknown outcome is neither done nor failed', () => {
  it('counts fixes whose transaction may have been applied on their own, with what to do', () => {
    const failed = {
      planId: 'p',
      phase: 'failed',
      finished: 1,
      transactions: [],
      fixes: [
        { index: 0, state: 'succeeded' },
        { index: 1, state: 'outcome-unknown' },
        { index: 2, state: 'not-sent' },
      ],
    } as unknown as RepairStatusView;
    expect(repairSummary('t', failed, 0)).toBe(
      'Repair of t: 1 of 3 fixes done, 1 refused, 0 failed, 1 with an unknown outcome (may have been applied: look them up).\n',
    );
  });
});
