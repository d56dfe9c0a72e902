/**
 * Text bound for a terminal. Item data is chosen by whoever writes the table (an end user's username),
 * and a terminal obeys what it reads: ESC, CSI (also the one-byte C1 U+009B), OSC 52 (write the
 * clipboard), BEL, a carriage return or a newline can erase lines, forge "No problems found." or set
 * the window title. So text from items is shown with every control, DEL and C1 character and every
 * bidi control written as a visible mark (the app's own marks, see visible-text.ts). Pure.
 */
import { escapeHiddenInJson, visibleString } from './visible-text';

/** Item text as a person should read it on a terminal or a page: hidden characters written as `⟨U+001B CONTROL⟩`. */
export function shownText(text: string): string {
  return visibleString(text);
}

/** A value in quotes (JSON string syntax), hidden characters marked: `"ada⟨U+202E RLO⟩x"`. */
export function shownValue(value: unknown): string {
  return shownText(JSON.stringify(value) ?? String(value));
}

/** The colour sequences style.ts writes (SGR bold/dim/red/green/yellow and their resets): the only escapes allowed through. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const OWN_SGR = /\u001b\[(?:1|2|22|31|32|33|39)m/g;

/** Characters the readable output may carry raw: newline and tab (a leading `\r` is handled apart). */
const LAYOUT = /([\n\t])/;

/**
 * The last line of defence for readable CLI output: every control, DEL, C1 and bidi character is
 * marked, except newlines, tabs, a leading carriage return (progress lines rewrite themselves) and
 * the colour sequences the CLI itself writes. Text from items is already marked where it is
 * formatted; this catches what a formatter may have missed (an error message quoting a value).
 */
export function terminalSafe(text: string): string {
  const lead = text.startsWith('\r') ? '\r' : '';
  const body = lead ? text.slice(1) : text;
  if (!HIDDEN_CANDIDATE.test(body)) return text;
  let out = lead;
  let from = 0;
  for (const match of body.matchAll(OWN_SGR)) {
    out += markSegment(body.slice(from, match.index)) + match[0];
    from = match.index + match[0].length;
  }
  return out + markSegment(body.slice(from));
}

function markSegment(segment: string): string {
  return segment
    .split(LAYOUT)
    .map((part) => (part === '\n' || part === '\t' ? part : visibleString(part)))
    .join('');
}

/**
 * A fast pre-check: any C0 but newline/tab, DEL, C1, or a character from the ranges visible-text.ts
 * marks (spaces, zero-width, bidi, BOM, tags). False means the text needs no marks.
 */
const HIDDEN_CANDIDATE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- control and combining characters are what it looks for
  /[\u0000-\u0008\u000b-\u001f\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2069\u3000\u3164\ufeff\uffa0]|\udb40[\udc00-\udc7f]/;

/**
 * JSON for a terminal: every C1, DEL, bidi or invisible character inside its strings written as a
 * `\uXXXX` escape. The same JSON value (it parses back identically), so `--json` stays exact.
 */
export function terminalSafeJson(json: string): string {
  return HIDDEN_CANDIDATE.test(json) ? escapeHiddenInJson(json) : json;
}
