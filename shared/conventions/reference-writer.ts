/**
 * The "library" of a generated layout (gen-layout.ts): a tiny, pure writer that builds the
 * TransactWriteItems such a library sends — the account and one lock per protected value, every
 * Put guarded by `attribute_not_exists(<pk>)` on its own key. It fills the layout's templates
 * itself, never through the engine it judges. Test support only.
 */
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { Item } from '../model';
import type { GenLayout, GenRule } from './gen-layout';

/** The text a library of this layout writes for `raw` in a key: NFC and/or lower-cased when the layout says so. */
export function writtenValue(rule: GenRule, raw: string): string {
  let out = raw;
  if (rule.nfc) out = out.normalize('NFC');
  if (rule.fold) out = out.toLowerCase();
  return out;
}

/** Fills a generated template: `{value}` and the rule's scope placeholder. */
function fill(template: string, rule: GenRule, value: string, scope: string | undefined): string {
  let out = template.replace('{value}', value);
  if (rule.scope !== undefined) out = out.replace(`{${rule.scope}}`, scope ?? '');
  return out;
}

/** The lock item of `value` (as the key holds it) under `rule`, with the layout's lock tag and what else its locks carry. */
export function referenceLock(
  layout: GenLayout,
  rule: GenRule,
  value: string,
  scope: string | undefined,
  holder?: { readonly key: string; readonly raw: string },
): Item {
  const item: Item = { [layout.keys.hash.name]: { S: fill(rule.hash, rule, value, scope) } };
  if (layout.keys.range && rule.range !== undefined) item[layout.keys.range.name] = { S: fill(rule.range, rule, value, scope) };
  if (layout.lockTag) item[layout.lockTag.attribute] = { S: layout.lockTag.value };
  if (holder && layout.lockCarries === 'owner') item.owner = { S: holder.key };
  if (holder && layout.lockCarries === 'raw') item.value = { S: holder.raw };
  return item;
}

/** The text of a scalar attribute (N as its decimal text). */
function text(item: Item, attribute: string): string | undefined {
  const v = item[attribute];
  return v?.S ?? v?.N;
}

/** The locks a library of this layout writes with `account`: one per rule whose value (and scope) the account holds. */
export function referenceLocks(layout: GenLayout, account: Item): Item[] {
  const out: Item[] = [];
  for (const rule of layout.rules) {
    const raw = text(account, rule.attribute);
    if (raw === undefined || raw === '') continue;
    const scope = rule.scope === undefined ? undefined : text(account, rule.scope);
    if (rule.scope !== undefined && scope === undefined) continue;
    out.push(referenceLock(layout, rule, writtenValue(rule, raw), scope, { key: text(account, layout.keys.hash.name) ?? '', raw }));
  }
  return out;
}

/** A Put of `item` that only succeeds when no item has its key yet. */
function guardedPut(tableName: string, layout: GenLayout, item: Item): TransactWriteItem {
  return {
    Put: {
      TableName: tableName,
      Item: item,
      ConditionExpression: 'attribute_not_exists(#pk)',
      ExpressionAttributeNames: { '#pk': layout.keys.hash.name },
    },
  };
}

/** The signup a library of this layout sends: the account and its locks in one transaction, each Put guarded on its own key. */
export function referenceSignup(tableName: string, layout: GenLayout, account: Item): TransactWriteItem[] {
  return [guardedPut(tableName, layout, account), ...referenceLocks(layout, account).map((lock) => guardedPut(tableName, layout, lock))];
}
