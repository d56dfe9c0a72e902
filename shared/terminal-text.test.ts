import { describe, expect, it } from 'vitest';
import type { KeySchema, Problem } from './model';
import { formatKey } from './plain-key';
import { shownText, shownValue, terminalSafe, terminalSafeJson } from './terminal-text';
import { planRepairs } from './transactions/repair-plan';
import { q } from './transactions/build-common';
import { eventText } from './watch/watch-events';

const KEYS: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };

/** What an attacker can put in a key or value, by name. */
const ATTACKS: readonly (readonly [string, string])[] = [
  ['ESC (erase line)', 'a\u001b[2Kb'],
  ['BEL', 'a\u0007b'],
  ['CSI cursor up', 'a\u001b[1Ab'],
  ['OSC 52 clipboard', 'a\u001b]52;c;ZXZpbA==\u0007b'],
  ['C1 CSI U+009B', 'a\u009b31mb'],
  ['newline', 'a\nNo problems found.'],
  ['carriage return', 'a\rb'],
  ['DEL', 'a\u007fb'],
  ['bidi override', 'a\u202eb'],
];

/** Any C0, DEL, C1 or bidi control. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('text from items, marked wherever it is formatted', () => {
  it.each(ATTACKS)('%s: formatKey, q, repair labels and watch lines carry no raw control', (_name, hostile) => {
    expect(formatKey({ PK: hostile, SK: hostile }, KEYS)).not.toMatch(RAW);
    expect(q(hostile)).not.toMatch(RAW);
    const problem: Problem = {
      kind: 'orphan-lock',
      rule: 'HANDLE',
      value: hostile,
      lock: { PK: `UNIQ#HANDLE#${hostile}`, SK: 'LOCK' },
      scope: { tenant: hostile },
    };
    const plan = planRepairs([
      problem,
      { kind: 'duplicate-value', rule: 'EMAIL', value: hostile, accounts: [{ PK: hostile, SK: 'PROFILE' }] },
    ]);
    expect(plan.fixes[0]?.summary).not.toMatch(RAW);
    expect(plan.manual[0]?.why).not.toMatch(RAW);
    const cause = { eventName: 'INSERT' as const, keys: { PK: hostile, SK: 'LOCK' }, at: '2026-01-01T00:00:00Z', sequenceNumber: '1' };
    expect(eventText({ event: 'problem', problem, cause })).not.toMatch(RAW);
  });

  it('marks each character by its code point, the way the app marks hidden characters', () => {
    expect(shownText('eve\u001b[2K\u009b\u202eecila')).toBe('eve⟨U+001B CONTROL⟩[2K⟨U+009B CONTROL⟩⟨U+202E RLO⟩ecila');
    expect(shownValue('a\nb')).toBe('"a\\nb"');
    expect(formatKey({ PK: 'ACCT#1', SK: 'PROFILE' }, KEYS)).toBe('ACCT#1 / PROFILE');
  });
});

describe('terminalSafe (the writer\u2019s last line of defence)', () => {
  it('keeps newlines, tabs, a leading carriage return and the CLI\u2019s own colours', () => {
    const own = '\r\u001b[1mTable\u001b[22m: \u001b[32mcomplete\u001b[39m\n\tnext\n';
    expect(terminalSafe(own)).toBe(own);
  });

  it.each(ATTACKS)('%s inside a line is marked', (_name, hostile) => {
    expect(terminalSafe(`x ${hostile} y\n`).replace(/\n$/, '')).not.toMatch(
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      hostile.includes('\n') ? /\u001b|\u0007|\u009b|\u007f|\u202e|\r/ : RAW,
    );
  });

  it('marks an escape the CLI does not write itself, even one shaped like a colour (concealed text)', () => {
    expect(terminalSafe('\u001b[8mhidden\u001b[0m')).toBe('⟨U+001B CONTROL⟩[8mhidden⟨U+001B CONTROL⟩[0m');
  });
});

describe('terminalSafeJson', () => {
  it('escapes C1, DEL and bidi characters inside strings and parses back to the same value', () => {
    const value = { value: 'a\u009b31m\u007f\u202eb\u001b', n: 1 };
    const json = terminalSafeJson(JSON.stringify(value));
    expect(json).not.toMatch(RAW);
    expect(JSON.parse(json)).toEqual(value);
  });
});
