import { describe, expect, it } from 'vitest';
import { layoutFor } from '../conventions/test-layouts';
import { buildTransaction } from './build';
import type { TransactionSpec } from './types';
import { planRepairs } from './repair-plan';

const onetable = layoutFor('onetable', { rules: [{ attribute: 'nickname', scope: 'orgId' }] }).convention;
const ctx = { table: 'users', convention: onetable };
const account = { pk: 'User#u1', sk: 'User#' };

function built(spec: TransactionSpec) {
  const out = buildTransaction(ctx.table, ctx.convention, spec);
  if (!out.ok) throw new Error(out.error.message);
  return out.value;
}

describe('scoped builders write and guard the scoped key the library checks', () => {
  it('claim puts _unique#<org>#User#nickname#<v> with _type and checks the account still holds it in that org', () => {
    const b = built({ kind: 'claim', rule: 'User.nickname', value: 'ada', account, stored: 'ada', scope: ['acme'] });
    const put = (b.items[0] as { Put: { Item: Record<string, unknown> } }).Put;
    expect(put.Item).toEqual({ pk: { S: '_unique#acme#User#nickname#ada' }, sk: { S: '_unique#' }, _type: { S: '_Unique' } });
    const check = (
      b.items[1] as { ConditionCheck: { ConditionExpression: string; ExpressionAttributeNames: object; ExpressionAttributeValues: object } }
    ).ConditionCheck;
    expect(check.ConditionExpression).toBe('#attr = :stored AND #scope0 = :scope0');
    expect(check.ExpressionAttributeNames).toEqual({ '#attr': 'nickname', '#scope0': 'orgId' });
    expect(check.ExpressionAttributeValues).toEqual({ ':stored': { S: 'ada' }, ':scope0': { S: 'acme' } });
    expect(b.summary).toContain('in orgId `acme`');
  });

  it('claim without a scope is refused, naming the scope attribute', () => {
    const out = buildTransaction(ctx.table, ctx.convention, { kind: 'claim', rule: 'User.nickname', value: 'ada', account, stored: 'ada' });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.message).toMatch(/unique within orgId/);
  });

  it('release deletes the scoped lock; a holder in another org does not block it', () => {
    const b = built({
      kind: 'release',
      rule: 'User.nickname',
      value: 'ada',
      scope: ['globex'],
      holder: { key: account, seen: { state: 'value', value: 'ada' }, seenScope: ['acme'] },
    });
    expect((b.items[0] as { Delete: { Key: object } }).Delete.Key).toEqual({
      pk: { S: '_unique#globex#User#nickname#ada' },
      sk: { S: '_unique#' },
    });
    const check = (b.items[1] as { ConditionCheck: { ConditionExpression: string } }).ConditionCheck;
    // Not `#attr = :seen`: that would pass once the holder moves into globex keeping `ada`.
    expect(check.ConditionExpression).toBe('(attribute_not_exists(#attr)) OR #scope0 <> :scope0');
  });

  it("a holder of another value in another org is pinned to that value, or to being outside the lock's org", () => {
    const b = built({
      kind: 'release',
      rule: 'User.nickname',
      value: 'ada',
      scope: ['globex'],
      holder: { key: account, seen: { state: 'value', value: 'bob' }, seenScope: ['acme'] },
    });
    const check = (b.items[1] as { ConditionCheck: { ConditionExpression: string } }).ConditionCheck;
    expect(check.ConditionExpression).toBe('(attribute_not_exists(#attr) OR #attr = :seen) OR #scope0 <> :scope0');
  });

  it('delete-account and change-value pin the account to the scope its locks were read in', () => {
    const del = built({ kind: 'delete-account', account, values: { 'User.nickname': 'bob' }, scopes: { 'User.nickname': ['acme'] } });
    const accountDelete = (
      del.items[0] as { Delete: { ConditionExpression: string; ExpressionAttributeNames: object; ExpressionAttributeValues: object } }
    ).Delete;
    expect(accountDelete.ConditionExpression).toBe('attribute_exists(#pk) AND #a0 = :s0 AND #scope0 = :scope0');
    expect(accountDelete.ExpressionAttributeNames).toMatchObject({ '#a0': 'nickname', '#scope0': 'orgId' });
    expect(accountDelete.ExpressionAttributeValues).toEqual({ ':s0': { S: 'bob' }, ':scope0': { S: 'acme' } });
    const change = built({ kind: 'change-value', account, rule: 'User.nickname', from: 'bob', to: 'rob', scope: ['acme'] });
    const update = change.items.find((i) => 'Update' in i) as {
      Update: { ConditionExpression: string; ExpressionAttributeValues: object };
    };
    expect(update.Update.ConditionExpression).toBe('#attr = :from AND #scope0 = :scope0');
    expect(update.Update.ExpressionAttributeValues).toMatchObject({ ':from': { S: 'bob' }, ':scope0': { S: 'acme' } });
    expect(change.guards.guarded.join(' ')).toContain('in orgId `acme`');
  });

  it('a number-like scope is compared as text or number, whichever the item stores', () => {
    const del = built({ kind: 'delete-account', account, values: { 'User.nickname': 'bob' }, scopes: { 'User.nickname': ['42'] } });
    const accountDelete = (del.items[0] as { Delete: { ConditionExpression: string; ExpressionAttributeValues: object } }).Delete;
    expect(accountDelete.ConditionExpression).toBe('attribute_exists(#pk) AND #a0 = :s0 AND (#scope0 = :scope0 OR #scope0 = :scope0n)');
    expect(accountDelete.ExpressionAttributeValues).toMatchObject({ ':scope0': { S: '42' }, ':scope0n': { N: '42' } });
    const release = built({
      kind: 'release',
      rule: 'User.nickname',
      value: 'ada',
      scope: ['7'],
      holder: { key: account, seen: { state: 'value', value: 'ada' }, seenScope: ['42'] },
    });
    const check = (release.items[1] as { ConditionCheck: { ConditionExpression: string } }).ConditionCheck;
    expect(check.ConditionExpression).toBe('(attribute_not_exists(#attr)) OR (#scope0 <> :scope0 AND #scope0 <> :scope0n)');
  });

  it("release refuses while the holder holds the value in the lock's own org", () => {
    const out = buildTransaction(ctx.table, ctx.convention, {
      kind: 'release',
      rule: 'User.nickname',
      value: 'ada',
      scope: ['acme'],
      holder: { key: account, seen: { state: 'value', value: 'ada' }, seenScope: ['acme'] },
    });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.kind).toBe('conflict');
  });

  it('an explicit lock key names its scope; a different scope beside it is refused', () => {
    const lockKey = { pk: '_unique#globex#User#nickname#ada', sk: '_unique#' };
    expect(built({ kind: 'release', rule: 'User.nickname', value: 'ada', lockKey }).summary).toContain('orgId `globex`');
    const out = buildTransaction(ctx.table, ctx.convention, {
      kind: 'release',
      rule: 'User.nickname',
      value: 'ada',
      lockKey,
      scope: ['acme'],
    });
    expect(out.ok).toBe(false);
  });
});

