/**
 * Maps CancellationReasons to actions by position and says, field by field, why each failed.
 * Used by execute (with the builder's action metadata) and by the decoder (with metadata
 * inferred from a pasted request, or none).
 */
import { parseLockKey } from '../conventions/parse';
import type { Convention } from '../model';
import { q } from './build-common';
import { keyText, textOf } from './dynamo-json';
import { shownText } from '../terminal-text';
import { actionParts } from './preflight';
import type { ActionMeta, ActionOperation, ItemJson, ReasonExplained, TransactItemJson } from './types';

/** A CancellationReason as DynamoDB returns it (Item only with ReturnValuesOnConditionCheckFailure ALL_OLD). */
export interface RawReason {
  readonly Code?: string;
  readonly Message?: string;
  readonly Item?: ItemJson;
}

/** What is known about one action when explaining its reason. */
interface ActionView {
  readonly operation: ActionOperation;
  readonly keyText: string;
  readonly meta?: ActionMeta;
  readonly condition?: string;
}

/** Replaces `#name` placeholders by the attribute names, so a condition reads as written. */
export function readableCondition(expression: string, names: Readonly<Record<string, string>> = {}): string {
  return expression.replace(/#[A-Za-z0-9_]+/g, (token) => names[token] ?? token);
}

/** Without a convention, a table's key names are those of any Key in the request, else the attribute in `attribute_not_exists(…)`. */
function guessKeyNames(items: readonly TransactItemJson[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of items) {
    const { body } = actionParts(item);
    if ('Key' in body) out.set(body.TableName, Object.keys(body.Key));
  }
  for (const item of items) {
    const { body } = actionParts(item);
    if (out.has(body.TableName) || !body.ConditionExpression) continue;
    const m = /attribute_(?:not_)?exists\(\s*([#A-Za-z0-9_]+)\s*\)/.exec(body.ConditionExpression);
    const name = m?.[1] ? (body.ExpressionAttributeNames?.[m[1]] ?? m[1]) : undefined;
    if (name !== undefined) out.set(body.TableName, [name]);
  }
  return out;
}

/** A Put item's key text when the key names were guessed: `PK=ACCT#a1f9c3`, or every attribute when nothing is known. */
function guessedKeyText(item: ItemJson, names: readonly string[] | undefined): string {
  if (!names) return keyText(item);
  return names.map((n) => `${n}=${shownText(textOf(item[n]) ?? '?')}`).join(', ');
}

/** Whether a condition is only `attribute_not_exists` of the table's key attributes (joined by AND): "no such item yet". */
function guardsAbsence(expression: string, names: Readonly<Record<string, string>> | undefined, convention: Convention): boolean {
  const keyNames = [convention.keys.hash.name, ...(convention.keys.range ? [convention.keys.range.name] : [])];
  return expression.split(/\s+AND\s+/i).every((part) => {
    const m = /^\(?\s*attribute_not_exists\(\s*([#A-Za-z0-9_]+)\s*\)\s*\)?$/.exec(part.trim());
    return m !== null && keyNames.includes(names?.[m[1]!] ?? m[1]!);
  });
}

/** Infers action metadata from a raw request: which actions touch locks (and of which rule/value), given a convention. */
export function inferActions(items: readonly TransactItemJson[], convention?: Convention): ActionMeta[] {
  const guessed = convention ? undefined : guessKeyNames(items);
  return items.map((item, index) => {
    const { op, body } = actionParts(item);
    const target = 'Item' in body ? body.Item : body.Key;
    const text = convention
      ? keyText(target, convention.keys)
      : 'Key' in body
        ? keyText(target)
        : guessedKeyText(target, guessed?.get(body.TableName));
    const condition = body.ConditionExpression ? readableCondition(body.ConditionExpression, body.ExpressionAttributeNames) : undefined;
    const base = { index, key: {}, keyText: text };
    const hash = convention ? target[convention.keys.hash.name] : undefined;
    const range = convention?.keys.range ? target[convention.keys.range.name] : undefined;
    const parsed =
      convention && hash && 'S' in hash ? parseLockKey(convention, hash.S, range && 'S' in range ? range.S : undefined) : undefined;
    const rule = parsed?.kind === 'lock' ? convention?.rules[parsed.ruleIndex] : undefined;
    const when = condition ? ` (condition: ${condition})` : '';
    if (rule && parsed?.kind === 'lock') {
      const label = `${rule.name.toLowerCase()} ${q(parsed.value)}`;
      const ruleFields = { rule: rule.name, attribute: rule.attribute, value: parsed.value };
      if (op === 'Put') {
        // "Already held" is what a failed attribute_not_exists on the lock's key means, and only that.
        const absence = condition !== undefined && guardsAbsence(body.ConditionExpression!, body.ExpressionAttributeNames, convention!);
        const failure = absence
          ? `${label} is already held — the lock ${text} exists`
          : `the lock ${text} for ${label} did not meet the condition${when}`;
        return {
          ...base,
          ...ruleFields,
          role: 'put-lock',
          explanation: `Put ${text}${when}`,
          failure,
          ...(absence ? {} : { guardsAbsence: false as const }),
        };
      }
      if (op === 'Delete')
        return {
          ...base,
          ...ruleFields,
          role: 'delete-lock',
          explanation: `Delete ${text}${when}`,
          failure: `the lock ${text} for ${label} did not meet the condition${when}`,
        };
      return {
        ...base,
        ...ruleFields,
        role: 'check-lock',
        explanation: `${op} ${text}${when}`,
        failure: `the lock ${text} did not meet the condition${when}`,
      };
    }
    const role = op === 'Put' ? 'put-account' : op === 'Delete' ? 'delete-account' : op === 'Update' ? 'update-account' : 'check-account';
    const failure =
      op === 'Put' && /attribute_not_exists/.test(condition ?? '')
        ? `an item with the key ${text} already exists${when}`
        : `${text} did not meet the condition${when}`;
    return { ...base, role, explanation: `${op} ${text}${when}`, failure };
  });
}

/** The holder a returned item names: the owner attribute on a lock. */
function ownerIn(item: ItemJson | undefined, ownerAttribute: string | undefined): string | undefined {
  if (!item || ownerAttribute === undefined) return undefined;
  return textOf(item[ownerAttribute]);
}

function conditionMessage(view: ActionView, reason: RawReason, ownerAttribute: string | undefined): { message: string; holder?: string } {
  // ConditionalCheckFailed comes only from an action's condition: none here means the error is another request's.
  if (view.condition === undefined)
    return {
      message: `${view.operation} ${view.keyText} has no condition, so DynamoDB cannot have answered ConditionalCheckFailed for it: this error is not from this request (paste the request that was sent with it)`,
    };
  const meta = view.meta;
  const item = reason.Item;
  if (!meta)
    return { message: `the condition of action ${view.operation} ${view.keyText} failed${view.condition ? ` (${view.condition})` : ''}` };
  const label = meta.rule ? `${meta.rule.toLowerCase()} ${q(meta.value ?? '')}` : '';
  switch (meta.role) {
    case 'put-lock': {
      const holder = ownerIn(item, ownerAttribute);
      if (!holder) return { message: meta.failure };
      // Another condition than the key's absence failed: the lock exists and names its owner, but "held" is not what failed.
      if (meta.guardsAbsence === false) return { message: `${meta.failure}: the lock names ${shownText(holder)}`, holder };
      return { message: `${label} is already held by ${shownText(holder)} — the lock ${meta.keyText} exists`, holder };
    }
    case 'check-account':
    case 'check-holder':
    case 'update-account': {
      if (item === undefined || Object.keys(item).length === 0) return { message: item ? `${meta.keyText} does not exist` : meta.failure };
      const now = meta.attribute ? textOf(item[meta.attribute]) : undefined;
      if (meta.role === 'check-holder')
        return { message: `${meta.keyText} holds ${label} again: ${meta.attribute ?? ''} is now ${q(now ?? '')}`, holder: meta.keyText };
      return { message: `${meta.failure}: ${meta.attribute ?? 'the attribute'} is now ${now === undefined ? 'absent' : q(now)}` };
    }
    case 'delete-lock':
    case 'check-lock': {
      if (item === undefined) return { message: meta.failure };
      if (Object.keys(item).length === 0) return { message: `the lock ${meta.keyText} does not exist` };
      const holder = ownerIn(item, ownerAttribute);
      return holder
        ? { message: `the lock ${meta.keyText} names ${shownText(holder)}, not the expected owner`, holder }
        : { message: meta.failure };
    }
    case 'put-account':
    case 'delete-account':
      return { message: meta.failure };
  }
}

/** Explains a non-condition code in words. */
function codeMessage(code: string, view: ActionView | undefined, text: string | undefined): string {
  const at = view ? ` on ${view.keyText}` : '';
  switch (code) {
    case 'TransactionConflict':
      return `another request was changing this item${at} at the same moment (TransactionConflict); retrying with the same ClientRequestToken is safe`;
    case 'ProvisionedThroughputExceeded':
    case 'ThrottlingError':
      return `throttled${at} (${code}); retry later with the same ClientRequestToken`;
    case 'ItemCollectionSizeLimitExceeded':
      return `the item collection${at} would exceed 10 GB`;
    case 'ValidationError':
      return `DynamoDB rejected the action${at}: ${text ?? 'validation error'}`;
    default:
      return `${code}${at}${text ? `: ${text}` : ''}`;
  }
}

/**
 * Explains every reason by position. `items` and `actions` come from the request (either may be
 * missing); `ownerAttribute` lets a returned lock item name its holder.
 */
export function explainReasons(
  reasons: readonly RawReason[],
  items: readonly TransactItemJson[] | undefined,
  actions: readonly ActionMeta[] | undefined,
  ownerAttribute?: string,
): ReasonExplained[] {
  return reasons.map((reason, index) => {
    const code = reason.Code ?? 'None';
    const raw = items?.[index];
    const meta = actions?.[index];
    let view: ActionView | undefined;
    if (raw) {
      const { op, body } = actionParts(raw);
      const condition = body.ConditionExpression ? readableCondition(body.ConditionExpression, body.ExpressionAttributeNames) : undefined;
      view = {
        operation: op,
        keyText:
          meta?.keyText ?? ('Key' in body ? keyText(body.Key) : guessedKeyText(body.Item, guessKeyNames(items ?? []).get(body.TableName))),
        ...(meta ? { meta } : {}),
        ...(condition ? { condition } : {}),
      };
    }
    const action = view ? { keyText: view.keyText, operation: view.operation, ...(meta ? { role: meta.role } : {}) } : undefined;
    const extra = { ...(action ? { action } : {}), ...(reason.Item ? { item: reason.Item } : {}) };
    if (code === 'None')
      return {
        index,
        code,
        message: view ? `fine: ${view.operation} ${view.keyText} would have succeeded` : 'fine: this action did not fail',
        ...extra,
      };
    if (code === 'ConditionalCheckFailed') {
      if (!view)
        return {
          index,
          code,
          message: `action ${index + 1}'s condition was false${reason.Item ? `; the item then was ${JSON.stringify(reason.Item)}` : ''}`,
          ...extra,
        };
      // With ALL_OLD, a missing Item means the item did not exist; without it, nothing is known.
      const allOld = raw !== undefined && actionParts(raw).body.ReturnValuesOnConditionCheckFailure === 'ALL_OLD';
      const seen = reason.Item ?? (allOld ? {} : undefined);
      const { message, holder } = conditionMessage(view, seen === undefined ? reason : { ...reason, Item: seen }, ownerAttribute);
      return { index, code, message, ...extra, ...(holder ? { holder } : {}) };
    }
    return { index, code, message: codeMessage(code, view, reason.Message), ...extra };
  });
}
