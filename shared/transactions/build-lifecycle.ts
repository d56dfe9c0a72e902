/** Pure builders for the lifecycle templates of seed 1: signup, change value, delete account. */
import { accountScope, isScoped, type ScopeValues } from '../conventions/scope';
import type { Item, LockRule } from '../model';
import { err, ok, type Result } from '../result';
import {
  type AccountTarget,
  accountTarget,
  ActionList,
  type BuildContext,
  findRule,
  type LockTarget,
  lockPutItem,
  lockTarget,
  makeItem,
  makeLockItem,
  normalizeFor,
  q,
  ruleLabel,
  str,
  valueJson,
  valueWords,
} from './build-common';
import { allOf, onlyALock, inScopeConditions, ownedByOrUnowned } from './build-conditions';
import { Placeholders } from './dynamo-json';
import type { AttributeValueJson, BuiltTransaction, ChangeValueSpec, DeleteAccountSpec, SignupSpec } from './types';

/** Resolves rule name → stored value pairs to rules and their locks (scoped rules in the scope `scopeOf` gives). */
function resolveValues(
  ctx: BuildContext,
  values: Readonly<Record<string, string>>,
  scopeOf: (rule: LockRule) => ScopeValues | undefined,
): Result<{ rule: LockRule; stored: string; lock: LockTarget }[]> {
  const out: { rule: LockRule; stored: string; lock: LockTarget }[] = [];
  for (const [name, stored] of Object.entries(values)) {
    const rule = findRule(ctx.convention, name);
    if (!rule.ok) return err('validation', rule.error.message, { field: `values.${name}` });
    const lock = lockTarget(ctx, rule.value, stored, scopeOf(rule.value));
    if (!lock.ok) return err('validation', lock.error.message, { field: `values.${name}` });
    out.push({ rule: rule.value, stored, lock: lock.value });
  }
  return ok(out);
}

/** A signup's extra string attributes as an item, to read scope attributes from. */
function attributesAsItem(attributes: Readonly<Record<string, string>> | undefined): Item {
  return Object.fromEntries(Object.entries(attributes ?? {}).map(([k, v]) => [k, { S: v }]));
}

/** Adds the guarded Put of a new lock (with the rule's lock item attributes and the owner attribute when the convention has one). */
function addLockPut(ctx: BuildContext, list: ActionList, lock: LockTarget, account: AccountTarget, stored: string): void {
  const ownerAttribute = ctx.convention.ownerAttribute;
  const p = new Placeholders();
  const item = lockPutItem(ctx, lock, account, stored);
  list.add(makeLockItem(ctx, 'Put', item, p, `attribute_not_exists(${p.name(ctx.convention.keys.hash.name, 'pk')})`), {
    role: 'put-lock',
    key: lock.key,
    keyText: lock.text,
    rule: lock.rule,
    value: lock.value,
    explanation: `Put ${lock.text} only if no item has this key${ownerAttribute ? `, naming ${account.text} in \`${ownerAttribute}\`` : ''}`,
    failure: `${ruleLabel(lock.rule)} ${q(lock.value)} is already held — the lock ${lock.text} exists`,
  });
}

/** Signup: Put the account (`attribute_not_exists`) with its values, and one guarded lock Put per value. */
export function buildSignup(ctx: BuildContext, spec: SignupSpec): Result<BuiltTransaction> {
  const account = accountTarget(ctx, spec.account);
  if (!account.ok) return account;
  // A scoped value's scope is what the new account will store in its scope attributes.
  const values = resolveValues(ctx, spec.values, (rule) =>
    isScoped(rule) ? accountScope(rule, attributesAsItem(spec.attributes)) : undefined,
  );
  if (!values.ok) return values;
  const item: Record<string, AttributeValueJson> = { ...account.value.json };
  const matcher = ctx.convention.account;
  if (matcher.kind === 'attribute-equals') item[matcher.attribute] = str(matcher.value);
  for (const [name, value] of Object.entries(spec.attributes ?? {})) {
    if (name in item)
      return err('validation', `attribute \`${name}\` is already set by the key or the convention`, { field: `attributes.${name}` });
    item[name] = str(value);
  }
  for (const { rule, stored } of values.value) {
    if (rule.attribute in item)
      return err('validation', `attribute \`${rule.attribute}\` (rule ${rule.name}) is set twice`, { field: `values.${rule.name}` });
    item[rule.attribute] = valueJson(rule, stored);
  }
  const list = new ActionList();
  const p = new Placeholders();
  list.add(makeItem(ctx, 'Put', item, p, `attribute_not_exists(${p.name(ctx.convention.keys.hash.name, 'pk')})`), {
    role: 'put-account',
    key: account.value.key,
    keyText: account.value.text,
    explanation: `Put the account ${account.value.text} (${values.value.map((v) => `${v.rule.attribute} = ${q(v.stored)}`).join(', ')}) only if no item has this key`,
    failure: `an item with the key ${account.value.text} already exists`,
  });
  for (const { lock, stored } of values.value) addLockPut(ctx, list, lock, account.value, stored);
  return ok({
    kind: 'signup',
    table: ctx.table,
    items: list.items,
    actions: list.actions,
    // The hash key alone is what a person types back (no ` / ` to get right).
    confirm: String(account.value.key[ctx.convention.keys.hash.name]),
    summary: `Sign up ${account.value.text} with ${values.value.map((v) => `${ruleLabel(v.rule)} ${q(v.lock.value)}`).join(', ')}`,
    guards: {
      guarded: [`no item has the account key ${account.value.text}`, ...values.value.map((v) => `nobody holds the lock ${v.lock.text}`)],
      notGuarded: [`accounts that hold these values without a lock (missing-lock) are not checked; an audit finds them`],
    },
  });
}

