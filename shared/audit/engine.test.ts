import { describe, expect, it } from 'vitest';
import type { Item, PresetName, Problem } from '../model';
import { PRESET_NAMES } from '../model';
import { layoutFor, S } from '../conventions/test-layouts';
import { markerConvention, PRESET_DEFAULTS, uniqConvention } from '../conventions/presets';
import { AuditEngine, projectionFor } from './engine';
import type { AccountGroup, GroupRow, StrayLockRow } from './types';
import { CHECKING_ROWS } from './deltas';

const audit = (items: readonly Item[], layout = layoutFor('uniq')): AuditEngine => {
  const engine = new AuditEngine(layout.convention);
  engine.addItems(items);
  return engine;
};
const kinds = (problems: readonly Problem[]): string[] => problems.map((p) => p.kind);

describe.each(PRESET_NAMES.map((p) => [p]))('AuditEngine on preset %s', (preset: PresetName) => {
  const layout = layoutFor(preset);
  const rule = layout.convention.rules[0]!;
  const attr = rule.attribute;

  it('reports nothing for an account whose value is locked', () => {
    const engine = audit([layout.account('a1', { [attr]: 'ada@lovelace.io' }), layout.lock(rule.name, 'ada@lovelace.io')], layout);
    expect(engine.problems()).toEqual([]);
    const counts = engine.counts();
    expect(counts).toMatchObject({ scanned: 2, accounts: 1, locks: 1 });
    const row = engine.rows()[0] as AccountGroup;
    expect(row.kind).toBe('account');
    expect(row.locks[0]).toMatchObject({ rule: rule.name, value: 'ada@lovelace.io', status: 'ok' });
    expect(row.problems).toEqual([]);
  });

  it('finds an orphan lock and shows it as a stray row', () => {
    const lock = layout.lock(rule.name, 'ghost');
    const engine = audit([lock], layout);
    const [p] = engine.problems();
    expect(p).toMatchObject({ kind: 'orphan-lock', rule: rule.name, value: 'ghost' });
    expect(p?.lock).toBeDefined();
    expect((engine.rows()[0] as StrayLockRow).kind).toBe('orphan-lock');
    expect(engine.counts().summary['orphan-lock']).toBe(1);
  });

  it('finds a missing lock', () => {
    const engine = audit([layout.account('a1', { [attr]: 'lonely' })], layout);
    expect(engine.problems()).toEqual([{ kind: 'missing-lock', rule: rule.name, value: 'lonely', accounts: [expect.any(Object)] }]);
    expect((engine.rows()[0] as AccountGroup).locks[0]?.status).toBe('missing');
  });

  it('reports a duplicate value once, listing every account', () => {
    const engine = audit(
      [
        layout.account('a2', { [attr]: 'twin' }),
        layout.account('a1', { [attr]: 'twin' }),
        layout.account('a3', { [attr]: 'twin' }),
        layout.lock(rule.name, 'twin'),
      ],
      layout,
    );
    const problems = engine.problems();
    expect(kinds(problems)).toEqual(['duplicate-value']);
    expect(problems[0]?.accounts?.map((k) => Object.values(k)[0])).toEqual(['a1', 'a2', 'a3'].map(layout.accountHash));
    const row = engine.rows().find((r) => r.kind === 'account') as AccountGroup;
    expect(row.locks[0]?.status).toBe('duplicate');
    expect(row.locks[0]?.otherHolders).toHaveLength(2);
    // What a lookup borrows from a finished audit: every holder of the normalized value, in key order.
    expect(engine.holderKeys(0, problems[0]!.value).map((k) => Object.values(k)[0])).toEqual(['a1', 'a2', 'a3'].map(layout.accountHash));
    expect(engine.holderKeys(0, 'nobody-holds-this')).toEqual([]);
  });

  it('reports owner-mismatch only with an owner attribute', () => {
    const owned = layoutFor(preset, { ownerAttribute: 'owner' });
    const items = [
      owned.account('a1', { [attr]: 'mine' }),
      owned.account('a2', { [attr]: 'other' }),
      owned.lock(rule.name, 'mine', { owner: S(owned.accountHash('a2')) }),
      owned.lock(rule.name, 'other', { owner: S(owned.accountHash('a2')) }),
    ];
    const problems = audit(items, owned).problems();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: 'owner-mismatch', rule: rule.name, value: 'mine' });
    expect(problems[0]?.reason).toContain(owned.accountHash('a2'));
    // The same items without an owner attribute are healthy.
    expect(
      audit(
        items.map((i) => ({ ...i })),
        layout,
      ).problems(),
    ).toEqual([]);
  });

  it.each([
    ['an empty value', ''],
    ['the literal undefined', 'undefined'],
    ['the literal null', 'null'],
  ])('reports %s as a malformed lock', (_label, value) => {
    const problems = audit([layout.lock(rule.name, value)], layout).problems();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: 'malformed-lock', rule: rule.name });
  });

  it('reports a lock prefix that matches no rule as malformed', () => {
    const strict = layoutFor(preset, { extraLockPrefixes: ['PHONE#'] });
    const hash = preset === 'uniq' ? 'UNIQ#PHONE#555' : preset === 'onetable' ? '_unique#User#phone#555' : 'PHONE#555';
    const range = preset === 'uniq' ? 'LOCK' : preset === 'onetable' ? '_unique#' : undefined;
    const problems = audit([strict.raw(hash, range)], strict).problems();
    expect(problems).toEqual([expect.objectContaining({ kind: 'malformed-lock', value: hash })]);
    expect(problems[0]?.rule).toBeUndefined();
    expect(problems[0]?.reason).toMatch(/matches no rule/);
  });

  it('joins on normalized values', () => {
    const normalized = layoutFor(preset, {
      rules: [
        { attribute: attr, tag: layout.convention.preset === 'onetable' ? attr : rule.name, normalize: ['trim', 'lowercase', 'nfc'] },
      ],
    });
    const name = normalized.convention.rules[0]!.name;
    const engine = audit(
      [normalized.account('a1', { [attr]: '  Ada@Lovelace.IO ' }), normalized.lock(name, 'ada@lovelace.io')],
      normalized,
    );
    expect(engine.problems()).toEqual([]);
    const row = engine.rows()[0] as AccountGroup;
    expect(row.locks[0]).toMatchObject({ value: '  Ada@Lovelace.IO ', normalized: 'ada@lovelace.io', status: 'ok' });
  });
});

