import { describe, expect, it } from 'vitest';
import type { AccountGroup, AuditCounts, AuditDelta, GroupRow } from '../audit/types';
import { decodeDelta, encodeDelta, type WireDelta } from './audit-wire';

const summary = { 'orphan-lock': 1, 'missing-lock': 1, 'duplicate-value': 1, 'owner-mismatch': 1, 'malformed-lock': 1 };
const counts: AuditCounts = { scanned: 9, accounts: 4, locks: 5, summary, checking: 1 };
const healthy = (n: number): AccountGroup => ({
  kind: 'account',
  id: JSON.stringify([`ACCT#${n}`, 'PROFILE']),
  key: { PK: `ACCT#${n}`, SK: 'PROFILE' },
  locks: [
    {
      rule: 'EMAIL',
      value: `User${n}@X.io`,
      normalized: `user${n}@x.io`,
      status: 'ok',
      lock: { PK: `UNIQ#EMAIL#user${n}@x.io`, SK: 'LOCK' },
    },
    { rule: 'HANDLE', value: `h${n}`, normalized: `h${n}`, status: 'ok', lock: { PK: `UNIQ#HANDLE#h${n}`, SK: 'LOCK' } },
  ],
  problems: [],
});

// Every optional field, present and absent, and the values the compact forms must not misread.
const rows: GroupRow[] = [
  healthy(1),
  healthy(2),
  {
    kind: 'account',
    id: JSON.stringify(['ACCT#3', 'PROFILE']),
    key: { PK: 'ACCT#3', SK: 'PROFILE' },
    locks: [{ rule: 'EMAIL', value: 'a@x.io', normalized: 'a@x.io', status: 'missing' }],
    problems: ['missing-lock'],
  },
  {
    kind: 'account',
    id: JSON.stringify(['ACCT#5', 'PROFILE']),
    key: { PK: 'ACCT#5', SK: 'PROFILE' },
    locks: [{ rule: 'EMAIL', value: 'c@x.io', normalized: 'c@x.io', status: 'missing' }],
    problems: [],
    checking: true,
  },
  {
    kind: 'account',
    id: 'not the key',
    key: { PK: 'ACCT#4', SK: 'PROFILE' },
    locks: [
      {
        rule: 'EMAIL',
        value: 'd@x.io',
        normalized: 'd@x.io',
        status: 'duplicate',
        lock: { PK: 'UNIQ#EMAIL#d@x.io', SK: 'LOCK' },
        otherHolders: [{ PK: 'ACCT#5', SK: 'PROFILE' }],
      },
      { rule: 'HANDLE', value: ' Ada ', normalized: '', status: 'owner-mismatch', owner: '', lock: { PK: 'HANDLE#', SK: 'LOCK' } },
      {
        rule: 'TENANT_EMAIL',
        value: 'e@x.io',
        normalized: 'e@x.io',
        scope: { tenantId: 't1' },
        status: 'ok',
        lock: { PK: 'UNIQ#TENANT_EMAIL#t1#e@x.io#v2', SK: 'LOCK' },
      },
    ],
    problems: ['duplicate-value', 'owner-mismatch'],
  },
  // Number keys, one negative where a lock key's prefix form could be misread; a hash-only table.
  {
    kind: 'account',
    id: JSON.stringify([-7]),
    key: { userId: -7 },
    locks: [{ rule: 'NAME', value: '7', normalized: '7', status: 'ok', lock: { userId: -7 } }],
    problems: [],
  },
  {
    kind: 'account',
    id: JSON.stringify(['u1']),
    key: { userId: 'u1' },
    locks: [{ rule: 'NAME', value: '백과', normalized: '백과', status: 'ok', lock: { userId: 'NAME#백과' } }],
    problems: [],
  },
  {
    kind: 'orphan-lock',
    id: JSON.stringify(['UNIQ#EMAIL#o@x.io', 'LOCK']),
    key: { PK: 'UNIQ#EMAIL#o@x.io', SK: 'LOCK' },
    rule: 'EMAIL',
    value: 'o@x.io',
    owner: 'ACCT#9',
  },
  { kind: 'orphan-lock', id: 'o2', key: { PK: 'UNIQ#T#t2#v', SK: 'LOCK' }, rule: 'T', value: 'v', scope: { tenantId: 't2' } },
  {
    kind: 'malformed-lock',
    id: JSON.stringify(['UNIQ#EMAIL#', 'LOCK']),
    key: { PK: 'UNIQ#EMAIL#', SK: 'LOCK' },
    value: '',
    reason: 'empty value',
  },
  {
    kind: 'malformed-lock',
    id: JSON.stringify(['UNIQ#X#y', 7]),
    key: { PK: 'UNIQ#X#y', SK: 7 },
    value: 'UNIQ#X#y',
    rule: 'X',
    reason: 'wrong sort key',
  },
];

const delta: AuditDelta = { upserted: rows, removed: ['["gone","LOCK"]', 'x'], counts };
/** Through JSON, as both transports carry it (the HTTP stream as text, IPC's structured clone keeps the same values). */
const overTheWire = (d: AuditDelta): WireDelta => JSON.parse(JSON.stringify(encodeDelta(d))) as WireDelta;

describe('audit wire form', () => {
  it('gives back exactly the delta it was given, every optional field included', () => {
    expect(decodeDelta(overTheWire(delta))).toEqual(delta);
    for (const row of rows) expect(decodeDelta(overTheWire({ upserted: [row], removed: [], counts })).upserted).toEqual([row]);
    expect(decodeDelta(overTheWire({ upserted: [], removed: [], counts }))).toEqual({ upserted: [], removed: [], counts });
  });

  it('carries each fact once: healthy rows take well under half the bytes of the objects', () => {
    const many: AuditDelta = { upserted: Array.from({ length: 500 }, (_, i) => healthy(i)), removed: [], counts };
    const objects = JSON.stringify(many).length;
    const wire = JSON.stringify(encodeDelta(many)).length;
    expect(wire).toBeLessThan(objects * 0.4);
    // The row id, the rule's lock-key prefix and a normalized value equal to the value are not repeated.
    const first = JSON.stringify(encodeDelta({ upserted: [healthy(1)], removed: [], counts }).rows[0]);
    expect(first).not.toContain('UNIQ#EMAIL#user1');
    expect(first.match(/h1/g)).toHaveLength(1);
  });

  it('refuses what it cannot read instead of misreading it', () => {
    const wire = encodeDelta({ upserted: [healthy(1)], removed: [], counts });
    expect(() => decodeDelta({ ...wire, wire: 2 } as unknown as WireDelta)).toThrow(/could not be read \(format 2\)/);
    expect(() => decodeDelta({ ...wire, strings: [] })).toThrow(/string index/);
    expect(() => decodeDelta({ ...wire, keyShapes: [] })).toThrow(/key shape/);
    expect(() => decodeDelta({ ...wire, rows: [[5, 0, [0, 'a', 'b'], 'v']] })).toThrow(/row kind/);
  });
});
