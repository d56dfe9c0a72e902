import { describe, expect, it } from 'vitest';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../conventions/presets';
import { layoutFor, S } from '../conventions/test-layouts';
import type { Item, Problem } from '../model';
import type { StreamChange, WatchCause } from './watch-events';
import { eventText } from './watch-events';
import { scopeProblems } from './evaluate';
import { scopesOf, valueScopeId, type WatchScope } from './scopes';
import { SettleQueue } from './settle';
import { planShards, type ShardState } from './shards';
import { enableStreamCommand, watchableStream } from './stream-spec';
import { ProblemTracker } from './tracker';

const convention = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);
const s = (value: string): { S: string } => ({ S: value });
const acct = (id: string, email?: string, username?: string): Item => ({
  PK: s(`ACCT#${id}`),
  SK: s('PROFILE'),
  ...(email ? { email: s(email) } : {}),
  ...(username ? { username: s(username) } : {}),
});
const lock = (tag: string, value: string): Item => ({ PK: s(`UNIQ#${tag}#${value}`), SK: s('LOCK') });
const keysOf = (item: Item): Item => ({ PK: item.PK!, SK: item.SK! });
const change = (eventName: StreamChange['eventName'], oldImage?: Item, newImage?: Item): StreamChange => ({
  eventName,
  keys: keysOf((newImage ?? oldImage)!),
  ...(oldImage ? { oldImage } : {}),
  ...(newImage ? { newImage } : {}),
  at: '2026-12-01T10:00:00.000Z',
  sequenceNumber: '1',
});
const ids = (scopes: readonly WatchScope[]): string[] => scopes.map((x) => x.id).sort();
const cause: WatchCause = {
  eventName: 'REMOVE',
  keys: { PK: 'ACCT#a', SK: 'PROFILE' },
  at: '2026-12-01T10:00:00.000Z',
  sequenceNumber: '7',
};

describe('scopesOf: which values a record touches', () => {
  it.each([
    {
      name: 'signup INSERT of an account: both values',
      c: change('INSERT', undefined, acct('a', 'Ada@X.io', 'ada')),
      want: [valueScopeId(0, 'ada@x.io'), valueScopeId(1, 'ada')],
    },
    {
      name: 'REMOVE of an account: the values it held',
      c: change('REMOVE', acct('a', 'ada@x.io', 'ada')),
      want: [valueScopeId(0, 'ada@x.io'), valueScopeId(1, 'ada')],
    },
    {
      name: 'email change: old and new email, not the handle',
      c: change('MODIFY', acct('a', 'old@x.io', 'ada'), acct('a', 'new@x.io', 'ada')),
      want: [valueScopeId(0, 'new@x.io'), valueScopeId(0, 'old@x.io')],
    },
    {
      name: 'account update leaving its values alone: nothing',
      c: change('MODIFY', { ...acct('a', 'a@x.io', 'ada'), n: s('1') }, { ...acct('a', 'a@x.io', 'ada'), n: s('2') }),
      want: [],
    },
    { name: 'lock INSERT: its value', c: change('INSERT', undefined, lock('EMAIL', 'a@x.io')), want: [valueScopeId(0, 'a@x.io')] },
    { name: 'lock REMOVE: its value', c: change('REMOVE', lock('HANDLE', 'ada')), want: [valueScopeId(1, 'ada')] },
    { name: 'an item that is neither: nothing', c: change('INSERT', undefined, { PK: s('ORDER#1'), SK: s('X') }), want: [] },
    {
      name: 'malformed lock key: its key',
      c: change('INSERT', undefined, lock('EMAIL', 'undefined')),
      want: [JSON.stringify(['m', JSON.stringify(['UNIQ#EMAIL#undefined', 'LOCK'])])],
    },
  ])('$name', ({ c, want }) => {
    expect(ids(scopesOf(convention, c))).toEqual([...want].sort());
  });

  it.each([
    {
      name: 'an account INSERT gains its values',
      c: change('INSERT', undefined, acct('a', 'a@x.io', 'ada')),
      gained: ['a@x.io true', 'ada true'],
    },
    {
      name: 'an email change gains the new value only',
      c: change('MODIFY', acct('a', 'old@x.io', 'ada'), acct('a', 'new@x.io', 'ada')),
      gained: ['new@x.io true', 'old@x.io false'],
    },
    { name: 'a REMOVE gains nothing', c: change('REMOVE', acct('a', 'a@x.io', 'ada')), gained: ['a@x.io false', 'ada false'] },
    { name: 'a lock record gains nothing', c: change('INSERT', undefined, lock('EMAIL', 'a@x.io')), gained: ['a@x.io false'] },
  ])('$name (a value gained without its lock record is searched for other holders)', ({ c, gained }) => {
    expect(
      scopesOf(convention, c)
        .map((x) => (x.kind === 'value' ? `${x.normalized} ${String(x.gained)}` : x.id))
        .sort(),
    ).toEqual(gained);
  });

  it('keeps the stored spelling and the account named, for the index query and the re-read', () => {
    const [scope] = scopesOf(convention, change('REMOVE', acct('a', ' Ada@X.io')));
    expect(scope).toMatchObject({
      kind: 'value',
      rule: 'EMAIL',
      normalized: 'ada@x.io',
      forms: [' Ada@X.io'],
      accounts: [{ PK: 'ACCT#a', SK: 'PROFILE' }],
      locks: [],
    });
  });
});

