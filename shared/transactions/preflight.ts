/**
 * Pre-flight validation of a TransactWriteItems input, before anything is sent: DynamoDB would
 * reject most of these with one vague ValidationException; here each gets a precise message.
 */
import { isAccount } from '../conventions/classify';
import { compileConvention, parseLockKey } from '../conventions/parse';
import { PARTITION_KEY_MAX_BYTES, SORT_KEY_MAX_BYTES, utf8ByteLength } from '../key-limits';
import type { Convention, Item, KeyAttribute, KeySchema } from '../model';
import { base64Decode } from '../plain-key';
import { err, ok, type Result } from '../result';
import { textOf, typeOf } from './dynamo-json';
import type {
  ActionBody,
  ActionMeta,
  ActionOperation,
  AttributeValueJson,
  ItemJson,
  TransactItemJson,
  TransactWriteInputJson,
} from './types';

/** Most actions in one TransactWriteItems request. */
export const MAX_TRANSACT_ACTIONS = 100;
/** Most bytes of item data in one transaction (4 MB). */
export const MAX_TRANSACTION_BYTES = 4 * 1024 * 1024;
/** Most bytes of one item (400 KB). */
export const MAX_ITEM_BYTES = 400 * 1024;

/** One pre-flight violation: where (e.g. `TransactItems[2].Put.Item.PK`) and what is wrong. */
export interface Violation {
  readonly field: string;
  readonly message: string;
}

const FUNCTION_AND_KEYWORDS = new Set([
  'attribute_exists',
  'attribute_not_exists',
  'attribute_type',
  'begins_with',
  'contains',
  'size',
  'and',
  'or',
  'not',
  'between',
  'in',
  'set',
  'remove',
  'add',
  'delete',
  'if_not_exists',
  'list_append',
]);

/** Splits an action into its operation name and body. */
export function actionParts(item: TransactItemJson): { op: ActionOperation; body: ActionBody } {
  if ('Put' in item) return { op: 'Put', body: item.Put };
  if ('Delete' in item) return { op: 'Delete', body: item.Delete };
  if ('Update' in item) return { op: 'Update', body: item.Update };
  return { op: 'ConditionCheck', body: item.ConditionCheck };
}

/** The size DynamoDB counts for one attribute value (names are added by the caller). */
function valueBytes(value: AttributeValueJson): number {
  if ('S' in value) return utf8ByteLength(value.S);
  if ('N' in value) return Math.ceil(value.N.replace(/^-|\.|[eE].*$/g, '').length / 2) + 1;
  if ('B' in value) return base64Decode(value.B)?.length ?? value.B.length;
  return 1;
}

/** The size DynamoDB counts for an item: every attribute name plus its value, in bytes. */
export function itemBytes(item: ItemJson): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8ByteLength(name) + valueBytes(value), 0);
}

function checkKeyAttribute(attr: KeyAttribute, value: AttributeValueJson | undefined, max: number, field: string, out: Violation[]): void {
  if (value === undefined) {
    out.push({ field, message: `the key attribute \`${attr.name}\` is missing` });
    return;
  }
  const type = typeOf(value);
  if (type !== attr.type) {
    out.push({ field, message: `\`${attr.name}\` is ${attr.type} in the table's key schema but the request gives ${type}` });
    return;
  }
  const bytes = valueBytes(value);
  if ('S' in value || 'B' in value) {
    if ((textOf(value) ?? '').length === 0) out.push({ field, message: `\`${attr.name}\` must not be empty` });
    else if (bytes > max)
      out.push({ field, message: `\`${attr.name}\` is ${bytes} bytes in UTF-8; DynamoDB allows at most ${max} for this key` });
    if ('B' in value && base64Decode(value.B) === undefined) out.push({ field, message: `\`${attr.name}\` is not base64` });
  } else if ('N' in value && !/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.N)) {
    out.push({ field, message: `\`${attr.name}\` is not a number: ${JSON.stringify(value.N)}` });
  }
}

