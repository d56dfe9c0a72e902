/** Condition text of the pure builders: an account holds a value in its scope, a lock is owned by it or nobody, a Delete removes only a lock. */
import { scopeRecord } from '../conventions/scope';
import { str, valueJson, type AccountTarget, type BuildContext, type LockTarget } from './build-common';
import type { Placeholders } from './dynamo-json';

/**
 * The condition that an account holds a rule's value in the lock's scope: `#attr = :v` plus one
 * equality per scope attribute. Names and values are added to `p`.
 */
export function holdsCondition(p: Placeholders, lock: Pick<LockTarget, 'rule' | 'scope'>, stored: string): string {
  return [
    `${p.name(lock.rule.attribute, 'attr')} = ${p.value(valueJson(lock.rule, stored), 'stored')}`,
    ...inScopeConditions(p, lock),
  ].join(' AND ');
}

/**
 * One condition per scope attribute of a scoped rule's lock: the item is still in that scope. Without
 * them, an account that moved to another scope since the preview (and whose value there someone else
 * now locks) would pass, and the transaction would delete or overwrite that other account's lock.
 */
export function inScopeConditions(p: Placeholders, lock: Pick<LockTarget, 'rule' | 'scope'>): string[] {
  return Object.entries(scopeRecord(lock.rule, lock.scope) ?? {}).map(([attribute, v], i) =>
    scopeComparison(p, attribute, v, `scope${i}`, '='),
  );
}

const NUMBER_TEXT = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * `#attribute = text` (or `<>`) for a scope attribute, whichever type the item stores it as: a scope
 * is read as text (an N as its decimal text), and a comparison with an S alone would never match an
 * N — or, as `<>`, always pass. For number-like text both types are compared.
 */
export function scopeComparison(p: Placeholders, attribute: string, text: string, alias: string, op: '=' | '<>'): string {
  const name = p.name(attribute, alias);
  const asText = `${name} ${op} ${p.value(str(text), alias)}`;
  if (!NUMBER_TEXT.test(text)) return asText;
  const asNumber = `${name} ${op} ${p.value({ N: text }, `${alias}n`)}`;
  return op === '=' ? `(${asText} OR ${asNumber})` : `(${asText} AND ${asNumber})`;
}

/** Condition text on the lock's owner attribute (when the convention has one) for deleting or checking a lock. */
export interface OwnerCondition {
  readonly expression: string;
  readonly words: string;
}

/**
 * The owner condition for a lock that an account is about to drop: the lock names this account
 * or nobody (locks written before the owner attribute existed), never another account.
 */
export function ownedByOrUnowned(ctx: BuildContext, p: Placeholders, account: AccountTarget): OwnerCondition | undefined {
  const ownerAttribute = ctx.convention.ownerAttribute;
  if (ownerAttribute === undefined) return undefined;
  const o = p.name(ownerAttribute, 'owner');
  return {
    expression: `(attribute_not_exists(${o}) OR ${o} = ${p.value(account.owner, 'owner')})`,
    words: `and it names ${account.text} or nobody in \`${ownerAttribute}\``,
  };
}

/**
 * The condition every lock Delete carries so that it can only ever remove a lock: the item holds
 * none of the rules' attributes (an account does) and, where accounts are recognised by an attribute,
 * not that attribute's value. Key and owner attributes are left out: a lock carries those.
 */
export function onlyALock(ctx: BuildContext, p: Placeholders): string {
  const { keys, ownerAttribute, rules, account } = ctx.convention;
  // What a lock itself carries (its key, owner, the library's lock-item attributes) cannot be required absent.
  const carried = new Set([keys.hash.name, keys.range?.name, ownerAttribute, ...rules.flatMap((r) => Object.keys(r.lockItem ?? {}))]);
  const attributes = [...new Set(rules.map((r) => r.attribute))].filter((a) => !carried.has(a));
  const parts = attributes.map((a, i) => `attribute_not_exists(${p.name(a, `ra${i}`)})`);
  const markerOnLocks = rules.some((r) => account.kind === 'attribute-equals' && r.lockItem?.[account.attribute] === account.value);
  if (
    account.kind === 'attribute-equals' &&
    account.attribute !== keys.hash.name &&
    account.attribute !== keys.range?.name &&
    !markerOnLocks
  ) {
    const n = p.name(account.attribute, 'acct');
    parts.push(`(attribute_not_exists(${n}) OR ${n} <> ${p.value(str(account.value), 'acct')})`);
  }
  return parts.join(' AND ');
}

/** Joins condition parts with AND, skipping empty ones (undefined when nothing is left). */
export const allOf = (...parts: readonly (string | undefined)[]): string | undefined =>
  parts.filter((x): x is string => !!x).join(' AND ') || undefined;
