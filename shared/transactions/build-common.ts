/** Shared pieces of the pure builders: rule lookup, lock and account keys, owner values, action assembly. */
import { compileHash } from '../conventions/template';
import { formatLockItem, formatLockKey } from '../conventions/format';
import { parseLockKey, ruleNormalizer } from '../conventions/parse';
import { canonicalNumber, isScoped, lockScope, scopeRecord, scopeWords, type ScopeValues } from '../conventions/scope';
import { checkLockKeyLimits, PARTITION_KEY_MAX_BYTES, utf8ByteLength as utf8Bytes } from '../key-limits';
import type { Convention, LockRule, PlainKey, PlainValue } from '../model';
import { formatKey } from '../plain-key';
import { err, ok, type Result } from '../result';
import { shownText } from '../terminal-text';
import type { Placeholders } from './dynamo-json';
import { keyJson, keyValueJson } from './dynamo-json';
import type { ActionMeta, ActionRole, AttributeValueJson, ItemJson, TransactItemJson } from './types';

/** What every builder needs: the table and its convention. */
export interface BuildContext {
  readonly table: string;
  readonly convention: Convention;
}

/** A lock key resolved for one value: normalized value, scope, plain key, DynamoDB JSON key, text. */
export interface LockTarget {
  readonly rule: LockRule;
  readonly value: string;
  /** A scoped rule's scope values (aligned with its placeholders); undefined for an unscoped rule. */
  readonly scope?: ScopeValues;
  readonly key: PlainKey;
  readonly json: ItemJson;
  readonly text: string;
}

/** A rule's normalization of a value (numbers in canonical form for an N rule). */
export function normalizeFor(rule: LockRule, value: string): string {
  return ruleNormalizer(rule)(value);
}

/** A protected value as DynamoDB JSON in the rule's type: N (canonical number text) for an N rule, else S. */
export function valueJson(rule: LockRule, value: string): AttributeValueJson {
  return rule.valueType === 'N' ? { N: canonicalNumber(value) } : { S: value };
}

/** How a lock's value and scope read in a sentence: `ada` in orgId `acme`. */
export function valueWords(lock: Pick<LockTarget, 'rule' | 'value' | 'scope'>): string {
  return `${q(lock.value)}${scopeWords(scopeRecord(lock.rule, lock.scope))}`;
}

/** An account key resolved: plain, DynamoDB JSON, text and the owner value a lock would name. */
export interface AccountTarget {
  readonly key: PlainKey;
  readonly json: ItemJson;
  readonly text: string;
  readonly owner: AttributeValueJson;
}

/** Finds a rule by name (exact, else case-insensitive: `email` finds `EMAIL`). */
export function findRule(convention: Convention, name: string): Result<LockRule> {
  const rule = convention.rules.find((r) => r.name === name) ?? convention.rules.find((r) => r.name.toLowerCase() === name.toLowerCase());
  if (rule) return ok(rule);
  return err('validation', `no rule named \`${name}\`; this convention has ${convention.rules.map((r) => r.name).join(', ')}`, {
    field: 'rule',
  });
}

/** How a rule is named in sentences: `handle`, `email`. */
export function ruleLabel(rule: LockRule): string {
  return rule.name.toLowerCase();
}

/**
 * The lock for `value` under `rule` (canonical template, normalized value, and for a scoped rule
 * the scope it is unique within), with size and type checks.
 */
