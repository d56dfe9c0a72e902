import { describe, expect, it } from 'vitest';
import type { Problem } from '../model';
import { PROBLEM_ID_PATTERN, problemId, selectProblems } from './select';

const problems: Problem[] = [
  { kind: 'orphan-lock', rule: 'HANDLE', value: 'ada', lock: { PK: 'UNIQ#HANDLE#ada', SK: 'LOCK' } },
  { kind: 'missing-lock', rule: 'EMAIL', value: 'b@x.io', accounts: [{ PK: 'ACCT#b', SK: 'PROFILE' }] },
  {
    kind: 'orphan-lock',
    rule: 'EMAIL',
    value: 'c@x.io',
    scope: { org: 'acme', app: 'x' },
    lock: { SK: 'LOCK', PK: 'UNIQ#EMAIL#acme#c@x.io' },
  },
];

describe('selectProblems', () => {
  it.each([
    ['everything', {}, [0, 1, 2], 0],
    ['one kind', { kinds: ['orphan-lock' as const] }, [0, 2], 0],
    ['hand-picked ids', { ids: [problemId(problems[2]!), problemId(problems[1]!)] }, [1, 2], 0],
    ['ids and a kind together', { kinds: ['missing-lock' as const], ids: [problemId(problems[0]!), problemId(problems[1]!)] }, [1], 0],
    ['ids the report does not hold are counted', { ids: [problemId(problems[0]!), 'gone'] }, [0], 1],
  ])('selects %s', (_, selection, expected, unknown) => {
    const selected = selectProblems(problems, selection);
    expect(selected.problems).toEqual(expected.map((i) => problems[i]));
    expect(selected.unknownIds).toBe(unknown);
  });

  it('gives the same id whatever the order of key and scope attributes', () => {
    const reordered: Problem = {
      kind: 'orphan-lock',
      rule: 'EMAIL',
      value: 'c@x.io',
      scope: { app: 'x', org: 'acme' },
      lock: { PK: 'UNIQ#EMAIL#acme#c@x.io', SK: 'LOCK' },
    };
    expect(problemId(reordered)).toBe(problemId(problems[2]!));
    expect(problemId(problems[0]!)).not.toBe(problemId(problems[2]!));
  });

  it('ids are short, of one shape, and distinct over many similar problems', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) =>
      problemId({ kind: 'orphan-lock', rule: 'EMAIL', value: `u${i}@x.io`, lock: { PK: `UNIQ#EMAIL#u${i}@x.io`, SK: 'LOCK' } }),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => PROBLEM_ID_PATTERN.test(id))).toBe(true);
  });
});
