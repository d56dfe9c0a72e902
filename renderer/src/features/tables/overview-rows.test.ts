import { describe, expect, it } from 'vitest';
import type { AuditHistoryEntry } from '../../../../shared/audit/history';
import { overviewRows, trendText, TREND_AUDITS, type SurveyState } from './overview-rows';

const entry = (table: string, problems: number, time: string, complete = true): AuditHistoryEntry => ({
  time,
  table,
  target: { endpoint: 'http://localhost:8000', region: 'us-east-1' },
  convention: { preset: 'uniq', id: 'abcd1234' },
  source: 'live',
  complete,
  items: 10,
  accounts: 3,
  locks: 6,
  summary: { 'orphan-lock': problems, 'missing-lock': 0, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 0 },
});
const survey = (confidence: number): SurveyState => ({
  state: 'done',
  view: { table: 't', locks: 'locks', convention: { preset: 'uniq', confidence } },
});

describe('overview rows', () => {
  it('takes the last audit, the trend of complete audits only, and who Audit all may audit', () => {
    const history = [
      entry('a', 5, '2026-01-01T00:00:00Z'),
      entry('b', 1, '2026-01-01T00:00:00Z'),
      entry('a', 2, '2026-01-02T00:00:00Z'),
      entry('a', 9, '2026-01-03T00:00:00Z', false),
    ];
    const surveys = new Map<string, SurveyState>([
      ['a', survey(1)],
      ['b', survey(0.5)],
      ['c', { state: 'done', view: { table: 'c', locks: 'empty' } }],
    ]);
    const [a, b, c] = overviewRows(['a', 'b', 'c'], surveys, history);
    expect(a).toMatchObject({
      table: 'a',
      auditable: true,
      last: { complete: false, time: '2026-01-03T00:00:00Z' },
      trend: { problems: [5, 2] },
    });
    expect(a?.trendText).toBe('2 complete audits: 5, 2 problems (oldest first), falling');
    expect(b).toMatchObject({ auditable: false, trend: { problems: [1] } });
    expect(c).toMatchObject({ auditable: false, trend: { problems: [] }, trendText: 'no complete audits yet' });
    expect(c?.last).toBeUndefined();
  });

  it('keeps only the newest audits in a trend', () => {
    const history = Array.from({ length: TREND_AUDITS + 5 }, (_, i) => entry('a', i, new Date(Date.UTC(2026, 0, 1 + i)).toISOString()));
    const [a] = overviewRows(['a'], new Map(), history);
    expect(a?.trend.problems).toHaveLength(TREND_AUDITS);
    expect(a?.trend.problems[0]).toBe(5);
    expect(a?.survey).toEqual({ state: 'loading' });
  });

  it('says the direction in words', () => {
    expect(trendText([1, 3])).toContain('rising');
    expect(trendText([2, 2])).toContain('steady');
    expect(trendText([4])).toBe('1 complete audit: 4 problems (oldest first)');
  });
});
