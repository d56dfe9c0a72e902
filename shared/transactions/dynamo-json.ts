/** DynamoDB JSON helpers: typed keys from plain keys (with type checks) and expression placeholders. */
import type { KeyAttribute, KeySchema, KeyType, PlainKey, PlainValue } from '../model';
import { base64Decode } from '../plain-key';
import { err, ok, type Result } from '../result';
import { shownText } from '../terminal-text';
import type { AttributeValueJson, ItemJson } from './types';

/** DynamoDB's number syntax (up to 38 significant digits is checked by the service; the shape is checked here). */
const NUMBER_RE = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Converts one plain key value to DynamoDB JSON of the key's type, or says precisely why it cannot be. */
export function keyValueJson(attr: KeyAttribute, value: PlainValue, field: string): Result<AttributeValueJson> {
  switch (attr.type) {
    case 'S':
      if (typeof value !== 'string')
        return err('validation', `${attr.name} is a string key (S) but ${field} gives the number ${value}`, { field });
      return ok({ S: value });
    case 'N': {
      const text = typeof value === 'number' ? String(value) : value.trim();
      if (!NUMBER_RE.test(text))
        return err('validation', `${attr.name} is a number key (N) but ${field} gives ${JSON.stringify(value)}`, { field });
      return ok({ N: text });
    }
    case 'B':
      if (typeof value !== 'string' || value.length === 0 || base64Decode(value) === undefined) {
        return err('validation', `${attr.name} is a binary key (B) but ${field} is not base64 text: ${JSON.stringify(value)}`, { field });
      }
      return ok({ B: value });
  }
}

/** Converts a plain key to DynamoDB JSON, checking it has exactly the table's key attributes, of the right types. */
export function keyJson(key: PlainKey, keys: KeySchema, field: string): Result<ItemJson> {
  const expected = keys.range ? [keys.hash, keys.range] : [keys.hash];
  const extra = Object.keys(key).filter((name) => !expected.some((a) => a.name === name));
  if (extra.length > 0) {
    return err(
      'validation',
      `${field} has ${extra.map((n) => `\`${n}\``).join(', ')}, which is not a key attribute of this table (keys: ${expected.map((a) => a.name).join(', ')})`,
      { field },
    );
  }
  const out: Record<string, AttributeValueJson> = {};
  for (const attr of expected) {
    const value = key[attr.name];
    if (value === undefined) return err('validation', `${field} lacks the key attribute \`${attr.name}\``, { field });
    const typed = keyValueJson(attr, value, `${field}.${attr.name}`);
    if (!typed.ok) return typed;
    out[attr.name] = typed.value;
  }
  return ok(out);
}

/** The single type letter of a DynamoDB JSON value (S, N, B, BOOL, NULL). */
export function typeOf(value: AttributeValueJson): KeyType | 'BOOL' | 'NULL' {
  if ('S' in value) return 'S';
  if ('N' in value) return 'N';
  if ('B' in value) return 'B';
  if ('BOOL' in value) return 'BOOL';
  return 'NULL';
}

/** The plain text of a DynamoDB JSON value, for messages (`ACCT#a1`, `42`, base64). */
export function textOf(value: AttributeValueJson | undefined): string | undefined {
  if (value === undefined) return undefined;
  if ('S' in value) return value.S;
  if ('N' in value) return value.N;
  if ('B' in value) return value.B;
  if ('BOOL' in value) return String(value.BOOL);
  return 'null';
}

/** Shows a DynamoDB JSON key to a person: `hash / range`, hash first whatever the object's order. */
export function keyText(key: ItemJson, keys?: KeySchema): string {
  if (keys) {
    const hash = shownText(textOf(key[keys.hash.name]) ?? '?');
    return keys.range ? `${hash} / ${shownText(textOf(key[keys.range.name]) ?? '?')}` : hash;
  }
  return Object.values(key)
    .map((v) => shownText(textOf(v) ?? ''))
    .join(' / ');
}

/** Converts a plain value to DynamoDB JSON of a given key type without checks (values already validated). */
export function plainToJson(value: PlainValue, type: KeyType): AttributeValueJson {
  if (type === 'S') return { S: String(value) };
  if (type === 'N') return { N: String(value) };
  return { B: String(value) };
}

/**
 * Placeholder allocator for one action's expressions: every attribute name goes through `#…`
 * and every value through `:…`, so reserved words (`name`, `user`, `status`…) and names
 * with `#` or `.` are always safe. Readable aliases make the preview easy to read.
 */
export class Placeholders {
  private readonly names: Record<string, string> = {};
  private readonly values: Record<string, AttributeValueJson> = {};

  /** Returns the `#alias` for an attribute name (the same name gets the same alias). */
  name(attribute: string, alias: string): string {
    for (const [k, v] of Object.entries(this.names)) if (v === attribute) return k;
    return this.unique(`#${alias}`, this.names, attribute);
  }

  /** Returns a fresh `:alias` bound to the value (equal values share one placeholder). */
  value(value: AttributeValueJson, alias: string): string {
    const text = JSON.stringify(value);
    for (const [k, v] of Object.entries(this.values)) if (JSON.stringify(v) === text) return k;
    return this.unique(`:${alias}`, this.values, value);
  }

  /** The ExpressionAttributeNames/Values fields (omitted when empty, as DynamoDB rejects empty maps). */
  fields(): { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, AttributeValueJson> } {
    const out: { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, AttributeValueJson> } = {};
    if (Object.keys(this.names).length > 0) out.ExpressionAttributeNames = { ...this.names };
    if (Object.keys(this.values).length > 0) out.ExpressionAttributeValues = { ...this.values };
    return out;
  }

  private unique<T>(base: string, map: Record<string, T>, entry: T): string {
    let key = base;
    for (let i = 2; key in map; i++) key = `${base}${i}`;
    map[key] = entry;
    return key;
  }
}
