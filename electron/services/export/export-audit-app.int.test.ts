/**
 * The app's audit from an export, through the composed handler table (the bridge the renderer
 * calls) on DynamoDB Local: `audit.startExport` shows the live audit's problem groups and report,
 * a damaged export or a cancel ends the run incomplete, s3:// comes through a real S3 server
 * (s3rver), and `audit.confirmExport` moves what was fixed since the export to `stale` — before
 * which `repair.plan` refuses the run.
 */
import { readdir, readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditReport, GroupRow } from '../../../shared/audit/types';
import { decodeDelta } from '../../../shared/contract/audit-wire';
import type { AuditEvent } from '../../../shared/contract/views';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import { composeApp, type ComposedApp } from '../../bridge/compose';
import type { SenderVerdict } from '../../bridge/pipeline';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { exportTable } from './export-table';
import { tableArnFor } from './layout';
import { isProblemRow } from './pulled-report';
import { openExport } from './read-export';

const trusted: SenderVerdict = { trusted: true, label: 'export audit app' };
const quiet = { refused: () => undefined, failed: () => undefined };
const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
let work = '';
let table = '';
let exported = '';
let app: ComposedApp;
let connectionId = '';

type Answer<T> = { ok: true; value: T } | { ok: false; error: { kind: string; message: string; field?: string } };
const call = async <T>(method: string, args: Record<string, unknown>): Promise<Answer<T>> =>
  (await app.dispatch(method, args, 'http', trusted)) as Answer<T>;

/** Subscribes (getting the replay) and resolves at `done` with the rows as a subscriber holds them. */
function finished(runId: string): Promise<{ rows: GroupRow[]; done: Extract<AuditEvent, { type: 'done' }>; steps: string[] }> {
  return new Promise((resolve) => {
    const rows = new Map<string, GroupRow>();
    const steps: string[] = [];
    let ended = false;
    // The replay is delivered inside subscribe(): unsubscribe once it has returned.
    const sub = app.hub.subscribe('audit.events', { runId }, (raw) => {
      const event = raw as AuditEvent;
      if (event.type === 'progress' && event.progress.step) steps.push(event.progress.step);
      if (event.type === 'delta') {
        if (event.snapshot) rows.clear();
        const delta = decodeDelta(event.delta);
        for (const id of delta.removed) rows.delete(id);
        for (const row of delta.upserted) rows.set(row.id, row);
      }
      if (event.type === 'done' && !ended) {
        ended = true;
        queueMicrotask(() => sub.ok && sub.value());
        resolve({ rows: [...rows.values()].sort((a, b) => (a.id < b.id ? -1 : 1)), done: event, steps });
      }
    });
  });
}

async function started(method: 'audit.start' | 'audit.startExport', args: Record<string, unknown>): Promise<string> {
  const answer = await call<{ runId: string; source?: { exportTime: string } }>(method, {
    connectionId,
    table,
    convention: layout.convention,
    ...args,
  });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value.runId;
}

async function reportOf(runId: string): Promise<AuditReport & { source?: unknown; stale?: unknown[] }> {
  const answer = await call<AuditReport & { source?: unknown }>('audit.report', { runId });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'locksmith-export-app-'));
  table = await createTempTable(admin, layout.convention.keys, 'export-app');
  await putItems(admin, table, [
    layout.account('a1', { email: 'ada@lovelace.io', username: 'ada' }),
    layout.lock('EMAIL', 'ada@lovelace.io'),
    layout.lock('HANDLE', 'ada'),
    layout.account('a2', { email: 'bob@example.com', username: 'bob' }),
    layout.lock('EMAIL', 'bob@example.com'),
    layout.account('a3', { email: 'ADA@lovelace.io', username: 'carol' }),
    layout.lock('HANDLE', 'carol'),
    layout.lock('HANDLE', 'ghost'),
    layout.lock('HANDLE', 'still-orphan'),
    // Two missing locks; one is claimed after the export.
    layout.account('a4', { email: 'dan@example.com', username: 'dan' }),
  ]);
  exported = (
    await exportTable({
      client: admin,
      table,
      keys: layout.convention.keys,
      tableArn: tableArnFor(table, 'us-east-1'),
      out: join(work, 'export'),
      partitions: 3,
    })
  ).dir;
  // s3rver accepts its own keys only; the endpoint connection signs with the environment's (DynamoDB Local runs -sharedDb).
  app = composeApp({
    mode: 'browser',
    version: 'export-app',
    env: { LOCKSMITH_DATA_DIR: join(work, 'data'), AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
    log: quiet,
  });
  const added = await call<{ id: string }>('connections.addEndpoint', { endpoint, region: 'us-east-1' });
  if (!added.ok) throw new Error(added.error.message);
  connectionId = added.value.id;
});
afterAll(async () => {
  await app.shutdown();
  await deleteTable(admin, table);
  admin.destroy();
  await rm(work, { recursive: true, force: true });
});

