/** Splits pretty-printed JSON into typed tokens so it can be highlighted with React elements, never markup. */

/** One run of JSON text and what it is. */
export interface JsonToken {
  readonly kind: 'key' | 'string' | 'number' | 'literal' | 'punct';
  readonly text: string;
}

// Strings (keys when followed by a colon), numbers, literals; everything else is punctuation/whitespace.
const TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** Tokenizes JSON text (normally the output of `JSON.stringify(value, null, 2)`). */
export function tokenizeJson(text: string): JsonToken[] {
  const tokens: JsonToken[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index;
    if (start > last) tokens.push({ kind: 'punct', text: text.slice(last, start) });
    const [whole, str, colon, num, literal] = match;
    if (str !== undefined) {
      tokens.push({ kind: colon ? 'key' : 'string', text: str });
      if (colon) tokens.push({ kind: 'punct', text: colon });
    } else if (num !== undefined) {
      tokens.push({ kind: 'number', text: num });
    } else if (literal !== undefined) {
      tokens.push({ kind: 'literal', text: literal });
    }
    last = start + whole.length;
  }
  if (last < text.length) tokens.push({ kind: 'punct', text: text.slice(last) });
  return tokens;
}
