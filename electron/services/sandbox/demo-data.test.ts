import { describe, expect, it } from 'vitest';
import { AuditEngine } from '../../../shared/audit/engine';
import { PRESET_DEFAULTS, presetConvention } from '../../../shared/conventions/presets';
import type { Item } from '../../../shared/model';
import { DEMO_TABLES, DEMO_TABLE_NAMES } from './demo-data';
import { ACCOUNTS_NAMED, EXPECTED_PROBLEMS, problemSignature, STUCK_HANDLE, USERS_NAMED } from './expected-problems';

const keyOf = (item: Item, names: readonly string[]): string => JSON.stringify(names.map((n) => item[n]));

describe.each(DEMO_TABLE_NAMES)('demo table %s', (name) => {
  const spec = DEMO_TABLES[name];
  const items = spec.build();
  const expected = EXPECTED_PROBLEMS[name];
  const keyNames = [spec.keys.hash.name, ...(spec.keys.range ? [spec.keys.range.name] : [])];

  it('is deterministic', () => {
    expect(spec.build()).toEqual(items);
  });

  it('has unique keys and the expected item count', () => {
    expect(new Set(items.map((i) => keyOf(i, keyNames))).size).toBe(items.length);
    expect(items).toHaveLength(expected.items);
  });

  it('is audited by its preset with exactly the written-down problems', () => {
    const convention = presetConvention(spec.preset, spec.keys, PRESET_DEFAULTS[spec.preset]);
    const engine = new AuditEngine(convention, { trackDeltas: false });
    engine.addItems(items);
    const report = engine.report({ table: name, complete: true });
    expect(report.summary).toEqual(expected.summary);
    expect(report.problems.map(problemSignature).sort()).toEqual(expected.problems.map(problemSignature).sort());
    expect({ accounts: report.accounts, locks: report.locks }).toEqual({ accounts: expected.accounts, locks: expected.locks });
  });
});

describe('named demo facts', () => {
  const accounts = DEMO_TABLES.accounts.build();
  const pks = new Set(accounts.map((i) => i.PK?.S));

  it('keeps ada healthy and the stuck handle orphaned', () => {
    expect(pks.has(`ACCT#${ACCOUNTS_NAMED.ada.id}`)).toBe(true);
    expect(pks.has('UNIQ#EMAIL#ada@lovelace.io')).toBe(true);
    expect(pks.has(`UNIQ#HANDLE#${STUCK_HANDLE}`)).toBe(true);
    expect(accounts.some((i) => i.username?.S === STUCK_HANDLE)).toBe(false);
  });

  it('has ~2,000 accounts in accounts, Korean names in users', () => {
    expect(EXPECTED_PROBLEMS.accounts.accounts).toBe(2_000);
    const names = DEMO_TABLES.users.build().flatMap((i) => (i.name?.S ? [i.name.S] : []));
    expect(names).toContain(USERS_NAMED.baekgwa.name);
    expect(names.filter((n) => /[\uac00-\ud7a3]/.test(n)).length).toBeGreaterThan(200);
  });

  it('never uses Math.random', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const dir = new URL('.', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.startsWith('demo-') && !f.endsWith('.test.ts'))) {
      expect(readFileSync(new URL(file, dir), 'utf8')).not.toContain('Math.random');
    }
  });
});