describe('scopeProblems: the audit rules, applied to one scope', () => {
  const email = scopesOf(convention, change('REMOVE', acct('a', 'a@x.io', 'ada'))).find((x) => x.kind === 'value' && x.rule === 'EMAIL')!;
  it.each([
    { name: 'lock, no holder → orphan-lock', items: [lock('EMAIL', 'a@x.io')], want: ['orphan-lock'] },
    { name: 'holder, no lock → missing-lock', items: [acct('a', 'a@x.io', 'ada')], want: ['missing-lock'] },
    { name: 'holder and lock → nothing', items: [acct('a', 'a@x.io', 'ada'), lock('EMAIL', 'a@x.io')], want: [] },
    {
      name: 'two holders → duplicate-value',
      items: [acct('a', 'a@x.io'), acct('b', 'A@x.io'), lock('EMAIL', 'a@x.io')],
      want: ['duplicate-value'],
    },
    { name: 'nothing left → nothing', items: [], want: [] },
    // The account's handle has no lock in the re-read: not this scope's business.
    {
      name: "other values' problems are not reported",
      items: [acct('a', 'a@x.io', 'ada'), lock('EMAIL', 'a@x.io'), lock('EMAIL', 'zzz')],
      want: [],
    },
  ])('$name', ({ items, want }) => {
    expect(scopeProblems(convention, email, items).map((p) => p.kind)).toEqual(want);
  });
});

describe('scopeProblems: a convention with a lock table', () => {
  const split = { ...convention, lockTable: 'accounts-unique' };
  const email = scopesOf(split, change('INSERT', undefined, acct('a', 'a@x.io', 'ada'))).find(
    (x) => x.kind === 'value' && x.rule === 'EMAIL',
  )!;
  it.each([
    { name: 'holder, lock in the lock table → nothing', items: [acct('a', 'a@x.io')], locks: [lock('EMAIL', 'a@x.io')], want: [] },
    { name: 'lock in the lock table, no holder → orphan-lock', items: [], locks: [lock('EMAIL', 'a@x.io')], want: ['orphan-lock'] },
    { name: 'holder, no lock in the lock table → missing-lock', items: [acct('a', 'a@x.io')], locks: [], want: ['missing-lock'] },
  ])('$name', ({ items, locks, want }) => {
    expect(scopeProblems(split, email, items, locks).map((p) => p.kind)).toEqual(want);
  });

  it.each([
    {
      name: 'a lock in the lock table: its value',
      from: 'lock-table' as const,
      c: change('REMOVE', lock('EMAIL', 'a@x.io')),
      want: [valueScopeId(0, 'a@x.io')],
    },
    {
      name: 'a lock in the accounts table: malformed (it protects nothing)',
      from: 'table' as const,
      c: change('INSERT', undefined, lock('EMAIL', 'a@x.io')),
      want: [JSON.stringify(['m', JSON.stringify(['UNIQ#EMAIL#a@x.io', 'LOCK'])])],
    },
    {
      name: 'an account in the lock table: nothing',
      from: 'lock-table' as const,
      c: change('INSERT', undefined, acct('a', 'a@x.io')),
      want: [],
    },
    {
      name: 'a malformed key in the lock table: its key, there',
      from: 'lock-table' as const,
      c: change('INSERT', undefined, lock('EMAIL', 'undefined')),
      want: [JSON.stringify(['m', JSON.stringify(['UNIQ#EMAIL#undefined', 'LOCK']), 'lock-table'])],
    },
  ])('scopesOf, $name', ({ from, c, want }) => {
    expect(ids(scopesOf(split, c, from))).toEqual(want);
  });

  it('judges a lock of the accounts table malformed, as the audit does', () => {
    const [stray] = scopesOf(split, change('INSERT', undefined, lock('EMAIL', 'a@x.io')), 'table');
    expect(scopeProblems(split, stray!, [lock('EMAIL', 'a@x.io')]).map((p) => p.kind)).toEqual(['malformed-lock']);
  });
});

