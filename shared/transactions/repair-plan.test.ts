import { describe, expect, it } from 'vitest';
import type { ConventionWarning } from '../audit/fit';
import type { Problem } from '../model';
import { planRepairs } from './repair-plan';

describe('planRepairs', () => {
  it('releases orphans, claims missing locks and leaves the rest to a human', () => {
    const problems: Problem[] = [
      { kind: 'orphan-lock', rule: 'HANDLE', value: 'ada', lock: { PK: 'UNIQ#HANDLE#Ada', SK: 'LOCK' } },
      { kind: 'missing-lock', rule: 'EMAIL', value: 'b@x.io', accounts: [{ PK: 'ACCT#b', SK: 'PROFILE' }] },
      {
        kind: 'duplicate-value',
        rule: 'EMAIL',
        value: 'c@x.io',
        accounts: [
          { PK: 'ACCT#c1', SK: 'PROFILE' },
          { PK: 'ACCT#c2', SK: 'PROFILE' },
        ],
      },
      { kind: 'owner-mismatch', rule: 'EMAIL', value: 'd@x.io', reason: 'x' },
      { kind: 'malformed-lock', value: 'UNIQ#HANDLE#undefined', reason: 'the literal undefined' },
    ];
    const plan = planRepairs(problems);
    expect(plan.fixes.map((f) => f.operation)).toEqual([
      { kind: 'release', rule: 'HANDLE', value: 'ada', lock: { PK: 'UNIQ#HANDLE#Ada', SK: 'LOCK' } },
      { kind: 'claim', rule: 'EMAIL', value: 'b@x.io', account: { PK: 'ACCT#b', SK: 'PROFILE' } },
    ]);
    expect(plan.manual.map((m) => m.problem.kind)).toEqual(['duplicate-value', 'owner-mismatch', 'malformed-lock']);
    expect(plan.manual[0]!.why).toBe('2 accounts hold email `c@x.io`: a person must decide who keeps it');
  });

  it('leaves a missing lock held by several accounts to a person (no guess at who keeps it)', () => {
    const accounts = [
      { PK: 'ACCT#c1', SK: 'PROFILE' },
      { PK: 'ACCT#c2', SK: 'PROFILE' },
    ];
    const plan = planRepairs([{ kind: 'missing-lock', rule: 'EMAIL', value: 'c@x.io', accounts }]);
    expect(plan.fixes).toEqual([]);
    expect(plan.manual.map((m) => m.why)).toEqual([
      '2 accounts hold email `c@x.io` and no lock protects it: a person must decide who keeps it, then claim it for that account',
    ]);
  });

  it('leaves every fix of a rule the audit warns about to a person, with the warning as the reason; other rules are fixed', () => {
    const warning: ConventionWarning = {
      rule: 'EMAIL',
      kind: 'values-elsewhere',
      counts: { rule: 'EMAIL', held: 9, healthy: 0, missing: 9, malformed: 0, embedded: 9, unmatched: 9 },
      message: 'the convention does not explain this table for rule EMAIL: 9 of its 9 missing values stand in keys of another layout',
    };
    const plan = planRepairs(
      [
        { kind: 'missing-lock', rule: 'EMAIL', value: 'b@x.io', accounts: [{ PK: 'ACCT#b', SK: 'PROFILE' }] },
        { kind: 'orphan-lock', rule: 'EMAIL', value: 'z@x.io', lock: { PK: 'UNIQ#EMAIL#z@x.io', SK: 'LOCK' } },
        { kind: 'orphan-lock', rule: 'HANDLE', value: 'ada', lock: { PK: 'UNIQ#HANDLE#ada', SK: 'LOCK' } },
      ],
      [warning],
    );
    expect(plan.fixes.map((f) => f.operation.kind === 'release' && f.operation.rule)).toEqual(['HANDLE']);
    expect(plan.manual.map((m) => m.problem.value)).toEqual(['b@x.io', 'z@x.io']);
    for (const m of plan.manual)
      expect(m.why).toMatch(/^the convention does not explain this table for rule EMAIL: .*No automatic fix for rule EMAIL/);
  });
});
