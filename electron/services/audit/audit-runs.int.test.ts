/**
 * The `audit.events` guarantee, tested by losing nothing: a subscriber that arrives before the first
 * row, in the middle of the run, or after it ended ends up with exactly the rows of the run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { decodeDelta } from '../../../shared/contract/audit-wire';
import type { AuditEvent } from '../../../shared/contract/views';
import type { GroupRow } from '../../../shared/audit/types';
import type { Item } from '../../../shared/model';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { SANDBOX_CREDENTIALS, SANDBOX_REGION } from '../sandbox/dynamodb-local';
import { createStreamHub } from '../../bridge/stream-hub';
import { detectForTable } from '../context/convention-choice';
import { connectionContext, tableContext } from '../context/request-context';
import { describeTable } from '../dynamo/tables';
import { auditReport, startAudit } from './audit-methods';
import { createAuditRuns } from './audit-runs';

const ACCOUNTS = 120;

/** A subscriber's view of the run, built the way the renderer builds it (a snapshot replaces the list). */
function collector() {
  const rows = new Map<string, GroupRow>();
  let done: Extract<AuditEvent, { type: 'done' }> | undefined;
  const deliver = (raw: unknown): void => {
    const event = raw as AuditEvent;
    if (event.type === 'delta') {
      if (event.snapshot) rows.clear();
      const delta = decodeDelta(event.delta);
      for (const id of delta.removed) rows.delete(id);
      for (const row of delta.upserted) rows.set(row.id, row);
    } else if (event.type === 'done') done = event;
  };
  return { rows, deliver, done: () => done };
}

describe('audit.events replay', () => {
  const endpoint = inject('dynamoEndpoint');
  const client = testClient(endpoint);
  let table = '';
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'locksmith-replay-'));
    table = await createTempTable(client, { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } }, 'replay');
    const items: Item[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      items.push({ PK: { S: `ACCT#${i}` }, SK: { S: 'PROFILE' }, email: { S: `u${i}@x.io` }, handle: { S: `u${i}` } });
      items.push({ PK: { S: `UNIQ#EMAIL#u${i}@x.io` }, SK: { S: 'LOCK' } });
      // Every third account has no handle lock: a missing-lock problem.
      if (i % 3 !== 0) items.push({ PK: { S: `UNIQ#HANDLE#u${i}` }, SK: { S: 'LOCK' } });
    }
    items.push({ PK: { S: 'UNIQ#HANDLE#ghost' }, SK: { S: 'LOCK' } });
    await putItems(client, table, items);
  });
  afterAll(async () => {
    await deleteTable(client, table);
    client.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('gives early, mid-run and late subscribers the same, exact rows', async () => {
    const hub = createStreamHub();
    const runs = createAuditRuns(hub);
    const target = { label: endpoint, endpoint, region: SANDBOX_REGION, credentials: SANDBOX_CREDENTIALS };
    const described = await describeTable(client, table);
    if (!described.ok) throw new Error(described.error.message);
    const ctx = tableContext(
      connectionContext({
        connectionId: 'endpoint:test',
        target,
        client,
        writable: false,
        allowWrites: 'allow writes',
        endpoint,
        local: true,
      }),
      described.value,
    );
    try {
      const detected = await detectForTable(ctx, 50);
      if (!detected.ok) throw new Error(detected.error.message);
      // Small deltas (segments of one page each) so that "mid-run" exists.
      const started = await startAudit({ ...ctx, convention: detected.value.detection.convention, conventionSource: 'detected' }, runs, {
        segments: 4,
      });
      if (!started.ok) throw new Error(started.error.message);
      const { runId } = started.value;
      const early = collector();
      const middle = collector();
      let joined = false;
      const finished = new Promise<void>((resolve) => {
        hub.subscribe('audit.events', { runId }, (event) => {
          early.deliver(event);
          // Joins after the first delta was published, from inside its delivery: the middle of the run.
          if (!joined && (event as AuditEvent).type === 'delta') {
            joined = true;
            hub.subscribe('audit.events', { runId }, middle.deliver);
          }
          if ((event as AuditEvent).type === 'done') resolve();
        });
      });
      await finished;
      const late = collector();
      hub.subscribe('audit.events', { runId }, late.deliver);

      const report = await auditReport(runs, { runId });
      if (!report.ok) throw new Error(report.error.message);
      const expectedIds = [...early.rows.keys()].sort();
      // One row per account plus the stray lock.
      expect(expectedIds).toHaveLength(ACCOUNTS + 1);
      expect(report.value.summary['missing-lock']).toBe(ACCOUNTS / 3);
      expect(report.value.summary['orphan-lock']).toBe(1);
      for (const seen of [middle, late]) {
        expect([...seen.rows.keys()].sort()).toEqual(expectedIds);
        expect(expectedIds.map((id) => seen.rows.get(id))).toEqual(expectedIds.map((id) => early.rows.get(id)));
        expect(seen.done()?.counts).toEqual(early.done()?.counts);
      }
      expect(joined).toBe(true);
      expect(early.done()?.complete).toBe(true);
    } finally {
      runs.close();
    }
  });
});
