import { describe, expect, it } from 'vitest';
import { markerConvention, uniqConvention } from '../conventions/presets';
import type { Convention, Item, KeySchema } from '../model';
import { AuditEngine } from './engine';
import {
  boundarySubstrings,
  EMBEDDED_SHARE,
  fitWarnings,
  KEY_SAMPLE_LIMIT,
  KeySample,
  MIN_EVIDENCE,
  MISREAD_RATIO,
  type RuleFit,
} from './fit';

const COMPOSITE: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
const HASH_ONLY: KeySchema = { hash: { name: 'userId', type: 'S' } };
const uniq = uniqConvention(COMPOSITE, {
  rules: [
    { attribute: 'email', normalize: ['lowercase'] },
    { attribute: 'handle', normalize: [] },
  ],
});
const S = (s: string): Item[string] => ({ S: s });
const account = (id: number, email: string): Item => ({ PK: S(`ACCT#${id}`), SK: S('PROFILE'), email: S(email), handle: S(`h${id}`) });
const emailOf = (i: number): string => `user${i}@example.com`;
const fit = (over: Partial<RuleFit>): RuleFit => ({
  rule: 'EMAIL',
  held: 100,
  healthy: 100,
  missing: 0,
  malformed: 0,
  embedded: 0,
  unmatched: 0,
  ...over,
});

/** A table of `n` users with their handle locks; `emailLock` writes each email's lock in whatever layout the table uses. */
function table(n: number, emailLock: (email: string) => Item | undefined): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < n; i++) {
    items.push(account(i, emailOf(i)), { PK: S(`UNIQ#HANDLE#h${i}`), SK: S('LOCK') });
    const lock = emailLock(emailOf(i));
    if (lock) items.push(lock);
  }
  return items;
}

const audit = (convention: Convention, items: readonly Item[]) => {
  const engine = new AuditEngine(convention, { trackDeltas: false });
  engine.addItems(items);
  return engine.report({ table: 't', complete: true });
};

describe('boundarySubstrings', () => {
  it('finds a value between separators, whole even when it has separators inside', () => {
    expect(boundarySubstrings('UNIQ#EMAI#ada@x.io')).toEqual(expect.arrayContaining(['ada@x.io', 'EMAI#ada@x.io', 'UNIQ', 'ada']));
    expect(boundarySubstrings('UNIQ#EMAI#ada@x.io')).not.toContain('da@x.io');
  });
});

describe('KeySample', () => {
  it('keeps at most KEY_SAMPLE_LIMIT texts and counts every one offered', () => {
    const sample = new KeySample();
    for (let i = 0; i < KEY_SAMPLE_LIMIT + 10; i++) sample.add(`K#${i}`);
    expect(sample.texts()).toHaveLength(KEY_SAMPLE_LIMIT);
    expect(sample.seen).toBe(KEY_SAMPLE_LIMIT + 10);
  });
});

describe('fitWarnings thresholds', () => {
  it('values-elsewhere: warns at MIN_EVIDENCE embedded values reaching EMBEDDED_SHARE of the held ones, not below either', () => {
    const held = MIN_EVIDENCE / EMBEDDED_SHARE;
    expect(fitWarnings([fit({ held, healthy: 0, missing: held, embedded: MIN_EVIDENCE })]).map((w) => w.kind)).toEqual([
      'values-elsewhere',
    ]);
    // One fewer embedded value than the minimum.
    expect(fitWarnings([fit({ held: MIN_EVIDENCE, healthy: 0, missing: MIN_EVIDENCE, embedded: MIN_EVIDENCE - 1 })])).toEqual([]);
    // Enough values, too small a share of the held ones (an audit-log item keyed by a few emails).
    const many = Math.ceil(MIN_EVIDENCE / EMBEDDED_SHARE) * 4;
    expect(fitWarnings([fit({ held: many, healthy: many - MIN_EVIDENCE, missing: MIN_EVIDENCE, embedded: MIN_EVIDENCE })])).toEqual([]);
  });

  it('locks-misread: warns at MIN_EVIDENCE malformed locks when malformed + missing reach MISREAD_RATIO × healthy, not below either', () => {
    const warned = fitWarnings([fit({ held: 10, healthy: 5, missing: 5, malformed: MIN_EVIDENCE })]);
    expect(MIN_EVIDENCE + 5).toBeGreaterThanOrEqual(MISREAD_RATIO * 5);
    expect(warned.map((w) => w.kind)).toEqual(['locks-misread']);
    expect(warned[0]?.message).toMatch(/^the convention does not explain this table for rule EMAIL: /);
    expect(fitWarnings([fit({ held: 10, healthy: 5, missing: 5, malformed: MIN_EVIDENCE - 1 })])).toEqual([]);
    // Enough malformed locks, but the convention explains most values (a bug wrote `undefined` keys beside healthy locks).
    expect(fitWarnings([fit({ held: 100, healthy: 98, missing: 2, malformed: MIN_EVIDENCE })])).toEqual([]);
  });
});

