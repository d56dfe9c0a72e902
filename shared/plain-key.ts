/**
 * Item keys as plain values (what reports, the UI and the CLI show) and back to typed
 * attribute values (what the SDK needs). B keys travel as base64, encoded here by hand
 * because shared/ may not import node:buffer and atob/btoa are not Latin-1-safe for bytes.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Item, KeySchema, KeyType, PlainKey, PlainValue } from './model';
import { shownText } from './terminal-text';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX: Readonly<Record<string, number>> = Object.fromEntries([...B64].map((c, i) => [c, i]));

/** Encodes bytes as standard base64 (with `=` padding). */
export function base64Encode(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = (bytes[i] ?? 0) << 16;
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + '=';
  }
  return out;
}

/** Decodes standard base64 (padding optional); returns undefined when the text is not base64. */
export function base64Decode(text: string): Uint8Array | undefined {
  const clean = text.replace(/=+$/, '');
  if (clean.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (const c of clean) {
    const v = B64_INDEX[c];
    if (v === undefined) return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/**
 * Converts one key attribute value to a plain value: S → string, N → number when the
 * number survives a round trip through a JS number exactly (else its decimal text), B → base64.
 * Returns undefined for non-key types.
 */
export function toPlainValue(value: AttributeValue | undefined): PlainValue | undefined {
  if (value === undefined) return undefined;
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) {
    const n = Number(value.N);
    return Number.isFinite(n) && String(n) === value.N ? n : value.N;
  }
  if (value.B !== undefined) return base64Encode(value.B);
  return undefined;
}

/** Converts a plain value back to a typed attribute value of the key's type (B from base64). */
export function fromPlainValue(value: PlainValue, type: KeyType): AttributeValue {
  switch (type) {
    case 'S':
      return { S: String(value) };
    case 'N':
      return { N: String(value) };
    case 'B': {
      const bytes = base64Decode(String(value));
      if (!bytes) throw new Error(`not base64: ${String(value)}`);
      return { B: bytes };
    }
  }
}

/** The key of `item` as plain values (only the table's key attributes). */
export function keyOf(item: Item, keys: KeySchema): PlainKey {
  const hash = toPlainValue(item[keys.hash.name]) ?? '';
  if (!keys.range) return { [keys.hash.name]: hash };
  const range = toPlainValue(item[keys.range.name]) ?? '';
  return { [keys.hash.name]: hash, [keys.range.name]: range };
}

/** Converts a plain key back to the typed key the SDK expects (GetItem, Delete, ConditionCheck). */
export function toTypedKey(key: PlainKey, keys: KeySchema): Item {
  const out: Item = {};
  const hash = key[keys.hash.name];
  if (hash === undefined) throw new Error(`key lacks ${keys.hash.name}`);
  out[keys.hash.name] = fromPlainValue(hash, keys.hash.type);
  if (keys.range) {
    const range = key[keys.range.name];
    if (range === undefined) throw new Error(`key lacks ${keys.range.name}`);
    out[keys.range.name] = fromPlainValue(range, keys.range.type);
  }
  return out;
}

/**
 * A canonical, stable id for a key: the JSON array of its hash (and range) value, e.g.
 * `["ACCT#a1f9c3","PROFILE"]`. Used as the group/row id; equal keys give equal ids.
 */
export function keyId(key: PlainKey, keys: KeySchema): string {
  const hash = key[keys.hash.name] ?? '';
  return keys.range ? JSON.stringify([hash, key[keys.range.name] ?? '']) : JSON.stringify([hash]);
}

/**
 * Shows a key to a person: `ACCT#a1f9c3 / PROFILE` (hash, then range when present). Key text is
 * chosen by whoever writes items, so its controls and bidi characters are marked, never raw.
 */
export function formatKey(key: PlainKey, keys: KeySchema): string {
  const hash = shownText(String(key[keys.hash.name] ?? ''));
  return keys.range ? `${hash} / ${shownText(String(key[keys.range.name] ?? ''))}` : hash;
}
