import { describe, expect, it } from 'vitest';
import { itemJson, typedKey } from './item-json';

describe('item json', () => {
  it('renders every attribute type in both forms, values as data', () => {
    const item = itemJson({
      PK: { S: '<img src=x onerror=alert(1)>' },
      n: { N: '12345678901234567890' },
      small: { N: '42' },
      b: { B: new Uint8Array([1, 2]) },
      m: { M: { x: { BOOL: true }, y: { NULL: true } } },
      l: { L: [{ SS: ['a'] }, { NS: ['1'] }] },
    });
    expect(item.dynamo).toMatchObject({ PK: { S: '<img src=x onerror=alert(1)>' }, b: { B: 'AQI=' }, n: { N: '12345678901234567890' } });
    expect(item.plain).toEqual({
      PK: '<img src=x onerror=alert(1)>',
      b: 'AQI=',
      l: [['a'], [1]],
      m: { x: true, y: null },
      n: '12345678901234567890',
      small: 42,
    });
  });

  it('types a plain key by the schema and refuses missing or extra attributes', () => {
    const schema = { hash: { name: 'PK', type: 'S' as const }, range: { name: 'SK', type: 'N' as const } };
    expect(typedKey({ PK: 'a', SK: 1 }, schema)).toEqual({ PK: { S: 'a' }, SK: { N: '1' } });
    expect(typedKey({ PK: 'a' }, schema)).toBeUndefined();
    expect(typedKey({ PK: 'a', XX: 1 }, schema)).toBeUndefined();
  });
});