describe('the audit measures how well the convention explains the table', () => {
  it('a correct convention with ordinary drift does not warn', () => {
    const items = table(200, (email) => (email.endsWith('7@example.com') ? undefined : { PK: S(`UNIQ#EMAIL#${email}`), SK: S('LOCK') }));
    // Items of another kind keyed by a few emails (an audit log) are not locks in another layout.
    for (let i = 0; i < 9; i++) items.push({ PK: S(`LOG#${emailOf(i * 10 + 7)}`), SK: S('2026-01-01') });
    const report = audit(uniq, items);
    expect(report.summary['missing-lock']).toBe(20);
    expect(report.warnings).toEqual([]);
  });

  it('a template off by one character: the held values stand in keys of another layout', () => {
    const report = audit(
      uniq,
      table(200, (email) => ({ PK: S(`UNIQ#EMAI#${email}`), SK: S('LOCK') })),
    );
    expect(report.warnings).toEqual([
      {
        rule: 'EMAIL',
        kind: 'values-elsewhere',
        counts: { rule: 'EMAIL', held: 200, healthy: 0, missing: 200, malformed: 0, embedded: 200, unmatched: 200 },
        message: expect.stringContaining('rule EMAIL'),
      },
    ]);
  });

  it('an incomplete audit warns about nothing: half a scan is no measure of the convention', () => {
    const engine = new AuditEngine(uniq, { trackDeltas: false });
    engine.addItems(table(200, (email) => ({ PK: S(`UNIQ#EMAI#${email}`), SK: S('LOCK') })));
    expect(engine.report({ table: 't', complete: false, reason: 'cancelled' }).warnings).toEqual([]);
  });

  it('the value in the sort key where the convention says a literal: the rule reads as misread', () => {
    const report = audit(
      uniq,
      table(200, (email) => ({ PK: S(`UNIQ#EMAIL#${email}`), SK: S(`UNIQ#EMAIL#${email}`) })),
    );
    expect(report.warnings.map((w) => [w.rule, w.kind])).toEqual([['EMAIL', 'values-elsewhere']]);
    expect(report.warnings[0]?.counts).toMatchObject({ held: 200, healthy: 0, missing: 200, malformed: 200 });
  });

  it('a hash-only table read as accounts: locks in another layout are found among the accounts that hold nothing', () => {
    const marker = markerConvention(HASH_ONLY, { rules: [{ attribute: 'email', normalize: [] }] });
    const items: Item[] = [];
    for (let i = 0; i < 50; i++) items.push({ userId: S(`u${i}`), email: S(emailOf(i)) }, { userId: S(`MAIL#${emailOf(i)}`) });
    const report = audit(marker, items);
    expect(report.warnings.map((w) => [w.rule, w.kind, w.counts.embedded])).toEqual([['EMAIL', 'values-elsewhere', 50]]);
    const right = markerConvention(HASH_ONLY, { rules: [{ attribute: 'email', normalize: [], tag: 'MAIL' }] });
    expect(audit(right, items).warnings).toEqual([]);
  });
});