export function lockTarget(ctx: BuildContext, rule: LockRule, value: string, scope?: ScopeValues): Result<LockTarget> {
  const normalized = normalizeFor(rule, value);
  if (normalized.length === 0) return err('validation', `${rule.name}: the value is empty after normalization`, { field: 'value' });
  const scoped = isScoped(rule);
  if (scoped && (scope === undefined || scope.length !== Object.keys(rule.scope ?? {}).length || scope.some((s) => s === ''))) {
    return err(
      'validation',
      `${rule.name} is unique within ${Object.values(rule.scope ?? {}).join(' + ')}: its lock key needs the scope, and none was given`,
      { field: 'scope' },
    );
  }
  const limits = checkLockKeyLimits(rule, normalized);
  if (!limits.ok) return limits;
  const text = formatLockKey(rule, normalized, undefined, scoped ? scope : undefined);
  if (utf8Bytes(text.hash) > PARTITION_KEY_MAX_BYTES)
    return err('validation', `${rule.name}: the lock key with its scope is longer than DynamoDB's ${PARTITION_KEY_MAX_BYTES} bytes`, {
      field: 'value',
    });
  const keys = ctx.convention.keys;
  if (keys.range && text.range === undefined)
    return err(
      'validation',
      `${rule.name}: the table has a sort key \`${keys.range.name}\` but the rule's lock template has no sort key value`,
      { field: 'rule' },
    );
  const key: Record<string, PlainValue> = { [keys.hash.name]: text.hash };
  if (keys.range && text.range !== undefined) key[keys.range.name] = text.range;
  const json = keyJson(key, keys, 'lock key');
  if (!json.ok) return json;
  return ok({ rule, value: normalized, ...(scoped ? { scope } : {}), key, json: json.value, text: formatKey(key, keys) });
}

/**
 * The lock to release: the canonical key for the value, or an explicit key (a legacy template or an
 * un-normalized value) that must read as a lock of this rule whose value normalizes to the same.
 */
export function existingLockTarget(
  ctx: BuildContext,
  rule: LockRule,
  value: string,
  explicit: PlainKey | undefined,
  scope?: ScopeValues,
): Result<LockTarget> {
  if (explicit === undefined) return lockTarget(ctx, rule, value, scope);
  const keys = ctx.convention.keys;
  const json = keyJson(explicit, keys, 'lock');
  if (!json.ok) return json;
  const hash = explicit[keys.hash.name];
  const range = keys.range ? explicit[keys.range.name] : undefined;
  const parsed = typeof hash === 'string' ? parseLockKey(ctx.convention, hash, typeof range === 'string' ? range : undefined) : undefined;
  const text = formatKey(explicit, keys);
  const normalized = normalizeFor(rule, value);
  if (parsed?.kind !== 'lock' || ctx.convention.rules[parsed.ruleIndex] !== rule || normalizeFor(rule, parsed.value) !== normalized) {
    return err('validation', `${text} is not a lock of rule ${rule.name} for ${q(normalized)}`, { field: 'lock' });
  }
  // The key names its own scope; a scope given beside it must be the same one.
  const keyScope = isScoped(rule) ? lockScope(rule, parsed.parts) : undefined;
  if (scope !== undefined && keyScope !== undefined && scope.join('\u0000') !== keyScope.join('\u0000')) {
    return err(
      'validation',
      `${text} is the lock of ${q(normalized)}${scopeWords(scopeRecord(rule, keyScope))}, not${scopeWords(scopeRecord(rule, scope))}`,
      { field: 'scope' },
    );
  }
  const canonical = lockTarget(ctx, rule, value, keyScope);
  if (!canonical.ok) return canonical;
  return ok({ rule, value: normalized, ...(keyScope ? { scope: keyScope } : {}), key: explicit, json: json.value, text });
}

/** The item a claim puts: the lock key, the rule's lock item attributes for the holder's stored value, and the owner. */
export function lockPutItem(ctx: BuildContext, lock: LockTarget, account: AccountTarget, stored: string): ItemJson {
  const extra = Object.fromEntries(Object.entries(formatLockItem(lock.rule, lock.value, stored, lock.scope)).map(([k, v]) => [k, str(v)]));
  const ownerAttribute = ctx.convention.ownerAttribute;
  return { ...extra, ...lock.json, ...(ownerAttribute ? { [ownerAttribute]: account.owner } : {}) };
}

