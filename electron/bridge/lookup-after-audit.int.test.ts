/**
 * Lookups in the app (and `serve`) after an audit: a table without a GSI answers from the finished
 * audit's holders, re-read by key, and says which audit; once Locksmith writes through the
 * connection, that audit is no longer used and the lookup scans again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditEvent } from '../../shared/contract/views';
import type { Convention, Item } from '../../shared/model';
import { ok } from '../../shared/result';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { SANDBOX_CREDENTIALS, SANDBOX_REGION } from '../services/sandbox/dynamodb-local';
import type { ResolvedConnection } from '../services/connections/registry';
import { createDataServices } from './data-services';
import { createStreamHub } from './stream-hub';

describe('lookup after an audit, through the data services', () => {
  const endpoint = inject('dynamoEndpoint');
  const client = testClient(endpoint);
  let table = '';
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'locksmith-lookup-audit-'));
    table = await createTempTable(client, { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } }, 'lookup-after-audit');
    const items: Item[] = [];
    for (let i = 0; i < 20; i++) {
      items.push({ PK: { S: `ACCT#${i}` }, SK: { S: 'PROFILE' }, email: { S: `u${i}@x.io` }, handle: { S: `u${i}` } });
      items.push({ PK: { S: `UNIQ#EMAIL#u${i}@x.io` }, SK: { S: 'LOCK' } }, { PK: { S: `UNIQ#HANDLE#u${i}` }, SK: { S: 'LOCK' } });
    }
    items.push({ PK: { S: 'UNIQ#HANDLE#ghost' }, SK: { S: 'LOCK' } });
    await putItems(client, table, items);
  });
  afterAll(async () => {
    await deleteTable(client, table);
    client.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('uses the finished audit (and says which), and stops using it after a write through Locksmith', async () => {
    const hub = createStreamHub();
    const services = createDataServices({ hub, dataDir });
    const connection: ResolvedConnection = {
      view: { id: 'endpoint:lookup-audit', label: endpoint, kind: 'endpoint', region: SANDBOX_REGION, endpoint, endpointSource: 'connection', writable: true, state: 'ok', envOverrides: [] },
      target: { label: endpoint, endpoint, region: SANDBOX_REGION, credentials: SANDBOX_CREDENTIALS },
    };
    const detected = await services.detect(connection, table, 50);
    if (!detected.ok) throw new Error(detected.error.message);
    const convention: Convention = detected.value.convention;
    const lookup = async (value: string) => {
      const answer = await services.lookup(connection, table, convention, value, 'EMAIL');
      if (!answer.ok) throw new Error(answer.error.message);
      return answer.value;
    };

    expect(await lookup('u3@x.io')).toMatchObject({ method: 'scan', rules: [{ verdict: 'held' }] });
    expect((await lookup('u3@x.io')).usedAudit).toBeUndefined();

    const started = await services.startAudit(connection, table, convention, 2);
    if (!started.ok) throw new Error(started.error.message);
    const done = await new Promise<Extract<AuditEvent, { type: 'done' }>>((resolve) => {
      hub.subscribe('audit.events', { runId: started.value.runId }, (event) => {
        if ((event as AuditEvent).type === 'done') resolve(event as Extract<AuditEvent, { type: 'done' }>);
      });
    });
    expect(done.complete).toBe(true);

    const audited = await lookup('u3@x.io');
    expect(audited).toMatchObject({ method: 'audit', rules: [{ verdict: 'held', holders: [{ PK: 'ACCT#3', SK: 'PROFILE' }] }] });
    expect(Date.parse(audited.usedAudit ?? '')).toBeGreaterThan(0);
    // Another convention (a rule fewer) reads the table differently: that audit is not used for it.
    const other = await services.lookup(connection, table, { ...convention, rules: convention.rules.filter((r) => r.name === 'EMAIL') }, 'u3@x.io', 'EMAIL');
    expect(other.ok && other.value.method).toBe('scan');

    // The same connection pointed elsewhere (another region here; a restarted sandbox alike) is another
    // database: the audit is not used there, nor again once the connection points back.
    const moved: ResolvedConnection = { ...connection, target: { ...connection.target, region: 'eu-west-1' } };
    const elsewhere = await services.lookup(moved, table, convention, 'u3@x.io', 'EMAIL');
    expect(elsewhere.ok && elsewhere.value.method).toBe('scan');
    expect((await lookup('u3@x.io')).method).toBe('scan');
    const again = await services.startAudit(connection, table, convention, 2);
    if (!again.ok) throw new Error(again.error.message);
    await new Promise<void>((resolve) => {
      hub.subscribe('audit.events', { runId: again.value.runId }, (event) => {
        if ((event as AuditEvent).type === 'done') resolve();
      });
    });
    expect((await lookup('u3@x.io')).method).toBe('audit');

    // Locksmith releases the orphan HANDLE lock: from now on the audit may be out of date.
    const preview = await services.preview(connection, table, convention, { kind: 'release', rule: 'HANDLE', value: 'ghost' });
    if (!preview.ok) throw new Error(preview.error.message);
    const executed = await services.execute(preview.value.previewId, preview.value.confirmText, async () => ok(connection));
    expect(executed.ok && executed.value.status).toBe('executed');
    expect(await lookup('u3@x.io')).toMatchObject({ method: 'scan', rules: [{ verdict: 'held' }] });
  });
});
