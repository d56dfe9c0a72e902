/**
 * Bad input against real tables: the hostile corpus (hostile-corpus.ts) audited and looked up.
 * Each gets a correct result or a clear error — never a crash, never a write: every command sent
 * is recorded, and the table is read back byte for byte after the run.
 */
import { ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { PRESET_DEFAULTS, presetConvention } from '../../../shared/conventions/presets';
import type { Convention, Item, KeySchema } from '../../../shared/model';
import { runAudit } from '../../services/audit/run-audit';
import { createDynamoClient } from '../../services/dynamo/client';
import { lookupValue } from '../../services/lookup/lookup';
import { createTempTable, deleteTable, putItems, testClient } from '../dynamo-fixtures';
import { recordCommands, WRITE_COMMANDS } from './faults';
import { recordFigures } from './figures';
import { HOSTILE_VALUES, markerCorpus, oddKeyCorpus, uniqCorpus } from './hostile-corpus';

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const tables: string[] = [];
const clients: DynamoDBClient[] = [];
const tally = { tables: 0, items: 0, audits: 0, lookups: 0, clearErrors: 0, writesSent: 0 };

afterAll(async () => {
  for (const c of clients) c.destroy();
  await Promise.all(tables.map((t) => deleteTable(admin, t)));
});

async function seeded(keys: KeySchema, items: readonly Item[]): Promise<string> {
  const name = await createTempTable(admin, keys, 'hostile');
  tables.push(name);
  await putItems(admin, name, items, 2);
  tally.tables += 1;
  tally.items += items.length;
  return name;
}

/** Every item, in a stable order, as JSON: the table's exact contents. */
async function snapshot(name: string): Promise<string> {
  const items: Item[] = [];
  let start: Record<string, NonNullable<Item[string]>> | undefined;
  do {
    const page = await admin.send(
      new ScanCommand({ TableName: name, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  const text = (item: Item): string =>
    JSON.stringify(item, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v));
  return items.map(text).sort().join('\n');
}

function reader(): { client: DynamoDBClient; sent: string[] } {
  const client = createDynamoClient({ label: 'hostile', endpoint, region: 'us-east-1' }, { env: {} });
  clients.push(client);
  return { client, sent: recordCommands(client) };
}

async function auditAndLookUp(name: string, convention: Convention, values: readonly string[]) {
  const before = await snapshot(name);
  const { client, sent } = reader();
  const run = await runAudit({ client, table: name, convention, segments: 2 });
  tally.audits += 1;
  const answers = [];
  for (const value of values) {
    answers.push({ value, answer: await lookupValue({ client, table: { name, gsis: [] }, convention, value, segments: 1 }) });
    tally.lookups += 1;
  }
  const writes = sent.filter((c) => WRITE_COMMANDS.has(c));
  tally.writesSent += writes.length;
  expect(writes).toEqual([]);
  expect(await snapshot(name)).toBe(before);
  return { run, answers };
}

describe('hostile items in a uniq table (PK + SK)', () => {
  it('audit: complete, every hostile orphan and malformed lock reported with its exact value, nothing written', async () => {
    const corpus = uniqCorpus();
    const name = await seeded(corpus.keys, corpus.items);
    const convention = presetConvention('uniq', corpus.keys, PRESET_DEFAULTS.uniq);
    const { run, answers } = await auditAndLookUp(name, convention, [...HOSTILE_VALUES, '', 'x'.repeat(3_000), 'longkey']);
    const { report } = run;
    expect(run.error).toBeUndefined();
    expect(report).toMatchObject({ complete: true, scanned: corpus.items.length });
    const orphanEmails = report.problems.filter((p) => p.kind === 'orphan-lock' && p.rule === 'EMAIL').map((p) => p.value);
    expect(orphanEmails.sort()).toEqual(HOSTILE_VALUES.map((v) => v.trim().toLowerCase()).sort());
    // Each hostile handle is held by its account and locked: never reported missing or orphaned.
    for (const value of HOSTILE_VALUES)
      expect(report.problems.filter((p) => p.rule === 'HANDLE' && p.value === value.trim().toLowerCase())).toEqual([]);
    expect(report.summary['malformed-lock']).toBeGreaterThanOrEqual(5);
    expect(report.problems).toContainEqual(expect.objectContaining({ kind: 'missing-lock', rule: 'HANDLE', value: 'longkey' }));

    for (const { value, answer } of answers) {
      if (value === '') {
        expect(answer).toMatchObject({ ok: false, error: { kind: 'validation', field: 'value' } });
        tally.clearErrors += 1;
        continue;
      }
      expect(answer.ok).toBe(true);
      if (!answer.ok) continue;
      expect(answer.value.complete).toBe(true);
      const byRule = Object.fromEntries(answer.value.rules.map((r) => [r.rule, r.verdict]));
      if (HOSTILE_VALUES.includes(value)) expect(byRule).toEqual({ EMAIL: 'orphan', HANDLE: 'held' });
      if (value.length === 3_000) {
        expect(byRule).toEqual({ EMAIL: 'free', HANDLE: 'free' });
        expect(answer.value.rules[0]?.notes.join(' ')).toMatch(/exceed DynamoDB's key size limit/);
      }
      if (value === 'longkey') expect(byRule.HANDLE).toBe('unprotected');
    }
  });
});

describe('hostile items in a hash-only marker table', () => {
  it('audit and lookups: complete, orphans found under their exact (NFC) names, nothing written', async () => {
    const corpus = markerCorpus();
    const name = await seeded(corpus.keys, corpus.items);
    const convention = presetConvention('marker', corpus.keys, PRESET_DEFAULTS.marker);
    const { run, answers } = await auditAndLookUp(
      name,
      convention,
      HOSTILE_VALUES.map((v) => `orphan-${v}`),
    );
    expect(run.report).toMatchObject({ complete: true, scanned: corpus.items.length });
    const orphans = new Set(run.report.problems.filter((p) => p.kind === 'orphan-lock').map((p) => p.value));
    for (const value of HOSTILE_VALUES) expect(orphans.has(`orphan-${value}`.normalize('NFC'))).toBe(true);
    for (const { answer } of answers) expect(answer.ok && answer.value.rules[0]?.verdict).toBe('orphan');
    expect(run.report.problems).toContainEqual(expect.objectContaining({ kind: 'duplicate-value', value: 'été' }));
  });
});

describe('tables whose keys are not strings', () => {
  it.each(oddKeyCorpus().map((c) => [c.keys.hash.type, c] as const))(
    '%s hash key: audit completes with no locks, lookups answer with a note, nothing written',
    async (_type, corpus) => {
      const name = await seeded(corpus.keys, corpus.items);
      const convention = presetConvention('marker', corpus.keys, PRESET_DEFAULTS.marker);
      const { run, answers } = await auditAndLookUp(name, convention, ['ada', '1']);
      expect(run.report).toMatchObject({ complete: true, scanned: corpus.items.length, locks: 0 });
      for (const { answer } of answers) {
        expect(answer.ok).toBe(true);
        if (answer.ok) expect(answer.value.rules[0]?.notes.join(' ')).toMatch(/partition key is of type [NB]: locks need string keys/);
      }
    },
  );

  it('records the figures', async () => {
    expect(tally.writesSent).toBe(0);
    await recordFigures('hostile-tables', tally);
  });
});