/** The account's key, checked against the table's key schema and the convention's account matcher. */
export function accountTarget(ctx: BuildContext, key: PlainKey, field = 'account'): Result<AccountTarget> {
  const { keys, account, lockPrefixes, rules } = ctx.convention;
  const json = keyJson(key, keys, field);
  if (!json.ok) return json;
  const hash = key[keys.hash.name];
  const text = formatKey(key, keys);
  if (account.kind === 'key-prefix') {
    if (typeof hash !== 'string' || !hash.startsWith(account.prefix)) {
      return err('validation', `${text} is not an account key here: ${keys.hash.name} must begin with \`${account.prefix}\``, { field });
    }
    if (account.range !== undefined && keys.range && key[keys.range.name] !== account.range) {
      return err('validation', `${text} is not an account key here: ${keys.range.name} must be \`${account.range}\``, { field });
    }
  }
  if (typeof hash === 'string') {
    const lockPrefix = [...lockPrefixes, ...rules.flatMap((r) => r.lockKeys.map((t) => compileHash(t.hash).prefix))].find(
      (p) => p !== '' && hash.startsWith(p),
    );
    if (lockPrefix !== undefined)
      return err('validation', `${text} looks like a lock key (prefix \`${lockPrefix}\`), not an account`, { field });
    // A lock whose partition key has no literal prefix (the value bare in it) is told by its sort key.
    const range = keys.range ? key[keys.range.name] : undefined;
    if (parseLockKey(ctx.convention, hash, typeof range === 'string' ? range : undefined).kind === 'lock')
      return err('validation', `${text} is a lock key under this convention, not an account`, { field });
  }
  const owner = hash === undefined ? undefined : keyValueJson(keys.hash, hash, field);
  if (!owner?.ok) return err('validation', `${field} lacks ${keys.hash.name}`, { field });
  return ok({ key, json: json.value, text, owner: owner.value });
}

/** A string attribute value as DynamoDB JSON. */
export const str = (value: string): AttributeValueJson => ({ S: value });

/** Assembles one transactional action with its placeholders and `ALL_OLD`, so a failure returns the item. */
export function makeItem(
  ctx: BuildContext,
  operation: 'Put' | 'Delete' | 'Update' | 'ConditionCheck',
  target: ItemJson,
  p: Placeholders,
  condition: string | undefined,
  update?: string,
): TransactItemJson {
  const common = {
    TableName: ctx.table,
    ...(condition === undefined ? {} : { ConditionExpression: condition }),
    ...p.fields(),
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  switch (operation) {
    case 'Put':
      return { Put: { ...common, Item: target } };
    case 'Delete':
      return { Delete: { ...common, Key: target } };
    case 'Update':
      return { Update: { ...common, Key: target, UpdateExpression: update ?? '' } };
    case 'ConditionCheck':
      return { ConditionCheck: { ...common, Key: target, ConditionExpression: condition ?? '' } };
  }
}

/** The table lock actions address: the convention's lock table, else the table itself. */
export function lockTableOf(ctx: BuildContext): string {
  return ctx.convention.lockTable ?? ctx.table;
}

/** makeItem for an action on a lock item (it lives in the lock table when the convention names one). */
export function makeLockItem(
  ctx: BuildContext,
  operation: 'Put' | 'Delete' | 'ConditionCheck',
  target: ItemJson,
  p: Placeholders,
  condition: string | undefined,
): TransactItemJson {
  return makeItem({ ...ctx, table: lockTableOf(ctx) }, operation, target, p, condition);
}

/** Collects items and their metadata in order, numbering actions as DynamoDB numbers CancellationReasons. */
export class ActionList {
  readonly items: TransactItemJson[] = [];
  readonly actions: ActionMeta[] = [];

  /** Adds one action and its explanation. */
  add(
    item: TransactItemJson,
    meta: { role: ActionRole; key: PlainKey; keyText: string; rule?: LockRule; value?: string; explanation: string; failure: string },
  ): void {
    const { rule, ...rest } = meta;
    this.actions.push({ index: this.items.length, ...rest, ...(rule ? { rule: rule.name, attribute: rule.attribute } : {}) });
    this.items.push(item);
  }
}

/** Quotes a value in an explanation: `ada`. */
export const q = (value: string): string => `\`${shownText(value)}\``;
