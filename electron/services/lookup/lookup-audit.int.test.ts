import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { presetConvention } from '../../../shared/conventions/presets';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import type { AuditIndex } from '../audit/audit-index';
import { runAudit } from '../audit/run-audit';
import { createDynamoClient } from '../dynamo/client';
import { lookupValue } from './lookup';
import type { LookupOptions } from './lookup-types';
import { account, convention, ITEMS, keys } from './testing/lookup-dataset';

const endpoint = inject('dynamoEndpoint');

let admin: DynamoDBClient;
let client: DynamoDBClient;
let table: string;
let index: AuditIndex;

beforeAll(async () => {
  admin = testClient(endpoint);
  client = createDynamoClient({ label: 'test', endpoint, region: 'us-east-1' });
  table = await createTempTable(admin, keys, 'lookup-audit');
  await putItems(admin, table, ITEMS);
  const run = await runAudit({ client, table, convention, segments: 2 });
  if (!run.index) throw new Error(`the audit did not complete: ${run.report.reason ?? ''}`);
  index = run.index;
});

afterAll(async () => {
  await deleteTable(admin, table);
  admin.destroy();
  client.destroy();
});

async function lookup(value: string, extra: Partial<LookupOptions> = {}) {
  const answer = await lookupValue({ client, table: { name: table, gsis: [] }, convention, value, rule: 'EMAIL', ...extra });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value;
}

describe('lookup from a finished audit (no GSI)', () => {
  it.each(['dup@x.io', 'nolock@x.io', 'orphan#1@x.io', 'free@x.io', 'Ada@Lovelace.io', 'ada@lovelace.io'])(
    "%s: the scan's answer, holders from the audit re-read by key",
    async (value) => {
      const [scanned, audited] = [await lookup(value), await lookup(value, { auditIndex: index })];
      expect(scanned.method).toBe('scan');
      expect(scanned.rules[0]?.notes.join(' ')).toMatch(/no GSI on email: .*`locksmith suggest-index --rule EMAIL`/);
      expect(audited).toMatchObject({ method: 'audit', usedAudit: new Date(index.finishedAt).toISOString(), complete: true });
      expect(audited.scan).toBeUndefined();
      const [a, b] = [scanned.rules[0]!, audited.rules[0]!];
      const byPk = (keys: readonly Record<string, unknown>[]) => [...keys].sort((x, y) => String(x.PK).localeCompare(String(y.PK)));
      expect({ verdict: b.verdict, holders: byPk(b.holders), locks: b.locks }).toEqual({
        verdict: a.verdict,
        holders: byPk(a.holders),
        locks: a.locks,
      });
      expect(b.search).toEqual({ kind: 'audit', auditedAt: new Date(index.finishedAt).toISOString() });
      expect(b.notes.join(' ')).toMatch(/holders from the audit of .*re-read by key/);
    },
  );

  it('is not used for another table or another convention: those scan', async () => {
    const lowercaseOnly = presetConvention('uniq', keys, {
      rules: [
        { attribute: 'email', tag: 'EMAIL', normalize: ['lowercase'] },
        { attribute: 'username', tag: 'HANDLE', normalize: ['trim', 'lowercase'] },
      ],
    });
    const other = await lookupValue({
      client,
      table: { name: table, gsis: [] },
      convention: lowercaseOnly,
      value: 'dup@x.io',
      rule: 'EMAIL',
      auditIndex: index,
    });
    expect(other.ok && other.value.method).toBe('scan');
    expect((await lookup('dup@x.io', { auditIndex: { ...index, table: `${table}-other` } })).method).toBe('scan');
  });

  it('confirms an absence with a scan when asked to (an audit cannot know later writes)', async () => {
    const answer = await lookup('free@x.io', { auditIndex: index, confirmAbsenceWithScan: true });
    expect(answer.rules[0]).toMatchObject({ verdict: 'free', search: { kind: 'scan', complete: true } });
  });

  it('re-reads every holder: one that changed its value since the audit no longer counts', async () => {
    await admin.send(new PutItemCommand({ TableName: table, Item: account('2', 'moved@x.io', 'two') }));
    const answer = await lookup('dup@x.io', { auditIndex: index });
    expect(answer.rules[0]).toMatchObject({ verdict: 'held', holders: [{ PK: 'ACCT#3', SK: 'PROFILE' }], search: { kind: 'audit' } });
    // The scan agrees: the audit's holder list was only where to look.
    expect((await lookup('dup@x.io')).rules[0]?.holders).toEqual([{ PK: 'ACCT#3', SK: 'PROFILE' }]);
  });
});