describe('AuditEngine details', () => {
  const layout = layoutFor('uniq');

  it('reports a lock with the wrong sort key as malformed', () => {
    const problems = audit([layout.raw('UNIQ#EMAIL#ada@lovelace.io', 'PROFILE')]).problems();
    expect(problems).toEqual([expect.objectContaining({ kind: 'malformed-lock', rule: 'EMAIL' })]);
    expect(problems[0]?.reason).toMatch(/wrong sort key.*`PROFILE`.*`LOCK`/);
  });

  it('keeps values with #, unicode and surrounding spaces intact', () => {
    const marker = layoutFor('marker');
    const engine = audit(
      [
        marker.account('u1', { name: '백과' }),
        marker.lock('NAME', '백과'),
        marker.account('u2', { name: 'a#b#c' }),
        marker.lock('NAME', 'a#b#c'),
        marker.account('u3', { name: ' spaced ' }),
        marker.lock('NAME', ' spaced '),
      ],
      marker,
    );
    expect(engine.problems()).toEqual([]);
  });

  it('joins NFC and NFD spellings under nfc normalization', () => {
    const marker = layoutFor('marker');
    const nfd = 'Jose\u0301';
    const nfc = 'José';
    expect(audit([marker.account('u1', { name: nfd }), marker.lock('NAME', nfc)], marker).problems()).toEqual([]);
  });

  it('removes a provisional orphan row when its account arrives later', () => {
    const engine = new AuditEngine(layout.convention);
    engine.addItems([layout.lock('EMAIL', 'ada@lovelace.io')]);
    const first = engine.takeDelta();
    expect(first.upserted.map((r) => r.kind)).toEqual(['orphan-lock']);
    expect(first.counts.summary['orphan-lock']).toBe(1);
    engine.addItems([layout.account('a1', { email: 'ada@lovelace.io', username: 'ada' }), layout.lock('HANDLE', 'ada')]);
    const second = engine.takeDelta();
    expect(second.removed).toEqual([first.upserted[0]?.id]);
    expect(second.upserted.map((r) => r.kind)).toEqual(['account']);
    expect(second.counts.summary['orphan-lock']).toBe(0);
    expect(engine.takeDelta()).toMatchObject({ upserted: [], removed: [] });
  });

  it('while unsettled, holds orphans and sends accounts awaiting a lock marked checking (no missing lock counted); settles them at the end; never sends a removal for a held row', () => {
    const engine = new AuditEngine(layout.convention);
    const summaryOf = (r: GroupRow): unknown => [r.id, r.kind === 'account' ? [r.problems, r.checking ?? false] : r.kind];
    engine.addItems([layout.lock('EMAIL', 'ada@lovelace.io'), layout.account('b1', { email: 'bob@x.io', username: 'bob' })]);
    const first = engine.takeDelta(Number.POSITIVE_INFINITY, false);
    // Bob's locks are not read yet: his row goes out checking, neither healthy nor missing a lock; Ada's lock is held.
    expect(first.upserted.map(summaryOf)).toEqual([['["ACCT#b1","PROFILE"]', [[], true]]]);
    expect(first.counts.checking).toBe(1);
    expect(first.counts.summary['missing-lock']).toBe(0);
    // Ada's account settles her orphan but awaits her handle lock; Bob's locks arrive, so his row settles healthy.
    engine.addItems([
      layout.account('a1', { email: 'ada@lovelace.io', username: 'ada' }),
      layout.lock('EMAIL', 'bob@x.io'),
      layout.lock('HANDLE', 'bob'),
    ]);
    const running = engine.takeDelta(Number.POSITIVE_INFINITY, false);
    expect(running.removed).toEqual([]);
    expect(running.upserted.map(summaryOf)).toEqual([
      ['["ACCT#a1","PROFILE"]', [[], true]],
      ['["ACCT#b1","PROFILE"]', [[], false]],
    ]);
    expect(running.counts.checking).toBe(1);
    engine.addItems([layout.lock('EMAIL', 'ghost@x.io')]);
    const settled = engine.takeDelta();
    // Ada still lacks her handle lock (a real missing lock now), and the ghost is a real orphan.
    expect(settled.upserted.map(summaryOf)).toEqual([
      ['["ACCT#a1","PROFILE"]', [['missing-lock'], false]],
      ['["UNIQ#EMAIL#ghost@x.io","LOCK"]', 'orphan-lock'],
    ]);
    expect(settled.removed).toEqual([]);
    expect(settled.counts.checking).toBeUndefined();
    expect(settled.counts.summary['missing-lock']).toBe(1);
  });

  it('sends at most CHECKING_ROWS accounts marked checking; holds the rest until they settle', () => {
    const engine = new AuditEngine(layout.convention);
    const n = CHECKING_ROWS + 5;
    engine.addItems(Array.from({ length: n }, (_, i) => layout.account(`w${i}`, { email: `w${i}@x.io`, username: `w${i}` })));
    const running = engine.takeDelta(Number.POSITIVE_INFINITY, false);
    expect(running.upserted).toHaveLength(CHECKING_ROWS);
    expect(running.upserted.every((r) => r.kind === 'account' && r.checking === true)).toBe(true);
    // Every waiting account is counted checking, shown or held.
    expect(running.counts.checking).toBe(n);
    const settled = engine.takeDelta();
    expect(settled.upserted).toHaveLength(n);
    expect(settled.upserted.some((r) => r.kind === 'account' && r.checking)).toBe(false);
    expect(settled.counts.summary['missing-lock']).toBe(2 * n);
  });

  it('sends a duplicate at once, even while unsettled', () => {
    const engine = new AuditEngine(layout.convention);
    engine.addItems([layout.lock('EMAIL', 'ada@lovelace.io'), layout.lock('HANDLE', 'ada'), layout.lock('HANDLE', 'ada2')]);
    engine.addItems([
      layout.account('a1', { email: 'ada@lovelace.io', username: 'ada' }),
      layout.account('a2', { email: 'ada@lovelace.io', username: 'ada2' }),
    ]);
    const rows = engine.takeDelta(Number.POSITIVE_INFINITY, false).upserted;
    expect(rows.map((r) => (r.kind === 'account' ? r.problems : []))).toEqual([['duplicate-value'], ['duplicate-value']]);
  });

  it('batches deltas: only changed rows, capped by max', () => {
    const engine = new AuditEngine(layout.convention);
    engine.addItems(Array.from({ length: 10 }, (_, i) => layout.account(`a${i}`, { email: `e${i}@x.io` })));
    engine.takeDelta();
    engine.addItems([layout.lock('EMAIL', 'e3@x.io')]);
    const delta = engine.takeDelta();
    expect(delta.upserted.map((r) => r.id)).toEqual(['["ACCT#a3","PROFILE"]']);
    engine.addItems(Array.from({ length: 5 }, (_, i) => layout.lock('EMAIL', `e${i + 5}@x.io`)));
    expect(engine.takeDelta(2).upserted).toHaveLength(2);
    expect(engine.takeDelta().upserted).toHaveLength(3);
  });

  it('treats N- and B-keyed items as accounts or other, never locks', () => {
    const conv = { ...layoutFor('marker').convention, keys: { hash: { name: 'userId', type: 'N' as const } } };
    const engine = new AuditEngine(conv);
    engine.addItems([{ userId: { N: '42' }, name: S('ada') }, { userId: { N: '43' } }]);
    expect(engine.counts()).toMatchObject({ accounts: 2, locks: 0 });
    expect(engine.problems()).toEqual([{ kind: 'missing-lock', rule: 'NAME', value: 'ada', accounts: [{ userId: 42 }] }]);
    const bin = { ...conv, keys: { hash: { name: 'userId', type: 'B' as const } } };
    const b = new AuditEngine(bin);
    b.addItems([{ userId: { B: new Uint8Array([1, 2, 3]) }, name: S('x') }]);
    expect(b.problems()[0]?.accounts).toEqual([{ userId: 'AQID' }]);
  });

  it('accepts OneTable legacy locks and reports each orphaned form', () => {
    const o = layoutFor('onetable');
    const engine = audit(
      [
        o.account('u1', { email: 'a@x.io' }),
        o.lock('User.email', 'a@x.io', {}, 2), // legacy `_Unique:User:email:…` / `_unique:`
        o.lock('User.email', 'gone@x.io', {}, 0),
        o.lock('User.email', 'gone@x.io', {}, 2),
      ],
      o,
    );
    expect(engine.problems()).toEqual([
      { kind: 'orphan-lock', rule: 'User.email', value: 'gone@x.io', lock: { pk: '_Unique:User:email:gone@x.io', sk: '_unique:' } },
      { kind: 'orphan-lock', rule: 'User.email', value: 'gone@x.io', lock: { pk: '_unique#User#email#gone@x.io', sk: '_unique#' } },
    ]);
  });

  it('runs the uniq preset on a hash-only table', () => {
    const conv = uniqConvention({ hash: { name: 'PK', type: 'S' } }, PRESET_DEFAULTS.uniq);
    const engine = new AuditEngine(conv);
    engine.addItems([{ PK: S('ACCT#1'), email: S('a@x.io') }, { PK: S('UNIQ#EMAIL#a@x.io') }, { PK: S('UNIQ#HANDLE#zed') }]);
    expect(engine.problems().map((p) => `${p.kind}:${p.value}`)).toEqual(['orphan-lock:zed']);
  });

  it('handles values near the key size limit', () => {
    const long = 'é'.repeat(1018); // 2,036 bytes + `UNIQ#EMAIL#` = 2,047 bytes
    const engine = audit([layout.account('a1', { email: long }), layout.lock('EMAIL', long)]);
    expect(engine.problems()).toEqual([]);
  });

  it('ignores items that are neither accounts nor locks', () => {
    const engine = audit([layout.raw('ACCT#a1', 'ORDER#1', { email: S('ada@lovelace.io') })]);
    expect(engine.counts()).toMatchObject({ scanned: 1, accounts: 0, locks: 0 });
    expect(engine.rows()).toEqual([]);
  });

  it('builds a report with the convention, counts and sorted problems', () => {
    const report = audit([
      layout.lock('HANDLE', 'zed'),
      layout.lock('EMAIL', 'b@x.io'),
      layout.account('a1', { email: 'a@x.io' }),
      layout.raw('UNIQ#HANDLE#undefined', 'LOCK'),
    ]).report({
      table: 'accounts',
      complete: false,
      reason: 'segment 2 failed',
    });
    expect(report).toMatchObject({ table: 'accounts', complete: false, reason: 'segment 2 failed', scanned: 4, accounts: 1, locks: 3 });
    expect(report.problems.map((p) => `${p.kind}:${p.rule ?? ''}:${p.value}`)).toEqual([
      'orphan-lock:EMAIL:b@x.io',
      'orphan-lock:HANDLE:zed',
      'missing-lock:EMAIL:a@x.io',
      'malformed-lock:HANDLE:UNIQ#HANDLE#undefined',
    ]);
    expect(report.summary).toEqual({ 'orphan-lock': 2, 'missing-lock': 1, 'duplicate-value': 0, 'owner-mismatch': 0, 'malformed-lock': 1 });
    expect(report.convention).toEqual(layout.convention);
  });
});

