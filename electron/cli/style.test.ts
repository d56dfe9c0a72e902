import { describe, expect, it } from 'vitest';
import { ANSI, colorEnabled, PLAIN, styleFor } from './style';

describe('colorEnabled', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, true, false],
  ])('%j on a TTY=%s → %s', (env, tty, expected) => {
    expect(colorEnabled(env, tty)).toBe(expected);
  });

  it('plain style changes nothing; ANSI wraps and resets', () => {
    expect(PLAIN.bad('x')).toBe('x');
    expect(ANSI.bad('x')).toBe('\u001b[31mx\u001b[39m');
    expect(styleFor({})).toBe(PLAIN);
    expect(styleFor({ color: true })).toBe(ANSI);
  });
});