describe('SettleQueue: the settle window', () => {
  const [a, b] = scopesOf(convention, change('REMOVE', acct('a', 'a@x.io', 'ada')));
  it.each([
    { name: 'not before the window', steps: [[0, 'a']] as const, at: 999, want: [] },
    { name: 'at the window', steps: [[0, 'a']] as const, at: 1000, want: ['a'] },
    {
      name: 'a later record restarts the wait',
      steps: [
        [0, 'a'],
        [800, 'a'],
      ] as const,
      at: 1500,
      want: [],
    },
    {
      name: 'but never past maxWait from the first record',
      steps: [
        [0, 'a'],
        [900, 'a'],
        [1800, 'a'],
        [2700, 'a'],
        [3600, 'a'],
      ] as const,
      at: 4000,
      want: ['a'],
    },
    {
      name: 'each scope on its own clock',
      steps: [
        [0, 'a'],
        [600, 'b'],
      ] as const,
      at: 1200,
      want: ['a'],
    },
  ])('$name', ({ steps, at, want }) => {
    const queue = new SettleQueue(convention, { settleMs: 1000 });
    for (const [time, which] of steps) queue.add([which === 'a' ? a! : b!], cause, time);
    expect(queue.takeDue(at).map((d) => (d.scope.id === a!.id ? 'a' : 'b'))).toEqual(want);
  });

  it('merges what the records said and keeps the latest cause; reports itself full at the bound', () => {
    const queue = new SettleQueue(convention, { settleMs: 10, maxPending: 2 });
    const later = { ...cause, sequenceNumber: '8' };
    queue.add(scopesOf(convention, change('INSERT', undefined, lock('EMAIL', 'a@x.io'))), cause, 0);
    queue.add(scopesOf(convention, change('REMOVE', acct('a', 'A@x.io'))), later, 1);
    expect(queue.full).toBe(false);
    const [due] = queue.takeDue(100);
    expect(due).toMatchObject({
      cause: { sequenceNumber: '8' },
      scope: { forms: ['A@x.io'], locks: [{ PK: 'UNIQ#EMAIL#a@x.io' }], accounts: [{ PK: 'ACCT#a' }] },
    });
    queue.add([a!, b!], cause, 200);
    expect(queue.full).toBe(true);
  });
});

describe('SettleQueue: which record is named', () => {
  const [scope] = scopesOf(convention, change('REMOVE', acct('a', 'a@x.io')));
  const lockTableRecord: WatchCause = {
    eventName: 'REMOVE',
    keys: { PK: 'UNIQ#EMAIL#a@x.io', SK: 'LOCK' },
    at: '2026-12-01T10:00:01.000Z',
    sequenceNumber: '500',
  };
  const accountRecord: WatchCause = {
    eventName: 'MODIFY',
    keys: { PK: 'ACCT#a', SK: 'PROFILE' },
    at: '2026-12-01T10:00:02.000Z',
    sequenceNumber: '90',
  };

  it('a record written earlier that arrives later (another stream, polled apart) is not named over the later write', () => {
    const queue = new SettleQueue(convention, { settleMs: 10 });
    queue.add([scope!], accountRecord, 0);
    queue.add([scope!], lockTableRecord, 1);
    expect(queue.takeDue(100)).toMatchObject([{ cause: { sequenceNumber: '90' } }]);
  });

  it('in arrival order a later write is named; records of one (rounded) instant are named by arrival', () => {
    const queue = new SettleQueue(convention, { settleMs: 10 });
    queue.add([scope!], lockTableRecord, 0);
    queue.add([scope!], accountRecord, 1);
    expect(queue.takeDue(100)).toMatchObject([{ cause: { sequenceNumber: '90' } }]);
    queue.add([scope!], accountRecord, 200);
    queue.add([scope!], { ...lockTableRecord, at: accountRecord.at }, 201);
    expect(queue.takeDue(300)).toMatchObject([{ cause: { sequenceNumber: '500' } }]);
  });
});