// Most lock items are exactly what their rule's first template writes for the value: the engine keeps
// them as a mark on the join entry and rebuilds the lock on demand (see CanonicalForm in state.ts).
// These pin that everything read back is what a stored lock would give.
describe('AuditEngine canonical locks', () => {
  const layout = layoutFor('uniq');
  const accountOf = (engine: AuditEngine, id: string): AccountGroup => engine.rows().find((r) => r.id === id) as AccountGroup;

  it('rebuilds the exact key of a canonical lock for rows and problems', () => {
    const engine = audit([layout.lock('EMAIL', 'ada@x.io'), layout.account('a1', { email: 'ada@x.io' }), layout.lock('HANDLE', 'zed')]);
    expect(accountOf(engine, '["ACCT#a1","PROFILE"]').locks).toEqual([
      { rule: 'EMAIL', value: 'ada@x.io', normalized: 'ada@x.io', status: 'ok', lock: { PK: 'UNIQ#EMAIL#ada@x.io', SK: 'LOCK' } },
    ]);
    expect(engine.problems()).toEqual([{ kind: 'orphan-lock', rule: 'HANDLE', value: 'zed', lock: { PK: 'UNIQ#HANDLE#zed', SK: 'LOCK' } }]);
    expect(engine.rows().find((r) => r.kind === 'orphan-lock')).toEqual({
      kind: 'orphan-lock',
      id: '["UNIQ#HANDLE#zed","LOCK"]',
      key: { PK: 'UNIQ#HANDLE#zed', SK: 'LOCK' },
      rule: 'HANDLE',
      value: 'zed',
    });
  });

  it('a canonical lock sent as an orphan is removed when its account arrives, and counted once', () => {
    const engine = new AuditEngine(layout.convention);
    engine.addItems([layout.lock('EMAIL', 'ada@x.io'), layout.lock('HANDLE', 'ada')]);
    const first = engine.takeDelta();
    expect(first.upserted.map((r) => r.id)).toEqual(['["UNIQ#EMAIL#ada@x.io","LOCK"]', '["UNIQ#HANDLE#ada","LOCK"]']);
    engine.addItems([layout.account('a1', { email: 'Ada@X.io', username: 'ada' })]);
    const second = engine.takeDelta();
    expect([...second.removed].sort()).toEqual(['["UNIQ#EMAIL#ada@x.io","LOCK"]', '["UNIQ#HANDLE#ada","LOCK"]']);
    expect(second.upserted).toEqual([
      {
        kind: 'account',
        id: '["ACCT#a1","PROFILE"]',
        key: { PK: 'ACCT#a1', SK: 'PROFILE' },
        locks: [
          { rule: 'EMAIL', value: 'Ada@X.io', normalized: 'ada@x.io', status: 'ok', lock: { PK: 'UNIQ#EMAIL#ada@x.io', SK: 'LOCK' } },
          { rule: 'HANDLE', value: 'ada', normalized: 'ada', status: 'ok', lock: { PK: 'UNIQ#HANDLE#ada', SK: 'LOCK' } },
        ],
        problems: [],
      },
    ]);
    expect(second.counts).toMatchObject({ accounts: 1, locks: 2, summary: { 'orphan-lock': 0 } });
    expect(engine.rows().map((r) => r.kind)).toEqual(['account']);
    expect(engine.takeDelta()).toMatchObject({ upserted: [], removed: [] });
  });

  it('a canonical orphan held while unsettled never goes out once its account arrives', () => {
    const engine = new AuditEngine(layout.convention);
    engine.addItems([layout.lock('EMAIL', 'ada@x.io')]);
    expect(engine.takeDelta(Number.POSITIVE_INFINITY, false).upserted).toEqual([]);
    engine.addItems([layout.account('a1', { email: 'ada@x.io' })]);
    const settled = engine.takeDelta();
    expect(settled.removed).toEqual([]);
    expect(settled.upserted.map((r) => r.kind)).toEqual(['account']);
  });

  it('joins later accounts and locks to an entry a canonical lock created (rebased onto the first holder)', () => {
    const o = layoutFor('onetable');
    const engine = audit([
      layout.lock('EMAIL', 'ada@x.io'),
      layout.account('a1', { email: ' Ada@X.io' }),
      layout.account('a2', { email: 'ada@x.io' }),
    ]);
    expect(engine.problems()).toEqual([
      {
        kind: 'duplicate-value',
        rule: 'EMAIL',
        value: 'ada@x.io',
        accounts: [
          { PK: 'ACCT#a1', SK: 'PROFILE' },
          { PK: 'ACCT#a2', SK: 'PROFILE' },
        ],
      },
    ]);
    expect(accountOf(engine, '["ACCT#a1","PROFILE"]').locks[0]).toMatchObject({
      value: ' Ada@X.io',
      normalized: 'ada@x.io',
      lock: { PK: 'UNIQ#EMAIL#ada@x.io', SK: 'LOCK' },
    });
    // A legacy lock read after the rebase still finds the entry.
    const legacy = audit(
      [o.lock('User.email', 'b@x.io', {}, 0), o.account('u1', { email: 'b@x.io' }), o.lock('User.email', 'b@x.io', {}, 2)],
      o,
    );
    expect(legacy.problems()).toEqual([]);
    expect(legacy.counts()).toMatchObject({ accounts: 1, locks: 2 });
  });

  it('shows the lowest-id lock whether the canonical or the legacy form arrived first', () => {
    const o = layoutFor('onetable');
    const items = [o.lock('User.email', 'a@x.io', {}, 0), o.lock('User.email', 'a@x.io', {}, 2), o.account('u1', { email: 'a@x.io' })];
    const lockOf = (list: Item[]): unknown => (audit(list, o).rows()[0] as AccountGroup).locks[0]?.lock;
    expect(lockOf(items)).toEqual({ pk: '_Unique:User:email:a@x.io', sk: '_unique:' });
    expect(lockOf([items[1]!, items[0]!, items[2]!])).toEqual({ pk: '_Unique:User:email:a@x.io', sk: '_unique:' });
    expect(audit([items[0]!, items[2]!], o).rows()[0]).toMatchObject({
      locks: [{ lock: { pk: '_unique#User#email#a@x.io', sk: '_unique#' } }],
    });
  });

  it('keeps scoped and legacy locks as written', () => {
    const o = layoutFor('onetable', { rules: [{ attribute: 'email', scope: 'orgId' }] });
    const scoped = o.raw('_unique#Org1#User#email#a@x.io', '_unique#');
    expect(audit([scoped, o.account('u1', { email: 'a@x.io', orgId: 'Org1' })], o).rows()[0]).toMatchObject({
      locks: [{ status: 'ok', lock: { pk: '_unique#Org1#User#email#a@x.io', sk: '_unique#' }, scope: { orgId: 'Org1' } }],
    });
    expect(audit([scoped], o).problems()).toEqual([
      {
        kind: 'orphan-lock',
        rule: 'User.email',
        value: 'a@x.io',
        scope: { orgId: 'Org1' },
        lock: { pk: '_unique#Org1#User#email#a@x.io', sk: '_unique#' },
      },
    ]);
    const unscoped = layoutFor('onetable');
    expect(audit([scoped], unscoped).problems()).toEqual([
      expect.objectContaining({ kind: 'malformed-lock', rule: 'User.email', reason: expect.stringContaining('add "scope"') }),
    ]);
    expect(audit([unscoped.lock('User.email', 'z@x.io', {}, 3)], unscoped).problems()[0]?.lock).toEqual({
      pk: '_Unique:User:email:z@x.io',
      sk: '_unique#',
    });
  });

  it('keeps a lock written in another spelling than its normalized value', () => {
    const engine = audit([layout.raw('UNIQ#EMAIL#Ada@X.io', 'LOCK')]);
    expect(engine.rows()).toEqual([
      {
        kind: 'orphan-lock',
        id: '["UNIQ#EMAIL#Ada@X.io","LOCK"]',
        key: { PK: 'UNIQ#EMAIL#Ada@X.io', SK: 'LOCK' },
        rule: 'EMAIL',
        value: 'Ada@X.io',
      },
    ]);
  });

  it('keeps a lock that names an owner; a lock without one stays canonical under an owner convention', () => {
    const owned = layoutFor('uniq', { ownerAttribute: 'owner' });
    const engine = audit(
      [
        owned.lock('EMAIL', 'a@x.io', { owner: S('ACCT#a2') }),
        owned.account('a1', { email: 'a@x.io' }),
        owned.lock('EMAIL', 'b@x.io'),
        owned.account('a2', { email: 'b@x.io' }),
      ],
      owned,
    );
    expect(engine.problems()).toEqual([
      expect.objectContaining({
        kind: 'owner-mismatch',
        rule: 'EMAIL',
        value: 'a@x.io',
        lock: { PK: 'UNIQ#EMAIL#a@x.io', SK: 'LOCK' },
        reason: expect.stringContaining('ACCT#a2'),
      }),
    ]);
    expect(accountOf(engine, '["ACCT#a1","PROFILE"]').locks[0]).toMatchObject({ status: 'owner-mismatch', owner: 'ACCT#a2' });
    const clean = accountOf(engine, '["ACCT#a2","PROFILE"]').locks[0];
    expect(clean).toEqual({
      rule: 'EMAIL',
      value: 'b@x.io',
      normalized: 'b@x.io',
      status: 'ok',
      lock: { PK: 'UNIQ#EMAIL#b@x.io', SK: 'LOCK' },
    });
  });

  it('rebuilds a hash-only key without a range, and never invents a range the template leaves open', () => {
    const hashOnly = new AuditEngine(uniqConvention({ hash: { name: 'PK', type: 'S' } }, PRESET_DEFAULTS.uniq));
    hashOnly.addItems([{ PK: S('UNIQ#EMAIL#a@x.io') }, { PK: S('ACCT#1'), email: S('a@x.io') }]);
    expect((hashOnly.rows()[0] as AccountGroup).locks[0]?.lock).toEqual({ PK: 'UNIQ#EMAIL#a@x.io' });
    // A range key the template does not fix: the lock keeps whatever range it was written with.
    const open = new AuditEngine(
      markerConvention({ hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } }, PRESET_DEFAULTS.marker),
    );
    open.addItems([
      { PK: S('NAME#ada'), SK: S('anything') },
      { PK: S('NAME#zed'), SK: S('v2') },
      { PK: S('u1'), SK: S('p'), name: S('ada') },
    ]);
    expect((open.rows().find((r) => r.kind === 'account') as AccountGroup).locks[0]?.lock).toEqual({ PK: 'NAME#ada', SK: 'anything' });
    expect(open.problems()).toEqual([{ kind: 'orphan-lock', rule: 'NAME', value: 'zed', lock: { PK: 'NAME#zed', SK: 'v2' } }]);
  });
});

describe('projectionFor', () => {
  it('names only keys, rule attributes, owner and account-type attributes', () => {
    const onetable = layoutFor('onetable', { ownerAttribute: 'owner' }).convention;
    const p = projectionFor(onetable);
    expect(Object.values(p.ExpressionAttributeNames).sort()).toEqual(['_type', 'email', 'owner', 'pk', 'sk']);
    expect(p.ProjectionExpression.split(', ').sort()).toEqual(Object.keys(p.ExpressionAttributeNames).sort());
  });
});
