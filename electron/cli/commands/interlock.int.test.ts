/**
 * The write interlock end to end through bin/locksmith and DynamoDB Local: a convention the table
 * contradicts makes the audit warn (JSON and exit code) and the repair write nothing for that rule,
 * while the other rules are repaired; the right convention on the same table raises no warning.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import type { ConventionWarning } from '../../../shared/audit/fit';
import type { AuditReport } from '../../../shared/audit/types';
import { conventionToFile } from '../../../shared/conventions/file';
import { layoutFor, S } from '../../../shared/conventions/test-layouts';
import type { Item } from '../../../shared/model';
import { testClient } from '../../testing/dynamo-fixtures';
import { runCli } from '../testing-cli';
import { writeFixture } from '../testing/write-fixture';

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
const fx = writeFixture(admin, layout.convention, 'interlock');
const USERS = 60;
/** Users whose handle lock is missing: ordinary drift the repair must still fix under a warned EMAIL rule. */
const DRIFT = 3;

/** Every user with both values; handle locks where the convention says (but DRIFT missing), email locks wherever `emailLock` puts them. */
function users(emailLock: (email: string) => Item): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < USERS; i++) {
    const email = `user${i}@example.com`;
    items.push(layout.account(`a${i}`, { email, username: `u${i}` }), emailLock(email));
    if (i >= DRIFT) items.push(layout.lock('HANDLE', `u${i}`));
  }
  return items;
}

async function keysOf(table: string): Promise<string[]> {
  const out: string[] = [];
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await admin.send(
      new ScanCommand({ TableName: table, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }),
    );
    for (const item of page.Items ?? []) out.push(`${item.PK?.S ?? ''} / ${item.SK?.S ?? ''}`);
    start = page.LastEvaluatedKey;
  } while (start);
  return out.sort();
}

const base = (table: string, conventionFile = fx.conventionFile): string[] => [
  '--endpoint',
  endpoint,
  '--table',
  table,
  '--convention',
  conventionFile,
];

async function auditJson(table: string, conventionFile?: string): Promise<{ code: number; report: AuditReport }> {
  const run = await runCli(['audit', ...base(table, conventionFile), '--json'], fx.env);
  return { code: run.code, report: JSON.parse(run.stdout) as AuditReport };
}

