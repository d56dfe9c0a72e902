import { describe, expect, it } from 'vitest';
import type { ConnectionView, RepairPlanView } from '../../../../shared/contract';
import { repairBlocker } from './repair-plan-panel';

const plan = (over: Partial<RepairPlanView> = {}): RepairPlanView => ({
  planId: 'rp_1',
  table: 'accounts',
  connection: 'sandbox',
  expiresAt: '2026-01-01T00:00:00.000Z',
  fixes: [],
  transactions: [],
  manual: [],
  resolved: [],
  unknownIds: 0,
  actionCount: 14,
  confirmText: '14',
  executable: true,
  ...over,
});
const connection = (writable: boolean) => ({ label: 'sandbox', writable }) as ConnectionView;

describe('repairBlocker', () => {
  it.each([
    ['the count typed back on a writable connection', plan(), connection(true), '14', undefined],
    ['the count with spaces around it', plan(), connection(true), ' 14 ', undefined],
    ['another number', plan(), connection(true), '13', 'Type 14 (the number of actions) to confirm.'],
    [
      'a plan made read-only',
      plan({ executable: false, readOnlyReason: 'sandbox is read-only' }),
      connection(true),
      '14',
      'sandbox is read-only',
    ],
    ['a connection made read-only since', plan(), connection(false), '14', 'sandbox is read-only: allow writes on the connection first.'],
    ['a plan with nothing to do', plan({ actionCount: 0, confirmText: '0' }), connection(true), '0', 'Nothing to execute.'],
  ])('%s', (_, p, c, typed, expected) => {
    expect(repairBlocker(p, c, typed)).toBe(expected);
  });
});
