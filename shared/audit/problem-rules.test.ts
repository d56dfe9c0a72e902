import { describe, expect, it } from 'vitest';
import type { LookupVerdict } from '../domain';
import { PROBLEM_KINDS, type Problem, type ProblemKind } from '../model';
import {
  ACCOUNT_PROBLEM_KINDS,
  accountProblemKinds,
  compareProblems,
  emptySummary,
  lockStatus,
  orphanRemains,
  ownerMismatchReason,
  problemOfStatus,
  problemsOfLocks,
  rowSummaryKinds,
  statusOfVerdict,
  verdictFor,
} from './problem-rules';
import type { GroupRow, LockStatus } from './types';

describe('verdictFor', () => {
  it.each([
    [0, 0, 'free'],
    [0, 1, 'orphan'],
    [0, 2, 'orphan'],
    [1, 1, 'held'],
    [1, 0, 'unprotected'],
    [2, 1, 'duplicate'],
    [3, 0, 'duplicate'],
  ])('%i holders, %i locks → %s', (holders, locks, verdict) => {
    expect(verdictFor(holders, locks)).toBe(verdict);
  });
});

describe('verdict → lock status → problem kind', () => {
  it.each<[LookupVerdict, LockStatus | undefined, ProblemKind | undefined, boolean]>([
    ['held', 'ok', undefined, false],
    ['unprotected', 'missing', 'missing-lock', false],
    ['duplicate', 'duplicate', 'duplicate-value', false],
    ['free', undefined, undefined, false],
    ['orphan', undefined, undefined, true],
  ])('%s → status %s → kind %s (an orphan row stays: %s)', (verdict, status, kind, orphan) => {
    expect(statusOfVerdict(verdict)).toBe(status);
    expect(status === undefined ? undefined : problemOfStatus(status)).toBe(kind);
    expect(orphanRemains(verdict)).toBe(orphan);
  });

  it('maps owner-mismatch to its own kind', () => {
    expect(problemOfStatus('owner-mismatch')).toBe('owner-mismatch');
  });
});

describe('lockStatus', () => {
  it.each<[boolean, boolean, boolean, LockStatus]>([
    [false, false, false, 'ok'],
    [true, false, false, 'missing'],
    [false, true, false, 'duplicate'],
    [false, false, true, 'owner-mismatch'],
    [true, true, false, 'duplicate'],
    [true, false, true, 'missing'],
    [false, true, true, 'duplicate'],
    [true, true, true, 'duplicate'],
  ])('missing %s, duplicate %s, owner mismatch %s → %s', (missing, duplicate, mismatch, status) => {
    expect(lockStatus(missing, duplicate, mismatch)).toBe(status);
  });
});

describe('account problem kinds', () => {
  it('are the three account kinds in report order', () => {
    expect(ACCOUNT_PROBLEM_KINDS).toEqual(['missing-lock', 'duplicate-value', 'owner-mismatch']);
  });

  it.each<[boolean, boolean, boolean, ProblemKind[]]>([
    [false, false, false, []],
    [true, false, false, ['missing-lock']],
    [false, true, false, ['duplicate-value']],
    [false, false, true, ['owner-mismatch']],
    [true, true, false, ['missing-lock', 'duplicate-value']],
    [true, false, true, ['missing-lock', 'owner-mismatch']],
    [false, true, true, ['duplicate-value', 'owner-mismatch']],
    [true, true, true, ['missing-lock', 'duplicate-value', 'owner-mismatch']],
  ])('missing %s, duplicate %s, owner mismatch %s → %j', (missing, duplicate, mismatch, kinds) => {
    expect(accountProblemKinds(missing, duplicate, mismatch)).toEqual(kinds);
  });

  it.each<[LockStatus[], ProblemKind[]]>([
    [[], []],
    [['ok', 'ok'], []],
    [
      ['owner-mismatch', 'missing'],
      ['missing-lock', 'owner-mismatch'],
    ],
    [
      ['duplicate', 'missing', 'missing'],
      ['missing-lock', 'duplicate-value'],
    ],
  ])('from lock statuses %j → %j (each kind once)', (statuses, kinds) => {
    expect(problemsOfLocks(statuses.map((status) => ({ status })))).toEqual(kinds);
  });
});

describe('rowSummaryKinds', () => {
  const account = (...statuses: LockStatus[]): GroupRow => ({
    kind: 'account',
    id: 'a',
    key: { PK: 'a' },
    locks: statuses.map((status) => ({ rule: 'r', value: 'v', normalized: 'v', status })),
    problems: [],
  });

  it.each<[string, GroupRow, ProblemKind[]]>([
    ['an orphan row', { kind: 'orphan-lock', id: 'o', key: { PK: 'o' }, rule: 'r', value: 'v' }, ['orphan-lock']],
    ['a malformed row', { kind: 'malformed-lock', id: 'm', key: { PK: 'm' }, value: '', reason: 'empty' }, ['malformed-lock']],
    ['a healthy account', account('ok'), []],
    ['an account missing two locks', account('missing', 'missing'), ['missing-lock', 'missing-lock']],
    ['a duplicate holder (counted once per value, elsewhere)', account('duplicate'), []],
    ['an owner mismatch', account('owner-mismatch', 'ok'), ['owner-mismatch']],
  ])('%s', (_name, row, kinds) => {
    expect(rowSummaryKinds(row)).toEqual(kinds);
  });
});

describe('emptySummary', () => {
  it('has every kind at zero', () => {
    expect(emptySummary()).toEqual(Object.fromEntries(PROBLEM_KINDS.map((k) => [k, 0])));
  });
});

describe('compareProblems', () => {
  const p = (kind: ProblemKind, value: string, extra: Partial<Problem> = {}): Problem => ({ kind, rule: 'email', value, ...extra });

  it.each<[string, Problem, Problem]>([
    ['kind first, in PROBLEM_KINDS order', p('orphan-lock', 'z'), p('missing-lock', 'a')],
    ['then rule', p('missing-lock', 'z', { rule: 'a' }), p('missing-lock', 'a', { rule: 'b' })],
    ['then value', p('missing-lock', 'a'), p('missing-lock', 'b')],
    ['then scope', p('missing-lock', 'a', { scope: { org: 'acme' } }), p('missing-lock', 'a', { scope: { org: 'globex' } })],
    ['then the lock key', p('orphan-lock', 'a', { lock: { PK: '1' } }), p('orphan-lock', 'a', { lock: { PK: '2' } })],
  ])('%s', (_name, first, second) => {
    expect(compareProblems(first, second)).toBeLessThan(0);
    expect(compareProblems(second, first)).toBeGreaterThan(0);
    expect(compareProblems(first, first)).toBe(0);
  });
});

describe('ownerMismatchReason', () => {
  it('names the owner and every holder', () => {
    expect(ownerMismatchReason('ACCT#b', ['ACCT#a', 'ACCT#c'])).toBe(
      'the lock names ACCT#b, which does not hold this value; held by ACCT#a, ACCT#c',
    );
  });
});
