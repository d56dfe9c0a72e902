/** What an activity entry did, read from its recorded request: each action's operation and item key, in words. Pure. */
import type { JsonValue } from '../../../../shared/domain';

/** One action of a recorded transaction. */
export interface ActivityAction {
  readonly operation: 'Put' | 'Delete' | 'Update' | 'ConditionCheck';
  /** `PK=UNIQ#HANDLE#grace_h · SK=LOCK`: the item's key attributes. */
  readonly key: string;
}

const OPERATIONS = ['Put', 'Delete', 'Update', 'ConditionCheck'] as const;

type JsonObject = { readonly [key: string]: JsonValue };
const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// A DynamoDB JSON attribute value → its text (S and N only: keys are strings, numbers or binary).
function attributeText(value: JsonValue | undefined): string {
  if (!isObject(value)) return '?';
  if (typeof value.S === 'string') return value.S;
  if (typeof value.N === 'string') return value.N;
  if (typeof value.B === 'string') return `(binary ${value.B.length} chars)`;
  return '?';
}

function keyText(key: JsonObject, names: readonly string[] = Object.keys(key)): string {
  return names.map((name) => `${name}=${attributeText(key[name])}`).join(' · ');
}

/** The actions of a recorded `TransactWriteItems` request; empty when the request is not one. */
export function activityActions(request: JsonValue): ActivityAction[] {
  if (!isObject(request) || !Array.isArray(request.TransactItems)) return [];
  const out: ActivityAction[] = [];
  // The table's key attributes, from any action that names a Key: a Put carries the whole item.
  const keyNames = request.TransactItems.flatMap((item) => {
    const body = isObject(item) ? OPERATIONS.map((op) => item[op]).find(isObject) : undefined;
    return body && isObject(body.Key) ? [Object.keys(body.Key)] : [];
  })[0];
  for (const item of request.TransactItems) {
    if (!isObject(item)) continue;
    const operation = OPERATIONS.find((op) => isObject(item[op]));
    if (!operation) continue;
    const body = item[operation] as JsonObject;
    // Without another action's Key, a Put shows the item's first two attributes (the builder writes the key first).
    const key =
      operation === 'Put'
        ? isObject(body.Item)
          ? keyText(body.Item, keyNames ?? Object.keys(body.Item).slice(0, 2))
          : '?'
        : isObject(body.Key)
          ? keyText(body.Key)
          : '?';
    out.push({ operation, key });
  }
  return out;
}
