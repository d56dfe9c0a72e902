import { describe, expect, it } from 'vitest';
import { tokenizeJson } from './json-tokens';

describe('tokenizeJson', () => {
  it('reassembles to the exact input text', () => {
    const text = JSON.stringify(
      { TransactItems: [{ Put: { Item: { PK: { S: 'UNIQ#EMAIL#a"b' }, n: { N: '12' } } } }], ok: true, x: null },
      null,
      2,
    );
    expect(
      tokenizeJson(text)
        .map((t) => t.text)
        .join(''),
    ).toBe(text);
  });

  it('tells keys from string values', () => {
    const tokens = tokenizeJson('{"PK": "ACCT#1"}');
    expect(tokens.filter((t) => t.kind === 'key').map((t) => t.text)).toEqual(['"PK"']);
    expect(tokens.filter((t) => t.kind === 'string').map((t) => t.text)).toEqual(['"ACCT#1"']);
  });

  it('keeps markup-looking values as plain string tokens', () => {
    const tokens = tokenizeJson(JSON.stringify({ v: '<img src=x onerror=alert(1)>' }));
    expect(tokens.find((t) => t.kind === 'string')?.text).toBe('"<img src=x onerror=alert(1)>"');
  });

  it('finds numbers and literals, not digits inside strings', () => {
    const tokens = tokenizeJson('[1.5e3, "a1", false, null]');
    expect(tokens.filter((t) => t.kind === 'number').map((t) => t.text)).toEqual(['1.5e3']);
    expect(tokens.filter((t) => t.kind === 'literal').map((t) => t.text)).toEqual(['false', 'null']);
  });
});