describe('the repair plan never guesses a scope', () => {
  it('leaves missing locks to a person when the rule has scoped locks the convention does not declare', () => {
    const plan = planRepairs([
      { kind: 'missing-lock', rule: 'User.email', value: 'ada', accounts: [account] },
      {
        kind: 'malformed-lock',
        rule: 'User.email',
        value: '_unique#acme#User#email#ada',
        lock: { pk: '_unique#acme#User#email#ada', sk: '_unique#' },
        reason: 'a scoped lock ({scope} = `acme`) but rule User.email does not say…',
      },
    ]);
    expect(plan.fixes).toEqual([]);
    expect(plan.manual.map((m) => m.why)).toEqual([expect.stringContaining('declare the rule\'s "scope" first'), expect.any(String)]);
  });

  it("passes an orphan's scope to its release", () => {
    const plan = planRepairs([
      {
        kind: 'orphan-lock',
        rule: 'User.nickname',
        value: 'ada',
        scope: { orgId: 'globex' },
        lock: { pk: '_unique#globex#User#nickname#ada', sk: '_unique#' },
      },
    ]);
    expect(plan.fixes[0]?.operation).toMatchObject({ kind: 'release', scope: { orgId: 'globex' } });
  });
});

describe('number-typed values', () => {
  it('claims compare and signups store an N attribute as a number', () => {
    const phone = layoutFor('marker', { rules: [{ attribute: 'phone', tag: 'PHONE', valueType: 'N' }] }).convention;
    const c = { table: 'users', convention: phone };
    const claim = buildTransaction(c.table, c.convention, {
      kind: 'claim',
      rule: 'PHONE',
      value: '4155550100',
      account: { userId: 'u1' },
      stored: '4155550100',
    });
    expect(
      claim.ok &&
        (claim.value.items[1] as { ConditionCheck: { ExpressionAttributeValues: object } }).ConditionCheck.ExpressionAttributeValues,
    ).toEqual({ ':stored': { N: '4155550100' } });
    const signup = buildTransaction(c.table, c.convention, { kind: 'signup', account: { userId: 'u2' }, values: { PHONE: '1.50' } });
    expect(signup.ok && (signup.value.items[0] as { Put: { Item: Record<string, unknown> } }).Put.Item['phone']).toEqual({ N: '1.5' });
    expect(signup.ok && (signup.value.items[1] as { Put: { Item: Record<string, unknown> } }).Put.Item['userId']).toEqual({
      S: 'PHONE#1.5',
    });
  });
});