describe('SettleQueue: the second look', () => {
  it('keeps the record that arrived meanwhile as the cause, and marks the check as a confirmation', () => {
    const [scope] = scopesOf(convention, change('REMOVE', acct('a', 'a@x.io')));
    const queue = new SettleQueue(convention, { settleMs: 10 });
    const remove = { ...cause, sequenceNumber: '9' };
    queue.add([scope!], remove, 0);
    queue.add([scope!], cause, 1, true);
    expect(queue.takeDue(100)).toMatchObject([{ cause: { sequenceNumber: '9' }, confirm: true }]);
    queue.add([scope!], cause, 200, true);
    queue.add([scope!], remove, 201);
    expect(queue.takeDue(300)).toMatchObject([{ cause: { sequenceNumber: '9' }, confirm: true }]);
  });
});

describe('ProblemTracker: appear and resolve', () => {
  const [scope] = scopesOf(convention, change('REMOVE', acct('a', 'a@x.io')));
  const orphan: Problem = { kind: 'orphan-lock', rule: 'EMAIL', value: 'a@x.io', lock: { PK: 'UNIQ#EMAIL#a@x.io', SK: 'LOCK' } };
  it('reports a problem once, then its resolution, and forgets a healthy scope', () => {
    const tracker = new ProblemTracker();
    expect(tracker.differs(scope!, [orphan])).toBe(true);
    expect(tracker.update(scope!, [orphan], cause)).toEqual([{ event: 'problem', problem: orphan, cause }]);
    expect(tracker.differs(scope!, [orphan])).toBe(false);
    expect(tracker.update(scope!, [orphan], cause)).toEqual([]);
    expect(tracker.size).toBe(1);
    expect(tracker.update(scope!, [], cause)).toEqual([{ event: 'resolved', problem: orphan, cause }]);
    expect(tracker.size).toBe(0);
    expect(tracker.update(scope!, [], cause)).toEqual([]);
  });
});

describe('planShards: every shard, children after parents', () => {
  const known = (entries: [string, ShardState][]): Map<string, ShardState> => new Map(entries);
  it.each([
    {
      name: 'start: open shards from LATEST, closed ones are history',
      known: [],
      shards: [
        { shardId: 'a', closed: true },
        { shardId: 'b', parentShardId: 'a', closed: false },
      ],
      initial: true,
      start: ['b:LATEST'],
      skip: ['a'],
      forget: [],
    },
    {
      name: 'a split: children of a finished parent from TRIM_HORIZON',
      known: [['a', 'done']],
      shards: [
        { shardId: 'a', closed: true },
        { shardId: 'b', parentShardId: 'a', closed: false },
        { shardId: 'c', parentShardId: 'a', closed: false },
      ],
      initial: false,
      start: ['b:TRIM_HORIZON', 'c:TRIM_HORIZON'],
      skip: [],
      forget: [],
    },
    {
      name: 'a child waits while its parent is still being read',
      known: [['a', 'reading']],
      shards: [
        { shardId: 'a', closed: true },
        { shardId: 'b', parentShardId: 'a', closed: false },
      ],
      initial: false,
      start: [],
      skip: [],
      forget: [],
    },
    {
      name: 'a new parent and child together: the parent first',
      known: [['z', 'done']],
      shards: [
        { shardId: 'a', parentShardId: 'z', closed: true },
        { shardId: 'b', parentShardId: 'a', closed: false },
      ],
      initial: false,
      start: ['a:TRIM_HORIZON'],
      skip: [],
      forget: ['z'],
    },
    {
      name: 'a trimmed parent no longer listed: the child starts, the parent is forgotten',
      known: [['a', 'done']],
      shards: [{ shardId: 'b', parentShardId: 'a', closed: false }],
      initial: false,
      start: ['b:TRIM_HORIZON'],
      skip: [],
      forget: ['a'],
    },
    {
      name: 'shards being read are left alone',
      known: [['b', 'reading']],
      shards: [{ shardId: 'b', closed: false }],
      initial: false,
      start: [],
      skip: [],
      forget: [],
    },
  ] as const)('$name', (t) => {
    const plan = planShards(known([...t.known] as [string, ShardState][]), t.shards, t.initial);
    expect(plan.start.map((x) => `${x.shardId}:${x.position}`)).toEqual(t.start);
    expect(plan.skip).toEqual(t.skip);
    expect(plan.forget).toEqual(t.forget);
  });
});