/**
 * Change value: Put the new lock (guarded), Delete the old lock (it exists and, with an owner
 * attribute, names this account or nobody), Update the account only if it still holds the old value.
 * When both values normalize to the same lock, only the account changes and the lock is checked.
 */
export function buildChangeValue(ctx: BuildContext, spec: ChangeValueSpec): Result<BuiltTransaction> {
  const rule = findRule(ctx.convention, spec.rule);
  if (!rule.ok) return rule;
  const account = accountTarget(ctx, spec.account);
  if (!account.ok) return account;
  if (spec.from === spec.to)
    return err('validation', `${account.value.text} already stores ${q(spec.to)}; nothing to change`, { field: 'to' });
  const oldLock = lockTarget(ctx, rule.value, spec.from, spec.scope);
  if (!oldLock.ok) return err('validation', oldLock.error.message, { field: 'from' });
  const newLock = lockTarget(ctx, rule.value, spec.to, spec.scope);
  if (!newLock.ok) return err('validation', newLock.error.message, { field: 'to' });
  const label = ruleLabel(rule.value);
  const list = new ActionList();
  const sameLock = normalizeFor(rule.value, spec.from) === normalizeFor(rule.value, spec.to);
  const pk = ctx.convention.keys.hash.name;

  if (sameLock) {
    const p = new Placeholders();
    const owner = ownedByOrUnowned(ctx, p, account.value);
    const cond = `attribute_exists(${p.name(pk, 'pk')})${owner ? ` AND ${owner.expression}` : ''}`;
    list.add(makeLockItem(ctx, 'ConditionCheck', oldLock.value.json, p, cond), {
      role: 'check-lock',
      key: oldLock.value.key,
      keyText: oldLock.value.text,
      rule: rule.value,
      value: oldLock.value.value,
      explanation: `Check the lock ${oldLock.value.text} exists${owner ? ` ${owner.words}` : ''} (both spellings share it)`,
      failure: `the lock ${oldLock.value.text} is missing${owner ? ' or names another account' : ''}`,
    });
  } else {
    addLockPut(ctx, list, newLock.value, account.value, spec.to);
    const p = new Placeholders();
    const owner = ownedByOrUnowned(ctx, p, account.value);
    const cond = allOf(`attribute_exists(${p.name(pk, 'pk')})`, owner?.expression, onlyALock(ctx, p));
    list.add(makeLockItem(ctx, 'Delete', oldLock.value.json, p, cond), {
      role: 'delete-lock',
      key: oldLock.value.key,
      keyText: oldLock.value.text,
      rule: rule.value,
      value: oldLock.value.value,
      explanation: `Delete the old lock ${oldLock.value.text} only if it exists${owner ? ` ${owner.words}` : ''}`,
      failure: `the old lock ${oldLock.value.text} is missing${owner ? ' or names another account' : ''}`,
    });
  }
  const u = new Placeholders();
  const attr = u.name(rule.value.attribute, 'attr');
  const update = `SET ${attr} = ${u.value(valueJson(rule.value, spec.to), 'to')}`;
  const stillHolds = [`${attr} = ${u.value(valueJson(rule.value, spec.from), 'from')}`, ...inScopeConditions(u, oldLock.value)].join(
    ' AND ',
  );
  list.add(makeItem(ctx, 'Update', account.value.json, u, stillHolds, update), {
    role: 'update-account',
    key: account.value.key,
    keyText: account.value.text,
    rule: rule.value,
    value: newLock.value.value,
    explanation: `Update ${account.value.text}: set ${rule.value.attribute} to ${q(spec.to)} only if it is still ${valueWords({ ...oldLock.value, value: spec.from })}`,
    failure: `${account.value.text} no longer has ${rule.value.attribute} = ${valueWords({ ...oldLock.value, value: spec.from })} (changed since the preview, or gone)`,
  });
  return ok({
    kind: 'change-value',
    table: ctx.table,
    items: list.items,
    actions: list.actions,
    confirm: spec.to,
    summary: `Change ${label} of ${account.value.text} from ${q(spec.from)} to ${q(spec.to)}`,
    guards: {
      guarded: [
        ...(sameLock
          ? [`the shared lock ${oldLock.value.text} still exists`]
          : [`nobody holds the lock ${newLock.value.text}`, `the old lock ${oldLock.value.text} exists`]),
        `${account.value.text} still has ${rule.value.attribute} exactly ${valueWords({ ...oldLock.value, value: spec.from })}`,
      ],
      notGuarded: [`other accounts holding ${q(newLock.value.value)} without a lock are not checked`],
    },
  });
}