describe('audit.startExport', () => {
  it("shows the live audit's problem groups and report, labelled with the export, then confirms against the live table", async () => {
    const liveRun = await started('audit.start', {});
    const live = await finished(liveRun);
    const answer = await call<{ runId: string; source: { exportArn: string; exportTime: string; itemCount: number } }>(
      'audit.startExport',
      { connectionId, table, convention: layout.convention, path: exported },
    );
    if (!answer.ok) throw new Error(answer.error.message);
    expect(answer.value.source).toMatchObject({ kind: 'export', itemCount: 10 });
    expect(answer.value.source.exportArn).toContain(`table/${table}/export/`);
    const fromExport = await finished(answer.value.runId);
    expect(fromExport.done.complete).toBe(true);
    expect(fromExport.steps).toEqual(
      expect.arrayContaining([expect.stringMatching(/^verify/), expect.stringMatching(/^load/), expect.stringMatching(/^check /), 'done']),
    );
    // The same problem groups, each with the same problems (healthy accounts are not pulled out of DuckDB).
    const summary = (rows: GroupRow[]) =>
      rows.map((r) => [
        r.id,
        r.kind,
        r.kind === 'account'
          ? [r.problems, r.locks.filter((l) => l.status !== 'ok').map((l) => `${l.rule}:${l.value}:${l.status}`)]
          : r.value,
      ]);
    expect(summary(fromExport.rows)).toEqual(summary(live.rows.filter(isProblemRow)));
    expect(fromExport.rows.length).toBeGreaterThan(0);
    const { source, ...report } = await reportOf(answer.value.runId);
    expect(source).toMatchObject({ kind: 'export', itemsRead: 10 });
    expect(report).toEqual(await reportOf(liveRun));

    // Unconfirmed findings of an export are never acted on.
    const refused = await call('repair.plan', { connectionId, table, runId: answer.value.runId });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(!refused.ok && refused.error.message).toContain('not confirmed');

    // Fixed after the export: the ghost orphan is released, dan's handle is locked (his email still is not).
    await admin.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: 'UNIQ#HANDLE#ghost' }, SK: { S: 'LOCK' } } }));
    await putItems(admin, table, [layout.lock('HANDLE', 'dan')]);
    // Two confirmations at once: the second is refused while the first reads (it would drop the first's stale findings).
    const both = await Promise.all(
      [1, 2].map(() =>
        call<{ confirmed: number; stale: number }>('audit.confirmExport', { connectionId, table, runId: answer.value.runId }),
      ),
    );
    // Either may reach the run first (each describes the table before); under load the first may even
    // finish before the second arrives, which then re-reads the same findings. Never a third answer.
    const confirmed = both.find((a) => a.ok);
    expect(confirmed).toEqual({ ok: true, value: { confirmed: report.problems.length - 2, stale: 2 } });
    for (const other of both.filter((a) => a !== confirmed)) {
      if (other.ok) expect(other.value.confirmed).toBe(report.problems.length - 2);
      else
        expect(other).toMatchObject({
          ok: false,
          error: { kind: 'conflict', message: expect.stringContaining('being confirmed already') },
        });
    }
    const after = await finished(answer.value.runId);
    expect(after.rows.map((r) => r.id)).toEqual(
      fromExport.rows.map((r) => r.id).filter((id) => id !== JSON.stringify(['UNIQ#HANDLE#ghost', 'LOCK'])),
    );
    // The rows are re-derived from the live items: what a live audit now shows of these groups.
    const liveNow = await finished(await started('audit.start', {}));
    expect(summary(after.rows)).toEqual(summary(liveNow.rows.filter(isProblemRow)));
    expect(after.done.counts.summary['orphan-lock']).toBe(report.summary['orphan-lock'] - 1);
    const final = await reportOf(answer.value.runId);
    expect(final.stale).toEqual([
      expect.objectContaining({ kind: 'orphan-lock', value: 'ghost' }),
      expect.objectContaining({ kind: 'missing-lock', value: 'dan' }),
    ]);
    const planned = await call<{ actionCount: number }>('repair.plan', { connectionId, table, runId: answer.value.runId });
    expect(planned.ok).toBe(true);
  });

  it('refuses a damaged export naming the file, ends the run incomplete naming it when verification finds it, and ends incomplete when cancelled', async () => {
    const damaged = join(work, 'damaged');
    const written = await exportTable({
      client: admin,
      table,
      keys: layout.convention.keys,
      tableArn: tableArnFor(table, 'us-east-1'),
      out: damaged,
      partitions: 2,
    });
    const file = (await openExport(written.dir)).files.find((f) => f.itemCount > 0)!;
    const name = file.path.split('/').pop()!;
    const bytes = await readFile(file.path);
    // Truncated: the sample read at the start cannot read it.
    await writeFile(file.path, bytes.subarray(0, bytes.length - 5));
    const refused = await call('audit.startExport', { connectionId, table, convention: layout.convention, path: damaged });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'validation', field: 'path', message: expect.stringContaining(name) } });
    // The same lines gzipped again: readable, but not the file the manifest lists (its MD5): only the run's verification finds it.
    await writeFile(file.path, gzipSync(gunzipSync(bytes), { level: 1 }));
    const bad = await finished(await started('audit.startExport', { path: damaged }));
    expect(bad.done.complete).toBe(false);
    expect(bad.done.reason).toContain(name);
    expect(bad.rows).toEqual([]);

    const runId = await started('audit.startExport', { path: exported });
    expect(await call('audit.cancel', { runId })).toEqual({ ok: true, value: { cancelled: true } });
    const cancelled = await finished(runId);
    expect(cancelled.done).toMatchObject({ complete: false, reason: expect.stringContaining('cancelled') });
    expect(await call('audit.confirmExport', { connectionId, table, runId })).toMatchObject({ ok: false, error: { kind: 'validation' } });
  });

  it('refuses what it must not read: a relative path, "..", s3:// without an S3 endpoint on a local connection', async () => {
    for (const path of [
      'exports/accounts',
      '/tmp/../etc',
      'file:///etc',
      's3://x',
      ...(process.platform === 'win32' ? [] : ['C:/exports']),
    ]) {
      expect(await call('audit.startExport', { connectionId, table, path })).toMatchObject({ ok: false, error: { kind: 'validation' } });
    }
    expect(await call('audit.startExport', { connectionId, table, path: 's3://exports/team' })).toMatchObject({
      ok: false,
      error: { kind: 'validation', field: 's3Endpoint' },
    });
    expect(await call('audit.startExport', { connectionId, table, path: exported, s3Endpoint: 'http://127.0.0.1:1' })).toMatchObject({
      ok: false,
      error: { kind: 'validation', field: 's3Endpoint' },
    });
    const missing = await call('audit.startExport', { connectionId, table, path: join(work, 'nothing-here') });
    expect(missing).toMatchObject({ ok: false, error: { kind: 'validation', field: 'path' } });
    // The page chooses the S3 endpoint: requests signed with the connection's keys go to this machine only.
    const remote = await call('audit.startExport', {
      connectionId,
      table,
      path: 's3://exports/team',
      s3Endpoint: 'http://203.0.113.7:9000',
    });
    expect(remote).toMatchObject({
      ok: false,
      error: { kind: 'validation', field: 's3Endpoint', message: expect.stringContaining('this machine') },
    });
  });

  it('refuses an export of another table, and a convention whose locks live in another table (the export holds none of them)', async () => {
    const other = await exportTable({
      client: admin,
      table,
      keys: layout.convention.keys,
      tableArn: tableArnFor('someone-else', 'us-east-1'),
      out: join(work, 'other-export'),
      partitions: 1,
    });
    const wrongTable = await call('audit.startExport', { connectionId, table, path: other.dir });
    expect(wrongTable).toMatchObject({
      ok: false,
      error: { kind: 'validation', field: 'path', message: expect.stringContaining('this export is of table someone-else') },
    });
    const apart = await call('audit.startExport', {
      connectionId,
      table,
      path: exported,
      convention: { ...layout.convention, lockTable: `${table}_locks` },
    });
    expect(apart).toMatchObject({
      ok: false,
      error: { kind: 'validation', field: 'convention', message: expect.stringContaining('keeps its locks in another table') },
    });
  });

  it('reads an s3:// export through an S3-compatible endpoint (s3rver) and shows what the local copy shows', async () => {
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(work, 's3') });
    const { port } = await server.run();
    const s3Endpoint = `http://127.0.0.1:${port}`;
    const s3 = new S3Client({
      endpoint: s3Endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    try {
      await s3.send(new CreateBucketCommand({ Bucket: 'exports' }));
      const root = join(work, 'export');
      const walk = async (dir: string): Promise<string[]> =>
        (
          await Promise.all(
            (await readdir(dir, { withFileTypes: true })).map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])),
          )
        ).flat();
      for (const path of await walk(root))
        await s3.send(new PutObjectCommand({ Bucket: 'exports', Key: `team/${relative(root, path)}`, Body: await readFile(path) }));
      const local = await finished(await started('audit.startExport', { path: exported }));
      // The connection's own credentials sign the S3 requests: this one signs with the environment's keys.
      const signed = await call<{ id: string }>('connections.addEndpoint', {
        endpoint,
        region: 'us-east-1',
        credentials: { source: 'env' },
      });
      if (!signed.ok) throw new Error(signed.error.message);
      const remote = await finished(
        await started('audit.startExport', { connectionId: signed.value.id, path: 's3://exports/team', s3Endpoint }),
      );
      expect(remote.done.complete).toBe(true);
      expect(remote.steps.some((s) => s.startsWith('download '))).toBe(true);
      expect(remote.rows).toEqual(local.rows);
      expect(remote.done.counts).toEqual(local.done.counts);
    } finally {
      s3.destroy();
      await server.close();
    }
  });
});
