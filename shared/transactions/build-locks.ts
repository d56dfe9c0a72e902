/** Pure builders for the two lock operations: claim (write a lock for a holder) and release (delete a lock). */
import { scopeRecord, scopeWords } from '../conventions/scope';
import { err, ok, type Result } from '../result';
import { shownText } from '../terminal-text';
import {
  accountTarget,
  ActionList,
  type BuildContext,
  existingLockTarget,
  findRule,
  lockPutItem,
  lockTarget,
  makeItem,
  makeLockItem,
  normalizeFor,
  q,
  ruleLabel,
  valueJson,
  valueWords,
} from './build-common';
import { allOf, onlyALock, holdsCondition, scopeComparison } from './build-conditions';
import { plainToJson, Placeholders } from './dynamo-json';
import type { BuiltTransaction, ClaimSpec, ReleaseSpec } from './types';

/**
 * Claim: Put the lock with `attribute_not_exists(<hash key>)` (naming the owner when the
 * convention has an owner attribute) and a ConditionCheck that the account still holds the
 * value exactly as stored (`#attr = :stored`; the stored form may differ from the lock's normalized value).
 */
export function buildClaim(ctx: BuildContext, spec: ClaimSpec): Result<BuiltTransaction> {
  const rule = findRule(ctx.convention, spec.rule);
  if (!rule.ok) return rule;
  const lock = lockTarget(ctx, rule.value, spec.value, spec.scope);
  if (!lock.ok) return lock;
  const account = accountTarget(ctx, spec.account);
  if (!account.ok) return account;
  const label = ruleLabel(rule.value);
  const v = lock.value.value;
  const vw = valueWords(lock.value);
  if (normalizeFor(rule.value, spec.stored) !== v) {
    return err(
      'validation',
      `${account.value.text} stores ${rule.value.attribute} = ${q(spec.stored)}, which is not ${label} ${q(v)} under this rule's normalization`,
      { field: 'stored' },
    );
  }
  const { keys, ownerAttribute } = ctx.convention;
  const list = new ActionList();
  const extra = Object.keys(rule.value.lockItem ?? {});

  const put = new Placeholders();
  const item = lockPutItem(ctx, lock.value, account.value, spec.stored);
  list.add(makeLockItem(ctx, 'Put', item, put, `attribute_not_exists(${put.name(keys.hash.name, 'pk')})`), {
    role: 'put-lock',
    key: lock.value.key,
    keyText: lock.value.text,
    rule: rule.value,
    value: v,
    explanation: `Put ${lock.value.text} only if no item has this key${ownerAttribute ? `, naming ${account.value.text} in \`${ownerAttribute}\`` : ''}${extra.length ? `, with ${extra.map((a) => `\`${a}\``).join(', ')} as the library writes them` : ''}`,
    failure: `${label} ${vw} is already held — the lock ${lock.value.text} exists`,
  });

  const check = new Placeholders();
  const scope = scopeRecord(rule.value, lock.value.scope);
  const scopeText = scope
    ? ` and ${Object.entries(scope)
        .map(([k, s]) => `${k} = ${q(s)}`)
        .join(', ')}`
    : '';
  list.add(makeItem(ctx, 'ConditionCheck', account.value.json, check, holdsCondition(check, lock.value, spec.stored)), {
    role: 'check-account',
    key: account.value.key,
    keyText: account.value.text,
    rule: rule.value,
    value: v,
    explanation: `Check ${account.value.text} exists and still has ${rule.value.attribute} = ${q(spec.stored)} (as stored)${scopeText}`,
    failure: `${account.value.text} no longer holds ${label} ${q(spec.stored)}${scope ? ' in that scope' : ''} (or no longer exists)`,
  });

  return ok({
    kind: 'claim',
    table: ctx.table,
    items: list.items,
    actions: list.actions,
    confirm: v,
    summary: `Claim ${label} ${vw} for ${account.value.text}: write the lock ${lock.value.text}`,
    guards: {
      guarded: [
        `no item has the key ${lock.value.text} when the transaction commits (nobody else took ${q(v)} meanwhile)`,
        `${account.value.text} still has ${rule.value.attribute} exactly ${q(spec.stored)}${scopeText} when the transaction commits`,
      ],
      notGuarded: [`other accounts holding ${q(v)} without a lock (duplicate-value) are not checked; an audit finds them`],
    },
  });
}

/**
 * Release: Delete the lock with `attribute_exists(<hash key>)` (plus the owner seen on it when the
 * convention has an owner attribute) and, when a holder is known, a ConditionCheck that it no
 * longer holds the value. DynamoDB has no "no account holds this" condition; the guards say so.
 */
