import { describe, expect, it } from 'vitest';
import { escapeHiddenInJson, hasBidiControl, hasHiddenCharacters, visibleParts, visibleString } from './visible-text';

describe('visibleParts', () => {
  it.each([
    ['plain ascii', 'ada@x.io', 'ada@x.io'],
    ['Arabic and Korean stay as they are', 'abc مرحبا_عالم 박지훈', 'abc مرحبا_عالم 박지훈'],
    ['a right-to-left override', 'abc \u202eevil', 'abc ⟨U+202E RLO⟩evil'],
    ['isolates and marks', '\u2067x\u2069\u200f', '⟨U+2067 RLI⟩x⟨U+2069 PDI⟩⟨U+200F RLM⟩'],
    ['zero-width and BOM', 'a\u200bd\u200dm\ufeffin', 'a⟨U+200B ZWSP⟩d⟨U+200D ZWJ⟩m⟨U+FEFF BOM⟩in'],
    ['controls, NBSP and en space', 'a\u0000b\tc\u00a0d\u2002e', 'a⟨U+0000 CONTROL⟩b⟨U+0009 CONTROL⟩c⟨U+00A0 NBSP⟩d⟨U+2002 SPACE⟩e'],
    ['a tag character (astral)', 'x\u{e0041}', 'x⟨U+E0041 TAG⟩'],
    ['an emoji with its variation selector', '❤️', '❤️'],
    ['empty', '', ''],
  ])('%s', (_name, input, shown) => {
    expect(visibleString(input)).toBe(shown);
  });

  it('gives runs and marks in order', () => {
    expect(visibleParts('a\u202eb')).toEqual([{ text: 'a' }, { code: 'U+202E', name: 'RLO' }, { text: 'b' }]);
  });

  it('tells hidden characters and bidi controls apart', () => {
    expect(hasHiddenCharacters('a\u200bb')).toBe(true);
    expect(hasBidiControl('a\u200bb')).toBe(false);
    expect(hasBidiControl('a\u2066b')).toBe(true);
    expect(hasHiddenCharacters('مرحبا')).toBe(false);
  });
});

describe('escapeHiddenInJson', () => {
  it('escapes hidden characters inside strings and parses back to the same value', () => {
    const value = { PK: 'UNIQ#HANDLE#abc \u202eevil', tag: 'x\u{e0041}', plain: 'مرحبا' };
    const text = escapeHiddenInJson(JSON.stringify(value));
    expect(text).toContain('\\u202e');
    expect(text).toContain('\\udb40\\udc41');
    expect(text).not.toContain('\u202e');
    expect(JSON.parse(text)).toEqual(value);
  });
});
