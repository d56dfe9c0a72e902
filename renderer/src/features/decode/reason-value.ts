/**
 * Which protected value a failed action was about, so the decoder can offer "Look up this value":
 * the lock key (from the ALL_OLD item, else from the pasted request) read with the table's convention. Pure.
 */
import { parseLockKey } from '../../../../shared/conventions/parse';
import type { JsonValue } from '../../../../shared/domain';
import type { Convention } from '../../../../shared/model';

type JsonObject = { readonly [key: string]: JsonValue };
const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function scalar(attribute: JsonValue | undefined): string | undefined {
  if (!isObject(attribute)) return undefined;
  return typeof attribute.S === 'string' ? attribute.S : typeof attribute.N === 'string' ? attribute.N : undefined;
}

// The item or key of action `index` in a pasted TransactWriteItems request (undefined when it does not parse).
function requestTarget(request: string, index: number): JsonObject | undefined {
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(request) as JsonValue;
  } catch {
    return undefined;
  }
  const items = isObject(parsed) && Array.isArray(parsed.TransactItems) ? parsed.TransactItems : undefined;
  const entry = items?.[index];
  if (!isObject(entry)) return undefined;
  for (const body of Object.values(entry)) {
    if (!isObject(body)) continue;
    if (isObject(body.Key)) return body.Key;
    if (isObject(body.Item)) return body.Item;
  }
  return undefined;
}

/** The rule and value whose lock action `index` touched; undefined when it was not a lock of `convention`. */
export function reasonValue(
  convention: Convention,
  index: number,
  item: JsonValue | undefined,
  request: string,
): { readonly rule: string; readonly value: string } | undefined {
  const target = isObject(item) && Object.keys(item).length > 0 ? item : requestTarget(request, index);
  if (!target) return undefined;
  const hash = scalar(target[convention.keys.hash.name]);
  if (hash === undefined) return undefined;
  const range = convention.keys.range ? scalar(target[convention.keys.range.name]) : undefined;
  const parsed = parseLockKey(convention, hash, range);
  return parsed.kind === 'lock' ? { rule: parsed.rule.name, value: parsed.value } : undefined;
}