describe('watchableStream: never enabled silently', () => {
  it.each([
    { name: 'no stream', settings: { enabled: false }, ok: false },
    { name: 'KEYS_ONLY', settings: { enabled: true, viewType: 'KEYS_ONLY', streamArn: 'arn:s' }, ok: false },
    { name: 'NEW_IMAGE', settings: { enabled: true, viewType: 'NEW_IMAGE', streamArn: 'arn:s' }, ok: false },
    { name: 'NEW_AND_OLD_IMAGES', settings: { enabled: true, viewType: 'NEW_AND_OLD_IMAGES', streamArn: 'arn:s' }, ok: true },
  ])('$name', ({ settings, ok }) => {
    const out = watchableStream('accounts', settings);
    expect(out.ok).toBe(ok);
    if (!out.ok)
      expect(out.error.fix).toContain(
        'aws dynamodb update-table --table-name accounts --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES',
      );
  });

  it('prints the readable line of each event', () => {
    expect(enableStreamCommand('t')).toContain('--table-name t ');
    expect(
      eventText({
        event: 'problem',
        problem: { kind: 'orphan-lock', rule: 'EMAIL', value: 'a@x.io', lock: { PK: 'UNIQ#EMAIL#a@x.io', SK: 'LOCK' } },
        cause,
      }),
    ).toBe(
      'PROBLEM  orphan-lock EMAIL "a@x.io" lock PK=UNIQ#EMAIL#a@x.io, SK=LOCK — caused by REMOVE PK=ACCT#a, SK=PROFILE at 2026-12-01T10:00:00.000Z (#7)',
    );
  });
});

describe('scoped rules: the scope is part of what a record touches', () => {
  const scoped = layoutFor('onetable', { rules: [{ attribute: 'nickname', scope: 'orgId' }] });
  const user = (id: string, org: string, nickname: string): Item => scoped.account(id, { orgId: org, nickname });
  const lockIn = (org: string, value: string): Item =>
    scoped.raw(`_unique#${org}#User#nickname#${value}`, '_unique#', { _type: S('_Unique') });
  const rec = (eventName: StreamChange['eventName'], oldImage?: Item, newImage?: Item): StreamChange => ({
    eventName,
    keys: { pk: (newImage ?? oldImage)!.pk!, sk: (newImage ?? oldImage)!.sk! },
    ...(oldImage ? { oldImage } : {}),
    ...(newImage ? { newImage } : {}),
    at: 'x',
    sequenceNumber: '1',
  });

  it('the same nickname in two orgs is two scopes; a move between orgs touches both', () => {
    const [inAcme] = scopesOf(scoped.convention, rec('REMOVE', user('u1', 'acme', 'ada')));
    const [lockGlobex] = scopesOf(scoped.convention, rec('INSERT', undefined, lockIn('globex', 'ada')));
    expect(inAcme!.id).not.toBe(lockGlobex!.id);
    expect(
      scopesOf(scoped.convention, rec('MODIFY', user('u1', 'acme', 'ada'), user('u1', 'globex', 'ada')))
        .map((x) => x.id)
        .sort(),
    ).toEqual([inAcme!.id, lockGlobex!.id].sort());
  });

  it("an orphan in one org is that scope's problem only", () => {
    const [globex] = scopesOf(scoped.convention, rec('INSERT', undefined, lockIn('globex', 'ada')));
    const [acme] = scopesOf(scoped.convention, rec('INSERT', undefined, lockIn('acme', 'ada')));
    const items = [user('u1', 'acme', 'ada'), lockIn('acme', 'ada'), lockIn('globex', 'ada')];
    expect(scopeProblems(scoped.convention, globex!, items).map((p) => [p.kind, p.scope])).toEqual([['orphan-lock', { orgId: 'globex' }]]);
    expect(scopeProblems(scoped.convention, acme!, items)).toEqual([]);
  });
});