function checkExpressions(body: ActionBody, op: ActionOperation, at: string, out: Violation[]): void {
  const expressions: [string, string | undefined][] = [['ConditionExpression', body.ConditionExpression]];
  if ('UpdateExpression' in body) expressions.push(['UpdateExpression', body.UpdateExpression]);
  if (op === 'ConditionCheck' && !body.ConditionExpression)
    out.push({ field: `${at}.ConditionExpression`, message: 'a ConditionCheck needs a ConditionExpression' });
  if (op === 'Update' && !('UpdateExpression' in body && body.UpdateExpression))
    out.push({ field: `${at}.UpdateExpression`, message: 'an Update needs an UpdateExpression' });
  const names = body.ExpressionAttributeNames ?? {};
  const values = body.ExpressionAttributeValues ?? {};
  const used = new Set<string>();
  for (const [which, text] of expressions) {
    if (text === undefined) continue;
    for (const token of text.match(/[#:][A-Za-z0-9_]+/g) ?? []) {
      used.add(token);
      const defined = token.startsWith('#') ? token in names : token in values;
      if (!defined)
        out.push({
          field: `${at}.${which}`,
          message: `${token} is used but not defined in ExpressionAttribute${token.startsWith('#') ? 'Names' : 'Values'}`,
        });
    }
    const bare = text.replace(/[#:][A-Za-z0-9_]+/g, ' ').match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? [];
    for (const word of bare) {
      if (!FUNCTION_AND_KEYWORDS.has(word.toLowerCase()))
        out.push({
          field: `${at}.${which}`,
          message: `\`${word}\` is written directly; attribute names must go through #placeholders (reserved words break otherwise)`,
        });
    }
  }
  for (const name of [...Object.keys(names), ...Object.keys(values)]) {
    if (!used.has(name))
      out.push({ field: at, message: `${name} is defined but not used in any expression (DynamoDB rejects unused placeholders)` });
  }
}

/** Every violation of the input against DynamoDB's limits and the tables' key schemas (empty = fine). */
export function preflightViolations(input: TransactWriteInputJson, schemas: Readonly<Record<string, KeySchema>>): Violation[] {
  const out: Violation[] = [];
  const items = input.TransactItems;
  if (items.length === 0) out.push({ field: 'TransactItems', message: 'the transaction has no actions' });
  if (items.length > MAX_TRANSACT_ACTIONS)
    out.push({
      field: 'TransactItems',
      message: `the transaction has ${items.length} actions; DynamoDB allows at most ${MAX_TRANSACT_ACTIONS}`,
    });
  const token = input.ClientRequestToken;
  if (token.length < 1 || token.length > 36)
    out.push({ field: 'ClientRequestToken', message: `the ClientRequestToken must have 1 to 36 characters (it has ${token.length})` });
  const seen = new Map<string, number>();
  let total = 0;
  items.forEach((item, i) => {
    const { op, body } = actionParts(item);
    const at = `TransactItems[${i}].${op}`;
    const keys = schemas[body.TableName];
    if (!keys) {
      out.push({ field: `${at}.TableName`, message: `table \`${body.TableName}\` has no known key schema` });
      return;
    }
    const target: ItemJson = 'Item' in body ? body.Item : body.Key;
    const targetField = 'Item' in body ? `${at}.Item` : `${at}.Key`;
    checkKeyAttribute(keys.hash, target[keys.hash.name], PARTITION_KEY_MAX_BYTES, `${targetField}.${keys.hash.name}`, out);
    if (keys.range) checkKeyAttribute(keys.range, target[keys.range.name], SORT_KEY_MAX_BYTES, `${targetField}.${keys.range.name}`, out);
    if (!('Item' in body)) {
      for (const name of Object.keys(body.Key)) {
        if (name !== keys.hash.name && name !== keys.range?.name)
          out.push({ field: `${targetField}.${name}`, message: `\`${name}\` is not a key attribute of \`${body.TableName}\`` });
      }
    }
    const bytes = itemBytes(target);
    total += bytes;
    if (bytes > MAX_ITEM_BYTES)
      out.push({ field: targetField, message: `the item is ${bytes} bytes; DynamoDB allows at most ${MAX_ITEM_BYTES} per item` });
    const identity = JSON.stringify([
      body.TableName,
      target[keys.hash.name] ?? null,
      keys.range ? (target[keys.range.name] ?? null) : null,
    ]);
    const first = seen.get(identity);
    if (first !== undefined) {
      const text = [textOf(target[keys.hash.name]), keys.range ? textOf(target[keys.range.name]) : undefined]
        .filter((t) => t !== undefined)
        .join(' / ');
      out.push({
        field: at,
        message: `actions ${first} and ${i} both touch ${text}; DynamoDB allows one action per item in a transaction`,
      });
    } else seen.set(identity, i);
    checkExpressions(body, op, at, out);
  });
  if (total > MAX_TRANSACTION_BYTES)
    out.push({
      field: 'TransactItems',
      message: `the items total about ${total} bytes; DynamoDB allows at most ${MAX_TRANSACTION_BYTES} (4 MB) per transaction`,
    });
  return out;
}

/** Runs the pre-flight checks; the error lists every violation, and `field` points at the first. */
export function preflight(input: TransactWriteInputJson, schemas: Readonly<Record<string, KeySchema>>): Result<void> {
  const violations = preflightViolations(input, schemas);
  const first = violations[0];
  if (!first) return ok(undefined);
  const message =
    violations.length === 1
      ? `${first.field}: ${first.message}`
      : `${violations.length} problems before sending: ${violations.map((v) => `${v.field}: ${v.message}`).join('; ')}`;
  return err('validation', message, { field: first.field });
}

/**
 * Every Delete that is not the explicit deletion of an account must delete a lock: its key must read
 * as a lock of the convention and must not be one the account matcher recognises (a convention whose
 * lock template overlaps the account key, e.g. `ACCT#{value}` / `PROFILE`, would otherwise let a
 * "release" delete an account). Checked on the exact items, whatever builder made them.
 */
export function lockDeleteViolations(
  items: readonly TransactItemJson[],
  actions: readonly ActionMeta[],
  convention: Convention,
): Violation[] {
  const out: Violation[] = [];
  const compiled = compileConvention(convention);
  const { keys } = convention;
  items.forEach((item, i) => {
    if (!('Delete' in item) || actions[i]?.role === 'delete-account') return;
    const key = item.Delete.Key;
    const at = `TransactItems[${i}].Delete.Key`;
    const hash = key[keys.hash.name];
    const range = keys.range ? key[keys.range.name] : undefined;
    const hashText = hash && 'S' in hash ? hash.S : undefined;
    const rangeText = range && 'S' in range ? range.S : undefined;
    const text = [textOf(hash), keys.range ? textOf(range) : undefined].filter((t) => t !== undefined).join(' / ');
    if (hashText === undefined || parseLockKey(compiled, hashText, rangeText).kind !== 'lock') {
      out.push({ field: at, message: `${text} matches no lock template of this convention: only a lock may be deleted here` });
    } else if (convention.account.kind === 'key-prefix' && isAccount(compiled, key as Item, hashText)) {
      // Only a key-prefix matcher speaks about keys; `not-lock` means "not a lock" and attribute matchers are guarded by the Delete's condition.
      out.push({
        field: at,
        message: `${text} is an account key under this convention (its account matcher recognises it): a release never deletes an account`,
      });
    }
  });
  return out;
}
