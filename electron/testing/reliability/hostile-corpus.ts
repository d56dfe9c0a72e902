/**
 * A corpus of hostile and odd tables and items for the bad-input reliability tests: odd key types,
 * hash-only tables, values with `#`, `%`, newlines, RTL and combining characters, 2048-byte keys,
 * empty strings, attributes of unexpected types, a ~400 KB item, locks without owner accounts.
 */
import type { Item, KeySchema } from '../../../shared/model';

/** Hostile values that are legal DynamoDB strings and must survive a round trip unchanged. */
export const HOSTILE_VALUES: readonly string[] = [
  'a#b%c',
  '%00%2F..%2F',
  'line\nbreak\r\nand\ttab',
  'مرحبا\u200fبالعالم',
  '\u202eevil.exe\u202c',
  'e\u0301te\u0301',
  'été',
  'Z\u0351\u0360a\u0344\u0315l\u0352go',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'UNIQ#HANDLE#nested',
  ' spaced ',
  '😀👩‍👩‍👧',
];

/** 2048 UTF-8 bytes: DynamoDB's partition key maximum (a lock key with a prefix cannot fit it). */
export const MAX_KEY_TEXT = `ACCT#${'k'.repeat(2048 - 5)}`;

/** The uniq-layout table (PK + SK): accounts with hostile values, their locks, orphans, malformed locks, odd types. */
export function uniqCorpus(): { keys: KeySchema; items: Item[]; orphans: string[] } {
  const items: Item[] = [];
  const orphans: string[] = [];
  HOSTILE_VALUES.forEach((value, i) => {
    items.push({ PK: { S: `ACCT#h${i}` }, SK: { S: 'PROFILE' }, username: { S: value } });
    items.push({ PK: { S: `UNIQ#HANDLE#${value.trim().toLowerCase()}` }, SK: { S: 'LOCK' } });
    // The same value as an e-mail nobody holds: an orphan lock of every hostile shape.
    items.push({ PK: { S: `UNIQ#EMAIL#${value.trim().toLowerCase()}` }, SK: { S: 'LOCK' } });
    orphans.push(value);
  });
  items.push(
    // Attributes of unexpected types where a string is expected.
    { PK: { S: 'ACCT#num' }, SK: { S: 'PROFILE' }, username: { N: '42' }, email: { L: [{ S: 'x@y' }] } },
    { PK: { S: 'ACCT#map' }, SK: { S: 'PROFILE' }, username: { M: { S: { S: 'nested' } } }, email: { BOOL: true } },
    { PK: { S: 'ACCT#null' }, SK: { S: 'PROFILE' }, username: { NULL: true }, email: { SS: ['a@b', 'c@d'] } },
    { PK: { S: 'ACCT#bin' }, SK: { S: 'PROFILE' }, username: { B: new Uint8Array([0, 255, 10]) } },
    // Empty strings (legal for non-key attributes) and a 2048-byte hash key.
    { PK: { S: 'ACCT#empty' }, SK: { S: 'PROFILE' }, username: { S: '' }, email: { S: ' ' } },
    { PK: { S: MAX_KEY_TEXT }, SK: { S: 'PROFILE' }, username: { S: 'longkey' } },
    // Malformed locks: empty value, literal undefined/null, wrong sort key, unknown rule.
    { PK: { S: 'UNIQ#HANDLE#' }, SK: { S: 'LOCK' } },
    { PK: { S: 'UNIQ#EMAIL#undefined' }, SK: { S: 'LOCK' } },
    { PK: { S: 'UNIQ#EMAIL#null' }, SK: { S: 'LOCK' } },
    { PK: { S: 'UNIQ#HANDLE#wrongsk' }, SK: { S: 'PROFILE' } },
    { PK: { S: 'UNIQ#PHONE#555' }, SK: { S: 'LOCK' } },
    // ~400 KB: just under DynamoDB's item size limit.
    { PK: { S: 'ACCT#big' }, SK: { S: 'PROFILE' }, username: { S: 'big' }, blob: { S: 'b'.repeat(395_000) } },
    { PK: { S: 'UNIQ#HANDLE#big' }, SK: { S: 'LOCK' }, blob: { S: 'l'.repeat(395_000) } },
  );
  return { keys: { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } }, items, orphans };
}

/** The marker layout (hash-only `userId`), hostile values as names, locks without any account. */
export function markerCorpus(): { keys: KeySchema; items: Item[] } {
  const items: Item[] = [];
  HOSTILE_VALUES.forEach((value, i) => {
    items.push({ userId: { S: `u${i}` }, name: { S: value } });
    items.push({ userId: { S: `NAME#${value.normalize('NFC')}` } });
    items.push({ userId: { S: `NAME#orphan-${value}` } });
  });
  items.push({ userId: { S: 'NAME#' } }, { userId: { S: 'typed' }, name: { N: '7' } }, { userId: { S: 'empty' }, name: { S: '' } });
  // `e\u0301te\u0301` and `été` are one value after NFC: one lock item, two holders (a duplicate-value).
  const unique = new Map(items.map((item) => [item.userId?.S, item]));
  return { keys: { hash: { name: 'userId', type: 'S' } }, items: [...unique.values()] };
}

/** Tables whose keys are not strings: no lock can live in them, and nothing may crash on them. */
export function oddKeyCorpus(): { keys: KeySchema; items: Item[] }[] {
  return [
    {
      keys: { hash: { name: 'id', type: 'N' } },
      items: [{ id: { N: '1' }, name: { S: 'ada' } }, { id: { N: '-3.5e10' }, name: { N: '1' } }, { id: { N: '0' } }],
    },
    {
      keys: { hash: { name: 'id', type: 'B' }, range: { name: 'n', type: 'N' } },
      items: [
        { id: { B: new Uint8Array([1, 2]) }, n: { N: '1' }, name: { S: 'ada' } },
        { id: { B: new Uint8Array([0]) }, n: { N: '2' } },
      ],
    },
  ];
}
