import { describe, expect, it } from 'vitest';
import type { LiveWatchEvent } from '../../../../shared/watch/watch-events';
import { applyLiveEvent, NO_LIVE_PROBLEMS } from './live-problems';

const cause = { eventName: 'REMOVE' as const, keys: { PK: 'ACCT#a', SK: 'PROFILE' }, at: '2026-12-01T10:00:00.000Z', sequenceNumber: '5' };
const orphan = (value: string) => ({
  kind: 'orphan-lock' as const,
  rule: 'HANDLE',
  value,
  lock: { PK: `UNIQ#HANDLE#${value}`, SK: 'LOCK' },
});
// Omit over each member of the union (a plain Omit keeps only the properties all members share).
type WithoutWatchId<E> = E extends unknown ? Omit<E, 'watchId'> : never;
const ev = (e: WithoutWatchId<LiveWatchEvent>): LiveWatchEvent => ({ ...e, watchId: 'w' }) as LiveWatchEvent;

describe('applyLiveEvent', () => {
  it.each([
    {
      name: 'a problem appears, newest first',
      events: [ev({ event: 'problem', problem: orphan('a'), cause }), ev({ event: 'problem', problem: orphan('b'), cause })],
      values: ['b', 'a'],
      resolved: 0,
    },
    {
      name: 'a replayed problem is listed once',
      events: [ev({ event: 'problem', problem: orphan('a'), cause }), ev({ event: 'problem', problem: orphan('a'), cause })],
      values: ['a'],
      resolved: 0,
    },
    {
      name: 'a resolved problem clears',
      events: [ev({ event: 'problem', problem: orphan('a'), cause }), ev({ event: 'resolved', problem: orphan('a'), cause })],
      values: [],
      resolved: 1,
    },
    {
      name: 'resolving what was never listed changes nothing',
      events: [ev({ event: 'resolved', problem: orphan('a'), cause })],
      values: [],
      resolved: 0,
    },
  ])('$name', ({ events, values, resolved }) => {
    const state = events.reduce(applyLiveEvent, NO_LIVE_PROBLEMS);
    expect(state.problems.map((p) => p.problem.value)).toEqual(values);
    expect(state.resolved).toBe(resolved);
  });

  it('keeps a gap and its reason (what to do) as the status', () => {
    const state = [
      ev({ event: 'status', status: 'live' }),
      ev({ event: 'status', status: 'gap', reason: 'changes in that gap were missed — run an audit' }),
    ].reduce(applyLiveEvent, NO_LIVE_PROBLEMS);
    expect([state.status, state.reason]).toEqual(['gap', 'changes in that gap were missed — run an audit']);
  });

  it('takes the status and its reason', () => {
    const state = [
      ev({ event: 'status', status: 'lagging' }),
      ev({ event: 'status', status: 'stopped', reason: 'stream disabled' }),
    ].reduce(applyLiveEvent, NO_LIVE_PROBLEMS);
    expect([state.status, state.reason]).toEqual(['stopped', 'stream disabled']);
  });
});
