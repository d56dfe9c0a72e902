import { describe, expect, it } from 'vitest';
import { canonicalNumber } from '../conventions/scope';
import { layoutFor, S } from '../conventions/test-layouts';
import type { Item } from '../model';
import { AuditEngine } from './engine';
import type { AccountGroup } from './types';

const scopedOnetable = layoutFor('onetable', { rules: [{ attribute: 'nickname', scope: 'orgId' }] });
const lock = (org: string, value: string): Item =>
  scopedOnetable.raw(`_unique#${org}#User#nickname#${value}`, '_unique#', { _type: S('_Unique') });
const user = (id: string, org: string, nickname: string): Item => scopedOnetable.account(id, { orgId: org, nickname });

function problemsOf(items: readonly Item[], layout = scopedOnetable) {
  const engine = new AuditEngine(layout.convention);
  engine.addItems(items);
  return engine.problems();
}

describe('scoped rules: the scope is part of the join', () => {
  it('one nickname held in two orgs, each with its lock, is healthy', () => {
    expect(problemsOf([user('u1', 'acme', 'ada'), lock('acme', 'ada'), user('u2', 'globex', 'ada'), lock('globex', 'ada')])).toEqual([]);
  });

  it('two holders in one org are a duplicate, named with their scope', () => {
    const problems = problemsOf([
      user('u1', 'acme', 'ada'),
      user('u2', 'acme', 'ada'),
      lock('acme', 'ada'),
      user('u3', 'globex', 'ada'),
      lock('globex', 'ada'),
    ]);
    expect(problems).toEqual([
      {
        kind: 'duplicate-value',
        rule: 'User.nickname',
        value: 'ada',
        scope: { orgId: 'acme' },
        accounts: [
          { pk: 'User#u1', sk: 'User#' },
          { pk: 'User#u2', sk: 'User#' },
        ],
      },
    ]);
  });

  it('an orphan in org B is not hidden by a holder in org A', () => {
    const problems = problemsOf([user('u1', 'acme', 'ada'), lock('acme', 'ada'), lock('globex', 'ada')]);
    expect(problems).toEqual([
      {
        kind: 'orphan-lock',
        rule: 'User.nickname',
        value: 'ada',
        scope: { orgId: 'globex' },
        lock: { pk: '_unique#globex#User#nickname#ada', sk: '_unique#' },
      },
    ]);
  });

  it('a holder whose only lock is in another org is missing its lock', () => {
    const problems = problemsOf([user('u1', 'acme', 'ada'), lock('globex', 'ada')]);
    expect(problems.map((p) => [p.kind, p.scope])).toEqual([
      ['orphan-lock', { orgId: 'globex' }],
      ['missing-lock', { orgId: 'acme' }],
    ]);
  });

  it('a value whose scope attribute is missing joins nothing (no lock could be written for it)', () => {
    expect(problemsOf([scopedOnetable.account('u1', { nickname: 'ada' })])).toEqual([]);
  });

  it('rows carry the scope on the lock chip and the orphan row', () => {
    const engine = new AuditEngine(scopedOnetable.convention);
    engine.addItems([user('u1', 'acme', 'ada'), lock('acme', 'ada'), lock('globex', 'zed')]);
    const rows = engine.rows();
    const account = rows.find((r): r is AccountGroup => r.kind === 'account');
    expect(account?.locks[0]).toMatchObject({ status: 'ok', scope: { orgId: 'acme' } });
    expect(rows.find((r) => r.kind === 'orphan-lock')).toMatchObject({ value: 'zed', scope: { orgId: 'globex' } });
  });

  it('composite keys (uniq with a tenant in the key) join on tenant + value', () => {
    const uniq = layoutFor('uniq', { rules: [{ attribute: 'email', tag: 'EMAIL', scope: 'tenantId', normalize: ['lowercase'] }] });
    const items = [
      uniq.account('a1', { email: 'Ada@X.io', tenantId: 't1' }),
      uniq.raw('UNIQ#EMAIL#t1#ada@x.io', 'LOCK'),
      uniq.account('a2', { email: 'ada@x.io', tenantId: 't2' }),
      uniq.raw('UNIQ#EMAIL#t3#ada@x.io', 'LOCK'),
    ];
    expect(problemsOf(items, uniq).map((p) => [p.kind, p.scope])).toEqual([
      ['orphan-lock', { tenantId: 't3' }],
      ['missing-lock', { tenantId: 't2' }],
    ]);
  });
});