export function buildRelease(ctx: BuildContext, spec: ReleaseSpec): Result<BuiltTransaction> {
  const rule = findRule(ctx.convention, spec.rule);
  if (!rule.ok) return rule;
  const lock = existingLockTarget(ctx, rule.value, spec.value, spec.lockKey, spec.scope);
  if (!lock.ok) return lock;
  const { keys, ownerAttribute } = ctx.convention;
  const label = ruleLabel(rule.value);
  const v = lock.value.value;
  const vw = valueWords(lock.value);
  const lockScope = scopeRecord(rule.value, lock.value.scope);
  const guarded: string[] = [`the lock ${lock.value.text} still exists when the transaction commits (nothing else is deleted)`];
  const notGuarded: string[] = [
    `DynamoDB has no condition for "no account holds ${q(v)}": Locksmith looks for holders with a consistent read just before sending and refuses if one is found, but an account that takes ${q(v)} between that read and the commit is not caught`,
  ];
  const list = new ActionList();

  const del = new Placeholders();
  let condition = `attribute_exists(${del.name(keys.hash.name, 'pk')})`;
  let ownerWords = '';
  if (ownerAttribute !== undefined && spec.lockOwner !== undefined) {
    const o = del.name(ownerAttribute, 'owner');
    if (spec.lockOwner.state === 'absent') {
      condition += ` AND attribute_not_exists(${o})`;
      ownerWords = ` and it still names no owner`;
      guarded.push(`the lock still names no owner in \`${ownerAttribute}\``);
    } else {
      const ownerJson = plainToJson(spec.lockOwner.value, keys.hash.type);
      condition += ` AND ${o} = ${del.value(ownerJson, 'owner')}`;
      ownerWords = ` and it still names ${String(spec.lockOwner.value)} as owner`;
      guarded.push(
        `the lock still names ${shownText(String(spec.lockOwner.value))} in \`${ownerAttribute}\` (it was not re-claimed meanwhile)`,
      );
    }
  } else if (ownerAttribute !== undefined) {
    notGuarded.push(`the lock's owner (\`${ownerAttribute}\`) was not read, so a lock re-claimed meanwhile would be deleted too`);
  }
  guarded.push(
    `the deleted item carries none of the rules' attributes (${[...new Set(ctx.convention.rules.map((r) => r.attribute))].join(', ')}): it is a lock, never an account`,
  );
  list.add(makeLockItem(ctx, 'Delete', lock.value.json, del, allOf(condition, onlyALock(ctx, del))), {
    role: 'delete-lock',
    key: lock.value.key,
    keyText: lock.value.text,
    rule: rule.value,
    value: v,
    explanation: `Delete ${lock.value.text} only if it exists${ownerWords}`,
    failure: ownerWords
      ? `the lock ${lock.value.text} is gone or now names another owner — it changed since the preview`
      : `the lock ${lock.value.text} no longer exists (already released)`,
  });

  if (spec.holder) {
    const holder = accountTarget(ctx, spec.holder.key, 'holder');
    if (!holder.ok) return holder;
    const h = holder.value.text;
    const check = new Placeholders();
    const attr = check.name(rule.value.attribute, 'attr');
    const seen = spec.holder.seen;
    // For a scoped rule the holder holds the value only in the lock's scope: read in another scope, it cannot.
    const otherScope =
      lockScope !== undefined &&
      spec.holder.seenScope !== undefined &&
      spec.holder.seenScope.join('\u0000') !== (lock.value.scope ?? []).join('\u0000');
    let cond: string;
    let words: string;
    if (seen?.state === 'absent') {
      cond = `attribute_not_exists(${attr})`;
      words = `still has no ${rule.value.attribute} (as read at preview)`;
      guarded.push(`${h} still has no ${rule.value.attribute}`);
    } else if (seen?.state === 'value' && normalizeFor(rule.value, seen.value) === v) {
      if (!otherScope) {
        return err(
          'conflict',
          `${h} still holds ${label} ${vw} (stored as ${q(seen.value)}); releasing its lock would let someone else take it`,
          { field: 'holder' },
        );
      }
      // It held this very value, in another scope: only "no value" or "still outside the lock's scope" (below) may pass;
      // pinning the value it had would let it move into the lock's scope with that value and still pass.
      cond = `attribute_not_exists(${attr})`;
      words = `has no ${rule.value.attribute}`;
      guarded.push(`${h} does not hold ${q(v)} in the lock's scope`);
    } else if (seen?.state === 'value') {
      // Pinning the exact value read at preview guards every spelling: if the holder changes at all, the release fails.
      cond = `attribute_not_exists(${attr}) OR ${attr} = ${check.value(valueJson(rule.value, seen.value), 'seen')}`;
      words = `has no ${rule.value.attribute} or still exactly ${q(seen.value)} (as read at preview), so it cannot hold ${q(v)} in any spelling`;
      guarded.push(`${h} does not hold ${q(v)} in any spelling: its ${rule.value.attribute} is unchanged since the preview`);
    } else {
      const forms = [...new Set([v, spec.value])];
      cond = `attribute_not_exists(${attr}) OR (${forms.map((f, i) => `${attr} <> ${check.value(valueJson(rule.value, f), i === 0 ? 'v' : 'typed')}`).join(' AND ')})`;
      words = `no longer holds it: ${rule.value.attribute} is absent or not exactly ${forms.map(q).join(' / ')}`;
      guarded.push(`${h}'s ${rule.value.attribute} is not exactly ${forms.map(q).join(' or ')}`);
      if (rule.value.normalize.length > 0) {
        notGuarded.push(
          `other spellings that the rule's normalization (${rule.value.normalize.join(', ')}) folds into ${q(v)} are not excluded by the condition on ${h}; the fresh lookup before sending catches them`,
        );
      }
    }
    if (lockScope !== undefined) {
      // …or it holds the value in another scope: that is not this lock's value.
      const other = Object.entries(lockScope).map(([attribute, sv], i) => scopeComparison(check, attribute, sv, `scope${i}`, '<>'));
      cond = `(${cond}) OR ${other.join(' OR ')}`;
      words += `, or it is outside${scopeWords(lockScope)}`;
    }
    list.add(makeItem(ctx, 'ConditionCheck', holder.value.json, check, cond), {
      role: 'check-holder',
      key: holder.value.key,
      keyText: h,
      rule: rule.value,
      value: v,
      explanation: `Check ${h} ${words}`,
      failure: `${h} holds ${label} ${q(v)} again (or its ${rule.value.attribute} changed since the preview)`,
    });
  } else {
    notGuarded.push(`no last known holder was given, so no account is checked by a condition`);
  }

  return ok({
    kind: 'release',
    table: ctx.table,
    items: list.items,
    actions: list.actions,
    confirm: v,
    summary: `Release ${label} ${vw}: delete the lock ${lock.value.text}`,
    guards: { guarded, notGuarded },
  });
}
