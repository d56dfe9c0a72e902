/**
 * Turns a person's request into a resolved spec by reading the current state consistently:
 * the account's stored value (claim, change value, delete account), the lock and its owner
 * (release), and what the last holder holds now. The pure builders then take it from there.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { accountScope, isScoped, scopeFromRecord, type ScopeValues } from '../../../shared/conventions/scope';
import type { Convention, Item, LockRule, PlainKey, PlainValue } from '../../../shared/model';
import { formatKey } from '../../../shared/plain-key';
import { err, ok, type Result } from '../../../shared/result';
import { accountTarget, existingLockTarget, findRule } from '../../../shared/transactions/build-common';
import type { SeenValue, TransactionOperation, TransactionSpec } from '../../../shared/transactions/types';
import { readItem, storedText } from './reads';

/** Where to read. */
export interface ResolveContext {
  readonly client: DynamoDBClient;
  readonly table: string;
  readonly convention: Convention;
  readonly signal?: AbortSignal;
}

async function readAccount(ctx: ResolveContext, key: PlainKey): Promise<Result<Awaited<ReturnType<typeof readItem>> & object>> {
  const target = accountTarget({ table: ctx.table, convention: ctx.convention }, key);
  if (!target.ok) return target;
  const item = await readItem(ctx.client, ctx.table, ctx.convention, key, ctx.signal);
  if (!item) return err('not-found', `the account ${target.value.text} does not exist in ${ctx.table}`, { field: 'account' });
  return ok(item);
}

/** The holder key a lock's owner value points at, when the convention lets us rebuild it (hash, plus a fixed account range). */
export function holderFromOwner(convention: Convention, owner: PlainValue): PlainKey | undefined {
  const { keys, account } = convention;
  if (!keys.range) return { [keys.hash.name]: owner };
  if (account.kind === 'key-prefix' && account.range !== undefined) return { [keys.hash.name]: owner, [keys.range.name]: account.range };
  return undefined;
}

/** The scope an account holds a scoped rule's value in; an error naming the missing attribute when it has none. */
function scopeOfAccount(rule: LockRule, item: Item, key: PlainKey, convention: Convention): Result<ScopeValues | undefined> {
  if (!isScoped(rule)) return ok(undefined);
  const scope = accountScope(rule, item);
  if (scope === undefined) {
    return err(
      'validation',
      `${formatKey(key, convention.keys)} has no ${Object.values(rule.scope ?? {}).join(' / ')}: rule ${rule.name} is unique within it, so no lock can be written for this account`,
      { field: 'account' },
    );
  }
  return ok(scope);
}

/** Reads what the request depends on and returns the spec to build. */
export async function resolveSpec(ctx: ResolveContext, op: TransactionOperation): Promise<Result<TransactionSpec>> {
  const { convention } = ctx;
  switch (op.kind) {
    case 'claim': {
      const rule = findRule(convention, op.rule);
      if (!rule.ok) return rule;
      const account = await readAccount(ctx, op.account);
      if (!account.ok) return account;
      const stored = op.stored ?? storedText(account.value, rule.value.attribute);
      if (stored === undefined)
        return err('validation', `${formatKey(op.account, convention.keys)} has no ${rule.value.attribute}: it holds no value to claim`, {
          field: 'account',
        });
      const scope = scopeOfAccount(rule.value, account.value, op.account, convention);
      if (!scope.ok) return scope;
      return ok({
        kind: 'claim',
        rule: rule.value.name,
        value: op.value,
        account: op.account,
        stored,
        ...(scope.value ? { scope: scope.value } : {}),
      });
    }
    case 'release': {
      const rule = findRule(convention, op.rule);
      if (!rule.ok) return rule;
      const given = op.scope === undefined && op.lock !== undefined ? undefined : scopeFromRecord(rule.value, op.scope);
      if (typeof given === 'string') return err('validation', given, { field: 'scope' });
      const lock = existingLockTarget({ table: ctx.table, convention }, rule.value, op.value, op.lock, given);
      if (!lock.ok) return lock;
      const lockItem = await readItem(ctx.client, convention.lockTable ?? ctx.table, convention, lock.value.key, ctx.signal);
      if (!lockItem) return err('not-found', `no lock ${lock.value.text} exists: nothing to release`, { field: 'value' });
      const ownerAttribute = convention.ownerAttribute;
      const ownerText = ownerAttribute === undefined ? undefined : storedText(lockItem, ownerAttribute);
      const lockOwner =
        ownerAttribute === undefined
          ? undefined
          : ownerText === undefined
            ? ({ state: 'absent' } as const)
            : ({ state: 'value', value: ownerText } as const);
      const holderKey = op.holder ?? (ownerText === undefined ? undefined : holderFromOwner(convention, ownerText));
      let holder: { key: PlainKey; seen: SeenValue; seenScope?: ScopeValues } | undefined;
      if (holderKey) {
        const item = await readItem(ctx.client, ctx.table, convention, holderKey, ctx.signal);
        const seen = storedText(item, rule.value.attribute);
        const seenScope = item && isScoped(rule.value) ? accountScope(rule.value, item) : undefined;
        holder = {
          key: holderKey,
          seen: seen === undefined ? { state: 'absent' } : { state: 'value', value: seen },
          ...(seenScope ? { seenScope } : {}),
        };
      }
      return ok({
        kind: 'release',
        rule: rule.value.name,
        value: op.value,
        ...(op.lock ? { lockKey: op.lock } : {}),
        ...(lock.value.scope ? { scope: lock.value.scope } : {}),
        ...(lockOwner ? { lockOwner } : {}),
        ...(holder ? { holder } : {}),
      });
    }
    case 'signup':
      return ok({ kind: 'signup', account: op.account, values: op.values, ...(op.attributes ? { attributes: op.attributes } : {}) });
    case 'change-value': {
      const rule = findRule(convention, op.rule);
      if (!rule.ok) return rule;
      const account = await readAccount(ctx, op.account);
      if (!account.ok) return account;
      const from = op.from ?? storedText(account.value, rule.value.attribute);
      if (from === undefined)
        return err('validation', `${formatKey(op.account, convention.keys)} has no ${rule.value.attribute} to change`, {
          field: 'account',
        });
      const scope = scopeOfAccount(rule.value, account.value, op.account, convention);
      if (!scope.ok) return scope;
      return ok({
        kind: 'change-value',
        account: op.account,
        rule: rule.value.name,
        from,
        to: op.to,
        ...(scope.value ? { scope: scope.value } : {}),
      });
    }
    case 'delete-account': {
      const account = await readAccount(ctx, op.account);
      if (!account.ok) return account;
      const values: Record<string, string> = {};
      const scopes: Record<string, ScopeValues> = {};
      for (const rule of convention.rules) {
        const stored = storedText(account.value, rule.attribute);
        if (stored === undefined || stored.trim() === '') continue;
        if (isScoped(rule)) {
          // A scoped value without its scope has no lock to delete (the audit joins it to nothing either).
          const scope = accountScope(rule, account.value);
          if (scope === undefined) continue;
          scopes[rule.name] = scope;
        }
        values[rule.name] = stored;
      }
      return ok({ kind: 'delete-account', account: op.account, values, ...(Object.keys(scopes).length ? { scopes } : {}) });
    }
  }
}
