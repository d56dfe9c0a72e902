import { describe, expect, it } from 'vitest';
import type { KeySchema } from './model';
import { base64Decode, base64Encode, formatKey, fromPlainValue, keyId, keyOf, toPlainValue, toTypedKey } from './plain-key';

describe('base64', () => {
  it.each([
    [[], ''],
    [[0x66], 'Zg=='],
    [[0x66, 0x6f], 'Zm8='],
    [[0x66, 0x6f, 0x6f], 'Zm9v'],
    [[0, 255, 128, 7, 64], 'AP+AB0A='],
  ])('encodes %j as %s and back', (bytes, text) => {
    expect(base64Encode(new Uint8Array(bytes))).toBe(text);
    expect([...(base64Decode(text) ?? [])]).toEqual(bytes);
  });

  it('matches a reference encoder on every byte value', () => {
    const all = new Uint8Array(256).map((_, i) => i);
    expect(base64Encode(all)).toBe(Buffer.from(all).toString('base64'));
  });

  it('rejects text that is not base64', () => {
    expect(base64Decode('a*b=')).toBeUndefined();
    expect(base64Decode('abcde')).toBeUndefined();
  });
});

describe('plain values', () => {
  it.each([
    [{ S: 'UNIQ#EMAIL#a#b' }, 'UNIQ#EMAIL#a#b'],
    [{ N: '42' }, 42],
    [{ N: '-1.5' }, -1.5],
    [{ N: '12345678901234567890123' }, '12345678901234567890123'],
    [{ N: '1.50' }, '1.50'],
    [{ B: new Uint8Array([1, 2, 3]) }, 'AQID'],
    [{ BOOL: true }, undefined],
    [undefined, undefined],
  ])('%j → %j', (av, plain) => {
    expect(toPlainValue(av)).toEqual(plain);
  });

  it('round-trips each key type', () => {
    expect(fromPlainValue('x', 'S')).toEqual({ S: 'x' });
    expect(fromPlainValue(42, 'N')).toEqual({ N: '42' });
    expect(fromPlainValue('12345678901234567890123', 'N')).toEqual({ N: '12345678901234567890123' });
    expect(fromPlainValue('AQID', 'B')).toEqual({ B: new Uint8Array([1, 2, 3]) });
    expect(() => fromPlainValue('**', 'B')).toThrow(/not base64/);
  });
});

describe('keys', () => {
  const both: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
  const hashOnly: KeySchema = { hash: { name: 'id', type: 'N' } };

  it('extracts only key attributes', () => {
    expect(keyOf({ PK: { S: 'ACCT#1' }, SK: { S: 'PROFILE' }, email: { S: 'x' } }, both)).toEqual({ PK: 'ACCT#1', SK: 'PROFILE' });
    expect(keyOf({ id: { N: '7' }, name: { S: 'x' } }, hashOnly)).toEqual({ id: 7 });
  });

  it('gives stable, distinct ids', () => {
    expect(keyId({ SK: 'PROFILE', PK: 'ACCT#1' }, both)).toBe('["ACCT#1","PROFILE"]');
    expect(keyId({ id: 7 }, hashOnly)).toBe('[7]');
    expect(keyId({ PK: 'a', SK: 'b#c' }, both)).not.toBe(keyId({ PK: 'a#b', SK: 'c' }, both));
  });

  it('converts back to typed keys and formats for people', () => {
    expect(toTypedKey({ PK: 'ACCT#1', SK: 'PROFILE' }, both)).toEqual({ PK: { S: 'ACCT#1' }, SK: { S: 'PROFILE' } });
    expect(toTypedKey({ id: 7 }, hashOnly)).toEqual({ id: { N: '7' } });
    expect(() => toTypedKey({ PK: 'x' }, both)).toThrow(/SK/);
    expect(formatKey({ PK: 'ACCT#1', SK: 'PROFILE' }, both)).toBe('ACCT#1 / PROFILE');
  });
});