describe('a convention the table contradicts cannot write at scale', () => {
  it('a template off by one character: the audit warns (exit 1), the repair writes no EMAIL lock and still fixes HANDLE', async () => {
    const table = await fx.table(users((email) => layout.raw(`UNIQ#EMAI#${email}`, 'LOCK')));
    const audit = await auditJson(table);
    expect(audit.code).toBe(1);
    expect(audit.report.warnings.map((w: ConventionWarning) => [w.rule, w.kind])).toEqual([['EMAIL', 'values-elsewhere']]);
    expect(audit.report.warnings[0]?.counts).toMatchObject({ held: USERS, healthy: 0, missing: USERS, embedded: USERS, unmatched: USERS });
    const readable = await runCli(['audit', ...base(table)], fx.env);
    expect(readable.code).toBe(1);
    expect(readable.stdout).toContain('WARNING EMAIL: the convention does not explain this table for rule EMAIL');

    const before = await keysOf(table);
    const repair = await runCli(['repair', ...base(table), '--execute', '--yes'], fx.env);
    expect(repair.code).toBe(1);
    expect(repair.stdout).toContain('the convention does not explain this table for rule EMAIL');
    const after = await keysOf(table);
    // Only the three handle locks were written: not one of the sixty email locks the convention would have put at keys nothing checks.
    expect(after.length - before.length).toBe(DRIFT);
    expect(after.filter((k) => k.startsWith('UNIQ#EMAIL#'))).toEqual([]);
    expect(after.filter((k) => !before.includes(k))).toEqual(['UNIQ#HANDLE#u0 / LOCK', 'UNIQ#HANDLE#u1 / LOCK', 'UNIQ#HANDLE#u2 / LOCK']);

    // The convention the table was written with: no warning, and after the repair nothing left (exit 0).
    const right = join(fx.dataDir, 'emai.json');
    await writeFile(
      right,
      JSON.stringify(
        conventionToFile(
          layoutFor('uniq', {
            rules: [
              { attribute: 'email', tag: 'EMAI', normalize: ['trim', 'lowercase'] },
              { attribute: 'username', tag: 'HANDLE', normalize: ['trim', 'lowercase'] },
            ],
          }).convention,
        ),
      ),
    );
    const clean = await auditJson(table, right);
    expect({ code: clean.code, warnings: clean.report.warnings, problems: clean.report.problems }).toEqual({
      code: 0,
      warnings: [],
      problems: [],
    });
  });

  it('the value in the sort key where the convention says a literal: the audit warns and the repair writes nothing', async () => {
    const table = await fx.table(users((email) => layout.raw(`UNIQ#EMAIL#${email}`, `UNIQ#EMAIL#${email}`)));
    const audit = await auditJson(table);
    expect(audit.code).toBe(1);
    expect(audit.report.warnings.map((w) => w.rule)).toEqual(['EMAIL']);
    expect(audit.report.warnings[0]?.counts).toMatchObject({ held: USERS, healthy: 0, missing: USERS, malformed: USERS });

    const before = await keysOf(table);
    const repair = await runCli(['repair', ...base(table), '--execute', '--yes', '--json'], fx.env);
    expect(repair.code).toBe(1);
    const after = await keysOf(table);
    expect(after.filter((k) => !before.includes(k))).toEqual(['UNIQ#HANDLE#u0 / LOCK', 'UNIQ#HANDLE#u1 / LOCK', 'UNIQ#HANDLE#u2 / LOCK']);
    expect(after.filter((k) => k.endsWith(' / LOCK') && k.startsWith('UNIQ#EMAIL#'))).toEqual([]);
  });

  it('a correct convention with ordinary drift does not warn: the audit exits 1 for its problems only, and the repair fixes them', async () => {
    const table = await fx.table(
      users((email) => (email === 'user7@example.com' ? layout.raw('OTHER#x', 'y', { note: S('a note') }) : layout.lock('EMAIL', email))),
    );
    const audit = await auditJson(table);
    expect(audit.code).toBe(1);
    expect(audit.report.warnings).toEqual([]);
    expect(audit.report.summary['missing-lock']).toBe(DRIFT + 1);
    const repair = await runCli(['repair', ...base(table), '--execute', '--yes'], fx.env);
    expect(repair.code).toBe(0);
    expect((await auditJson(table)).code).toBe(0);
  });

  it("a write to a warned rule's locks takes a reviewed --convention FILE: a preset convention is refused, nothing sent", async () => {
    const table = await fx.table(users((email) => layout.raw(`UNIQ#EMAIL#${email}`, `UNIQ#EMAIL#${email}`)));
    // The uniq preset says the literal sort key LOCK for every rule: its EMAIL rule is the one the table contradicts.
    const detected = ['--endpoint', endpoint, '--table', table, '--preset', 'uniq'];
    const audit = await runCli(['audit', ...detected, '--json'], fx.env);
    expect(audit.code).toBe(1);
    expect((JSON.parse(audit.stdout) as AuditReport).warnings.map((w) => w.rule)).toEqual(['EMAIL']);
    const account = JSON.stringify({ PK: 'ACCT#a5', SK: 'PROFILE' });
    const before = await keysOf(table);
    const claim = await runCli(
      ['claim', ...detected, '--rule', 'EMAIL', '--value', 'user5@example.com', '--account', account, '--yes'],
      fx.env,
    );
    expect(claim.code).toBe(1);
    expect(claim.stderr).toMatch(/refused: the convention does not explain this table for rule EMAIL: .*pass it as --convention FILE/);
    const release = await runCli(['release', ...detected, '--rule', 'EMAIL', '--value', 'user5@example.com', '--yes'], fx.env);
    expect(release.code).toBe(1);
    expect(release.stderr).toContain('refused: the convention does not explain this table for rule EMAIL');
    // Every other write that puts or deletes an EMAIL lock is held back the same way.
    const change = await runCli(
      ['change-value', ...detected, '--account', account, '--rule', 'EMAIL', '--to', 'new5@example.com', '--yes'],
      fx.env,
    );
    expect(change.code).toBe(1);
    expect(change.stderr).toContain('refused: the convention does not explain this table for rule EMAIL');
    const removed = await runCli(['delete-account', ...detected, '--account', account, '--yes'], fx.env);
    expect(removed.code).toBe(1);
    expect(removed.stderr).toContain('refused: the convention does not explain this table for rule EMAIL');
    expect(await keysOf(table)).toEqual(before);
    // Another rule of the same convention is not held back.
    const handle = await runCli(
      ['claim', ...detected, '--rule', 'HANDLE', '--value', 'u0', '--account', JSON.stringify({ PK: 'ACCT#a0', SK: 'PROFILE' }), '--yes'],
      fx.env,
    );
    expect(handle.code).toBe(0);
    // Detection learns this layout from the data (the value in both keys): that convention explains the table and does not warn.
    const learned = await runCli(['audit', '--endpoint', endpoint, '--table', table, '--json'], fx.env);
    expect((JSON.parse(learned.stdout) as AuditReport).warnings).toEqual([]);
    // A person who reviewed the convention passes it explicitly: that claim is theirs to make.
    const reviewed = await runCli(
      ['claim', ...base(table), '--rule', 'EMAIL', '--value', 'user5@example.com', '--account', account, '--yes'],
      fx.env,
    );
    expect(reviewed.code).toBe(0);
  });
});