describe('number-typed values', () => {
  const phone = layoutFor('marker', { rules: [{ attribute: 'phone', tag: 'PHONE', valueType: 'N' }] });

  it('an N attribute joins the lock written with its decimal text, whatever the spelling', () => {
    const items: Item[] = [
      { userId: S('u1'), phone: { N: '4155550100' } },
      phone.raw('PHONE#4155550100'),
      { userId: S('u2'), phone: { N: '1.5' } },
      phone.raw('PHONE#1.50'),
    ];
    expect(problemsOf(items, phone)).toEqual([]);
  });

  it.each([
    ['1.50', '1.5'],
    ['15e-1', '1.5'],
    ['-0007', '-7'],
    ['1E+3', '1000'],
    ['0.000', '0'],
    ['.5', '0.5'],
    ['abc', 'abc'],
  ])('canonicalNumber(%s) = %s', (text, expected) => {
    expect(canonicalNumber(text)).toBe(expected);
  });
});

describe('electrodb preset', () => {
  const edb = layoutFor('electrodb', { service: 'MI6', accountEntity: 'agent', rules: [{ attribute: 'email' }] });

  it('joins the lower-cased key value with the stored spelling and reads the rule from the sort key', () => {
    const agent: Item = {
      pk: S('$mi6#designation_00'),
      sk: S('$agent_1#id_7'),
      email: S('James.Bond@MI6.gov'),
      __edb_e__: S('agent'),
      __edb_v__: S('1'),
    };
    const constraint = edb.lock('agent.email', 'james.bond@mi6.gov');
    expect(constraint.pk).toEqual(S('$mi6#value_james.bond@mi6.gov'));
    expect(constraint.sk).toEqual(S('$constraint_1#name_email#entity_agent'));
    expect(constraint.gsi1pk).toEqual(S('$mi6#name_email#entity_agent'));
    expect(problemsOf([agent, constraint], edb)).toEqual([]);
    expect(problemsOf([agent], edb)).toEqual([
      expect.objectContaining({ kind: 'missing-lock', rule: 'agent.email', value: 'james.bond@mi6.gov' }),
    ]);
  });
});

describe('detection of scoped rules', () => {
  it("finds OneTable's scope attribute and a composite uniq key by (scope, value) overlap", async () => {
    const { detectConvention } = await import('../conventions/detect');
    const onetableItems: Item[] = [];
    for (let i = 0; i < 12; i++) {
      const org = i % 2 === 0 ? 'acme' : 'globex';
      onetableItems.push(user(`u${i}`, org, `nick${i % 6}`), lock(org, `nick${i % 6}`));
    }
    const found = detectConvention(scopedOnetable.convention.keys, onetableItems);
    expect(found.ok && found.value.convention.rules.find((r) => r.attribute === 'nickname')?.scope).toEqual({ scope: 'orgId' });

    const uniq = layoutFor('uniq', { rules: [{ attribute: 'email', tag: 'EMAIL', scope: 'tenantId' }] });
    const uniqItems: Item[] = [];
    for (let i = 0; i < 12; i++) {
      const tenant = `t${i % 3}`;
      uniqItems.push(
        uniq.account(`a${i}`, { email: `user${i % 4}@x.io`, tenantId: tenant }),
        uniq.raw(`UNIQ#EMAIL#${tenant}#user${i % 4}@x.io`, 'LOCK'),
      );
    }
    const composite = detectConvention(uniq.convention.keys, uniqItems, { preset: 'uniq' });
    expect(composite.ok && composite.value.convention.rules[0]).toMatchObject({
      attribute: 'email',
      scope: { scope: 'tenantId' },
      lockKeys: [{ hash: 'UNIQ#EMAIL#{scope}#{value}', range: 'LOCK' }],
    });
    if (composite.ok) {
      const engine = new AuditEngine(composite.value.convention);
      engine.addItems(uniqItems);
      expect(engine.problems()).toEqual([]);
    }
  });
});
