/**
 * Makes characters a person cannot see visible: bidi controls (an RLO can make `evil‮txt.exe` read
 * backwards), zero-width and other invisible characters, control characters, and spaces that only
 * look like a space. What a support person reads must be what the key really is. Pure.
 */

/** A run of ordinary text, or one hidden character shown by its code point and name. */
export type VisiblePart = { readonly text: string } | { readonly code: string; readonly name: string };

const NAMES: Readonly<Record<number, string>> = {
  0x00a0: 'NBSP',
  0x00ad: 'SHY',
  0x034f: 'CGJ',
  0x061c: 'ALM',
  0x115f: 'HANGUL FILLER',
  0x1160: 'HANGUL FILLER',
  0x180e: 'MVS',
  0x200b: 'ZWSP',
  0x200c: 'ZWNJ',
  0x200d: 'ZWJ',
  0x200e: 'LRM',
  0x200f: 'RLM',
  0x2028: 'LSEP',
  0x2029: 'PSEP',
  0x202a: 'LRE',
  0x202b: 'RLE',
  0x202c: 'PDF',
  0x202d: 'LRO',
  0x202e: 'RLO',
  0x202f: 'NNBSP',
  0x205f: 'MMSP',
  0x2060: 'WJ',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LRI',
  0x2067: 'RLI',
  0x2068: 'FSI',
  0x2069: 'PDI',
  0x3000: 'IDEOGRAPHIC SPACE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'BOM',
  0xffa0: 'HANGUL FILLER',
};

/** Bidi controls: they reorder what follows, so they are always shown, and shown first in warnings. */
const BIDI = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

function hiddenName(cp: number): string | undefined {
  const named = NAMES[cp];
  if (named) return named;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return 'CONTROL';
  if (cp >= 0x2000 && cp <= 0x200a) return 'SPACE';
  if (cp >= 0xfe00 && cp <= 0xfe0f) return undefined; // variation selectors shape emoji: visible in effect
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'TAG';
  return undefined;
}

const hex = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** Splits `text` into ordinary runs and hidden characters (in order); ordinary text comes back as one part. */
export function visibleParts(text: string): VisiblePart[] {
  const parts: VisiblePart[] = [];
  let run = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const name = hiddenName(cp);
    if (name === undefined) {
      run += ch;
      continue;
    }
    if (run) parts.push({ text: run });
    run = '';
    parts.push({ code: hex(cp), name });
  }
  if (run || parts.length === 0) parts.push({ text: run });
  return parts;
}

/** True when `text` holds a character {@link visibleParts} would mark. */
export function hasHiddenCharacters(text: string): boolean {
  return visibleParts(text).some((p) => 'code' in p);
}

/** True when `text` holds a bidi control. */
export function hasBidiControl(text: string): boolean {
  for (const ch of text) if (BIDI.has(ch.codePointAt(0) ?? 0)) return true;
  return false;
}

/** The text with each hidden character written as `⟨U+202E RLO⟩`: for titles, copies and plain-text places. */
export function visibleString(text: string): string {
  return visibleParts(text)
    .map((p) => ('code' in p ? `⟨${p.code} ${p.name}⟩` : p.text))
    .join('');
}

/**
 * JSON text with every hidden character inside its strings written as a `\uXXXX` escape: the same
 * JSON value (it parses back identically), but what is on screen is what the item holds.
 */
export function escapeHiddenInJson(json: string): string {
  let out = '';
  for (const ch of json) {
    const cp = ch.codePointAt(0) ?? 0;
    if (hiddenName(cp) === undefined || cp < 0x20)
      out += ch; // JSON.stringify already escapes C0 controls
    else for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  return out;
}