/**
 * Delete account: Delete the account only if it still holds exactly the values read at preview,
 * and each of its locks (with an owner attribute: only if the lock names it or nobody).
 */
export function buildDeleteAccount(ctx: BuildContext, spec: DeleteAccountSpec): Result<BuiltTransaction> {
  const account = accountTarget(ctx, spec.account);
  if (!account.ok) return account;
  const values = resolveValues(ctx, spec.values, (rule) => spec.scopes?.[rule.name]);
  if (!values.ok) return values;
  const list = new ActionList();
  const p = new Placeholders();
  const pk = ctx.convention.keys.hash.name;
  const parts = [`attribute_exists(${p.name(pk, 'pk')})`];
  values.value.forEach(({ rule, stored, lock }, i) =>
    parts.push(`${p.name(rule.attribute, `a${i}`)} = ${p.value(valueJson(rule, stored), `s${i}`)}`, ...inScopeConditions(p, lock)),
  );
  // The values the account must still hold are exactly those whose locks are deleted; an account without values is deleted on existence alone.
  list.add(makeItem(ctx, 'Delete', account.value.json, p, parts.join(' AND ')), {
    role: 'delete-account',
    key: account.value.key,
    keyText: account.value.text,
    explanation: `Delete the account ${account.value.text} only if it exists${values.value.length > 0 ? ` and still has ${values.value.map((v) => `${v.rule.attribute} = ${valueWords({ ...v.lock, value: v.stored })}`).join(', ')}` : ''}`,
    failure: `${account.value.text} is gone or its values changed since the preview`,
  });
  for (const { rule, lock } of values.value) {
    const lp = new Placeholders();
    const owner = ownedByOrUnowned(ctx, lp, account.value);
    list.add(makeLockItem(ctx, 'Delete', lock.json, lp, allOf(owner?.expression, onlyALock(ctx, lp))), {
      role: 'delete-lock',
      key: lock.key,
      keyText: lock.text,
      rule,
      value: lock.value,
      explanation: `Delete the lock ${lock.text}${owner ? ` only if it ${owner.words.replace(/^and it /, '')}` : ' (if it exists)'}`,
      failure: `the lock ${lock.text} names another account`,
    });
  }
  return ok({
    kind: 'delete-account',
    table: ctx.table,
    items: list.items,
    actions: list.actions,
    // The hash key alone is what a person types back (no ` / ` to get right).
    confirm: String(account.value.key[ctx.convention.keys.hash.name]),
    summary: `Delete the account ${account.value.text} and its ${values.value.length} lock(s)`,
    guards: {
      guarded: [
        `${account.value.text} exists and its protected values are unchanged since the preview`,
        ...(ctx.convention.ownerAttribute ? [`no deleted lock names another account`] : []),
      ],
      notGuarded: ctx.convention.ownerAttribute
        ? []
        : [`locks carry no owner here: if another account holds one of these values too (duplicate-value), its lock is deleted as well`],
    },
  });
}
