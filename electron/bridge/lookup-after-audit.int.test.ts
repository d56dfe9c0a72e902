/**
 * Lookups in the app (and `serve`) after an audit, through the composed handler table: a table
 * without a GSI answers from the finished audit's holders, re-read by key, and says which audit;
 * once Locksmith writes through the connection (a transaction or a repair), that audit is no longer
 * used and the lookup scans again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditEvent, LookupView } from '../../shared/contract/views';
import type { TxOutcomeView, TxPreviewView } from '../../shared/contract/tx-views';
import type { Convention, Item } from '../../shared/model';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { composeApp, type ComposedApp } from './compose';
import type { SenderVerdict } from './pipeline';

const trusted: SenderVerdict = { trusted: true, label: 'lookup after audit' };
const quiet = { refused: () => undefined, failed: () => undefined };

describe('lookup after an audit, through the handler table', () => {
  const endpoint = inject('dynamoEndpoint');
  const client = testClient(endpoint);
  let table = '';
  let dir = '';
  let app: ComposedApp;
  let connectionId = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'locksmith-lookup-audit-'));
    table = await createTempTable(client, { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } }, 'lookup-after-audit');
    const items: Item[] = [];
    for (let i = 0; i < 20; i++) {
      items.push({ PK: { S: `ACCT#${i}` }, SK: { S: 'PROFILE' }, email: { S: `u${i}@x.io` }, handle: { S: `u${i}` } });
      items.push({ PK: { S: `UNIQ#EMAIL#u${i}@x.io` }, SK: { S: 'LOCK' } }, { PK: { S: `UNIQ#HANDLE#u${i}` }, SK: { S: 'LOCK' } });
    }
    items.push({ PK: { S: 'UNIQ#HANDLE#ghost' }, SK: { S: 'LOCK' } });
    await putItems(client, table, items);
    app = composeApp({ mode: 'browser', version: 'lookup-audit', env: { LOCKSMITH_DATA_DIR: join(dir, 'data') }, log: quiet });
    const added = await app.dispatch('connections.addEndpoint', { endpoint, region: 'us-east-1' }, 'http', trusted);
    if (!added.ok) throw new Error(added.error.message);
    connectionId = (added.value as { id: string }).id;
    const writable = await app.dispatch('connections.setWritable', { id: connectionId, writable: true }, 'http', trusted);
    if (!writable.ok) throw new Error(writable.error.message);
  });
  afterAll(async () => {
    await app.shutdown();
    await deleteTable(client, table);
    client.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  async function call<T>(method: string, args: Record<string, unknown>): Promise<T> {
    const answer = await app.dispatch(method, args, 'http', trusted);
    if (!answer.ok) throw new Error(`${method}: ${answer.error.message}`);
    return answer.value as T;
  }

  async function auditToEnd(convention: Convention): Promise<void> {
    const started = await call<{ runId: string }>('audit.start', { connectionId, table, convention, segments: 2 });
    const done = await new Promise<Extract<AuditEvent, { type: 'done' }>>((resolve) => {
      app.hub.subscribe('audit.events', { runId: started.runId }, (event) => {
        if ((event as AuditEvent).type === 'done') resolve(event as Extract<AuditEvent, { type: 'done' }>);
      });
    });
    expect(done.complete).toBe(true);
  }

  it('uses the finished audit (and says which), and stops using it after a write through Locksmith', async () => {
    const detected = await call<{ convention: Convention }>('conventions.detect', { connectionId, table, sampleSize: 50 });
    const { convention } = detected;
    const lookup = (value: string, with_: Convention = convention) =>
      call<LookupView>('lookup.run', { connectionId, table, convention: with_, value, rule: 'EMAIL' });

    const before = await lookup('u3@x.io');
    expect(before).toMatchObject({ method: 'scan', rules: [{ verdict: 'held' }] });
    expect(before.usedAudit).toBeUndefined();
    // The scan names the GSI that would make it one Query: suggest-index's exact command.
    expect(before.rules[0]?.asOfAudit).toBeUndefined();
    expect(before.rules[0]?.suggestedIndex).toMatchObject({ indexName: 'locksmith-by-email', attribute: 'email' });
    expect(before.rules[0]?.suggestedIndex?.awsCli).toMatch(
      new RegExp(
        `^aws dynamodb update-table --cli-input-json '\\{"TableName":"${table}".*"GlobalSecondaryIndexUpdates":\\[\\{"Create":\\{"IndexName":"locksmith-by-email"`,
      ),
    );

    await auditToEnd(convention);
    const audited = await lookup('u3@x.io');
    expect(audited).toMatchObject({ method: 'audit', rules: [{ verdict: 'held', holders: [{ PK: 'ACCT#3', SK: 'PROFILE' }] }] });
    expect(Date.parse(audited.usedAudit ?? '')).toBeGreaterThan(0);
    // Another convention (a rule fewer) reads the table differently: that audit is not used for it.
    const other = await lookup('u3@x.io', { ...convention, rules: convention.rules.filter((r) => r.name === 'EMAIL') });
    expect(other.method).toBe('scan');

    // The same connection pointed elsewhere (another region here; a restarted sandbox alike) is another
    // database: the audit is not used there, nor again once the connection points back.
    await call('connections.setRegion', { id: connectionId, region: 'eu-west-1' });
    expect((await lookup('u3@x.io')).method).toBe('scan');
    await call('connections.setRegion', { id: connectionId, region: 'us-east-1' });
    expect((await lookup('u3@x.io')).method).toBe('scan');
    await auditToEnd(convention);
    expect((await lookup('u3@x.io')).method).toBe('audit');

    // Locksmith releases the orphan HANDLE lock: from now on the audit may be out of date.
    const preview = await call<TxPreviewView>('tx.preview', {
      connectionId,
      table,
      convention,
      request: { kind: 'release', rule: 'HANDLE', value: 'ghost' },
    });
    const executed = await call<TxOutcomeView>('tx.execute', { previewId: preview.previewId, confirmation: preview.confirmText });
    expect(executed.status).toBe('succeeded');
    expect(await lookup('u3@x.io')).toMatchObject({ method: 'scan', rules: [{ verdict: 'held' }] });
  });

  it("says a verdict from the audit holds only as of that audit: the table's own application may have written a holder since", async () => {
    const { convention } = await call<{ convention: Convention }>('conventions.detect', { connectionId, table, sampleSize: 50 });
    await auditToEnd(convention);
    // Another client (not Locksmith) writes an account holding a value the audit never saw; nothing retires the index.
    await putItems(client, table, [{ PK: { S: 'ACCT#late' }, SK: { S: 'PROFILE' }, email: { S: 'late@x.io' }, handle: { S: 'late' } }]);
    const args = { connectionId, table, convention, value: 'late@x.io', rule: 'EMAIL' };

    const fromAudit = await call<LookupView>('lookup.run', args);
    expect(fromAudit).toMatchObject({ method: 'audit', rules: [{ verdict: 'free', holders: [] }] });
    expect(fromAudit.rules[0]?.asOfAudit).toBe(fromAudit.usedAudit);
    expect(fromAudit.rules[0]?.suggestedIndex?.indexName).toBe('locksmith-by-email');

    const confirmed = await call<LookupView>('lookup.run', { ...args, confirm: true });
    expect(confirmed).toMatchObject({
      method: 'scan',
      complete: true,
      rules: [{ verdict: 'unprotected', holders: [{ PK: 'ACCT#late', SK: 'PROFILE' }] }],
    });
    expect(confirmed.usedAudit).toBeUndefined();
    expect(confirmed.rules[0]?.asOfAudit).toBeUndefined();
  });
});
