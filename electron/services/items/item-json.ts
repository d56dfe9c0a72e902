/** Items for the item viewer: DynamoDB JSON (typed, B as base64) and plain JSON, both safe to send over the bridge. */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { JsonValue } from '../../../shared/domain';
import type { KeySchema, PlainKey } from '../../../shared/model';

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** Plain form of a number: a JS number when exact, else the string DynamoDB sent. */
const plainNumber = (text: string): number | string => {
  const value = Number(text);
  return Number.isFinite(value) && String(value) === text ? value : text;
};

/** One attribute value as DynamoDB JSON. */
export function toDynamoJson(value: AttributeValue): JsonValue {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: true };
  if (value.M !== undefined) return { M: Object.fromEntries(Object.entries(value.M).map(([k, v]) => [k, toDynamoJson(v)])) };
  if (value.L !== undefined) return { L: value.L.map(toDynamoJson) };
  if (value.SS !== undefined) return { SS: [...value.SS] };
  if (value.NS !== undefined) return { NS: [...value.NS] };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  return null;
}

/** One attribute value as plain JSON. */
export function toPlainJson(value: AttributeValue): JsonValue {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return plainNumber(value.N);
  if (value.B !== undefined) return base64(value.B);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL !== undefined) return null;
  if (value.M !== undefined) return Object.fromEntries(Object.entries(value.M).map(([k, v]) => [k, toPlainJson(v)]));
  if (value.L !== undefined) return value.L.map(toPlainJson);
  if (value.SS !== undefined) return [...value.SS];
  if (value.NS !== undefined) return value.NS.map(plainNumber);
  if (value.BS !== undefined) return value.BS.map(base64);
  return null;
}

/** A whole item in both forms. */
export function itemJson(item: Record<string, AttributeValue>): { dynamo: JsonValue; plain: JsonValue } {
  const entries = Object.entries(item).sort(([a], [b]) => a.localeCompare(b));
  return {
    dynamo: Object.fromEntries(entries.map(([k, v]) => [k, toDynamoJson(v)])),
    plain: Object.fromEntries(entries.map(([k, v]) => [k, toPlainJson(v)])),
  };
}

/** Builds a typed key from a plain key and the table's key schema; undefined when attributes are missing or extra. */
export function typedKey(key: PlainKey, schema: KeySchema): Record<string, AttributeValue> | undefined {
  const attributes = schema.range ? [schema.hash, schema.range] : [schema.hash];
  if (Object.keys(key).length !== attributes.length) return undefined;
  const out: Record<string, AttributeValue> = {};
  for (const attribute of attributes) {
    if (!Object.prototype.hasOwnProperty.call(key, attribute.name)) return undefined;
    const value = key[attribute.name];
    if (value === undefined) return undefined;
    if (attribute.type === 'S') out[attribute.name] = { S: String(value) };
    else if (attribute.type === 'N') out[attribute.name] = { N: String(value) };
    else out[attribute.name] = { B: new Uint8Array(Buffer.from(String(value), 'base64')) };
  }
  return out;
}
