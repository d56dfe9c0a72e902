/**
 * The request context over real services and the run's DynamoDB Local: a convention from the caller
 * is checked once against the table's real keys, and a refused one reaches no service (no scan, no
 * write: only the reads that checked it); every table method, audit.start included, describes its
 * table once; a call that fails for connection reasons marks the connection.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EXAMPLE_CONVENTION } from '../../shared/contract/examples';
import { layoutFor } from '../../shared/conventions/test-layouts';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { composeApp, type ComposedApp } from './compose';
import type { SenderVerdict } from './pipeline';

const trusted: SenderVerdict = { trusted: true, label: 'context test' };
const quiet = { refused: () => undefined, failed: () => undefined };
const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
let dir = '';
let hashOnly = '';
let fitting = '';
let app: ComposedApp;
let connectionId = '';
/** SDK commands the app's pooled client sent, in order. */
const sent: string[] = [];
/** The same commands as `<name> start` / `<name> end` events, to see what ran at once. */
const timeline: string[] = [];
let detectable = '';
const detectableTable = (): string => detectable;
const fittingTable = (): string => fitting;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-context-'));
  // A table without a sort key: EXAMPLE_CONVENTION's `range: LOCK` templates cannot fit it.
  hashOnly = await createTempTable(admin, { hash: { name: 'PK', type: 'S' } }, 'ctx-hash');
  fitting = await createTempTable(admin, EXAMPLE_CONVENTION.keys, 'ctx-fit');
  detectable = await createTempTable(admin, layout.convention.keys, 'ctx-detect');
  await putItems(admin, detectable, [
    layout.account('d1', { email: 'grace@hopper.io', username: 'grace' }),
    layout.lock('EMAIL', 'grace@hopper.io'),
    layout.lock('HANDLE', 'grace'),
  ]);
  await putItems(admin, fitting, [
    layout.account('c1', { email: 'ada@lovelace.io', username: 'ada' }),
    layout.lock('EMAIL', 'ada@lovelace.io'),
    layout.lock('HANDLE', 'ada'),
    layout.lock('HANDLE', 'ghost'),
    layout.lock('HANDLE', 'taken-late'),
  ]);
  app = composeApp({ mode: 'browser', version: 'context', env: { LOCKSMITH_DATA_DIR: join(dir, 'data') }, log: quiet });
  const added = await app.dispatch('connections.addEndpoint', { endpoint, region: 'us-east-1' }, 'http', trusted);
  if (!added.ok) throw new Error(added.error.message);
  connectionId = (added.value as { id: string }).id;
  const resolved = await app.deps.connections.resolve(connectionId);
  if (!resolved.ok) throw new Error(resolved.error.message);
  app.deps.clients.clientFor(connectionId, resolved.value.target).middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(context.commandName ?? '?');
      timeline.push(`${context.commandName ?? '?'} start`);
      try {
        return await next(args);
      } finally {
        timeline.push(`${context.commandName ?? '?'} end`);
      }
    },
    { step: 'initialize', name: 'record-commands' },
  );
});

afterAll(async () => {
  await app.shutdown();
  admin.destroy();
  for (const table of [hashOnly, fitting, detectable]) await deleteTable(testClient(endpoint), table);
  await rm(dir, { recursive: true, force: true });
});

describe("conventions from the caller are checked against the table's keys", () => {
  it.each([
    ['conventions.save', {}],
    ['audit.start', {}],
    ['lookup.run', { value: 'ada@lovelace.io' }],
    ['tx.preview', { request: { kind: 'release', rule: 'EMAIL', value: 'ada' } }],
    ['watch.start', {}],
  ] as const)('%s refuses a convention that does not fit, naming the field, and starts nothing', async (method, extra) => {
    sent.length = 0;
    const result = await app.dispatch(method, { connectionId, table: hashOnly, convention: EXAMPLE_CONVENTION, ...extra }, 'http', trusted);
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'validation', field: 'convention.keys.range', message: expect.stringMatching(/^convention\.keys\.range: .*sort key/) },
    });
    expect(sent).toEqual(['DescribeTableCommand']);
    expect(await app.dispatch('conventions.get', { connectionId, table: hashOnly }, 'http', trusted)).toEqual({
      ok: true,
      value: { convention: null },
    });
  });

  it('lets a convention that fits through', async () => {
    expect(
      await app.dispatch('conventions.save', { connectionId, table: fitting, convention: EXAMPLE_CONVENTION }, 'http', trusted),
    ).toEqual({ ok: true, value: { convention: EXAMPLE_CONVENTION } });
    expect(
      await app.dispatch('audit.start', { connectionId, table: fitting, convention: EXAMPLE_CONVENTION }, 'http', trusted),
    ).toMatchObject({ ok: true, value: { runId: expect.any(String) } });
  });
});

describe('one DescribeTable per request', () => {
  it.each([
    ['tables.describe', {}],
    ['items.get', { key: { PK: 'ACCT#c1', SK: 'PROFILE' } }],
    ['items.browse', {}],
    ['conventions.detect', {}],
    ['lookup.run', { value: 'ada@lovelace.io', convention: layout.convention }],
    ['lookup.run', { value: 'ada@lovelace.io' }],
    ['tx.preview', { request: { kind: 'release', rule: 'HANDLE', value: 'ghost' }, convention: layout.convention }],
  ] as const)('%s %j describes the table once', async (method, extra) => {
    sent.length = 0;
    const result = await app.dispatch(method, { connectionId, table: fitting, ...extra }, 'http', trusted);
    expect(result.ok).toBe(true);
    expect(sent.filter((command) => command === 'DescribeTableCommand')).toEqual(['DescribeTableCommand']);
  });
});

describe('detection', () => {
  it('conventions.detect reads its sample beside the one DescribeTable, not after it', async () => {
    timeline.length = 0;
    sent.length = 0;
    expect(await app.dispatch('conventions.detect', { connectionId, table: detectable }, 'http', trusted)).toMatchObject({
      ok: true,
      value: { convention: { preset: 'uniq' } },
    });
    expect(sent.filter((c) => c === 'DescribeTableCommand')).toHaveLength(1);
    expect(timeline.indexOf('ScanCommand start')).toBeGreaterThanOrEqual(0);
    expect(timeline.indexOf('ScanCommand start')).toBeLessThan(timeline.indexOf('DescribeTableCommand end'));
  });
});

describe('audit.start', () => {
  it.each([
    ['detected from its sample', detectableTable, {}],
    ['given', fittingTable, { convention: layout.convention }],
  ] as const)('with a convention %s describes the table once, probes nothing, and the audit is exact', async (_how, which, extra) => {
    sent.length = 0;
    const table = which();
    const started = await app.dispatch('audit.start', { connectionId, table, ...extra }, 'http', trusted);
    if (!started.ok) throw new Error(started.error.message);
    const { runId } = started.value as { runId: string };
    await expect.poll(async () => (await app.dispatch('audit.report', { runId }, 'http', trusted)).ok, { timeout: 20_000 }).toBe(true);
    const report = await app.dispatch('audit.report', { runId }, 'http', trusted);
    expect(report).toMatchObject({ ok: true, value: { complete: true, convention: { keys: layout.convention.keys } } });
    expect(sent.filter((command) => command === 'DescribeTableCommand')).toEqual(['DescribeTableCommand']);
    expect(sent).not.toContain('GetItemCommand');
    expect(sent).not.toContain('QueryCommand');
  });
});

describe('tx.execute', () => {
  it('on the connection its preview names: a value taken meanwhile is a refused outcome (not an error), nothing sent, the preview kept', async () => {
    const preview = await app.dispatch(
      'tx.preview',
      { connectionId, table: fitting, convention: layout.convention, request: { kind: 'release', rule: 'HANDLE', value: 'taken-late' } },
      'http',
      trusted,
    );
    if (!preview.ok) throw new Error(preview.error.message);
    const { previewId, confirmText } = preview.value as { previewId: string; confirmText: string };
    const holder = layout.account('late', { username: 'taken-late' });
    await admin.send(new PutItemCommand({ TableName: fitting, Item: holder }));
    const refused = await app.dispatch('tx.execute', { previewId, confirmation: confirmText }, 'http', trusted);
    expect(refused).toMatchObject({
      ok: true,
      value: {
        status: 'refused',
        previewId,
        holders: [{ PK: holder.PK?.S, SK: holder.SK?.S }],
        message: expect.stringMatching(/holds `taken-late` right now.*Nothing was sent/),
      },
    });
    const lock = layout.lock('HANDLE', 'taken-late');
    const key = { PK: lock.PK!, SK: lock.SK! };
    expect((await admin.send(new GetItemCommand({ TableName: fitting, Key: key, ConsistentRead: true }))).Item).toBeDefined();
    await admin.send(new DeleteItemCommand({ TableName: fitting, Key: { PK: holder.PK!, SK: holder.SK! } }));
    expect(await app.dispatch('tx.execute', { previewId, confirmation: confirmText }, 'http', trusted)).toMatchObject({
      ok: true,
      value: { status: 'succeeded', verified: true },
    });
    expect((await admin.send(new GetItemCommand({ TableName: fitting, Key: key, ConsistentRead: true }))).Item).toBeUndefined();
  });
});

describe('connection failures', () => {
  it('mark the connection in error on its sidebar entry', async () => {
    const dead = await app.dispatch('connections.addEndpoint', { endpoint: 'http://127.0.0.1:9', region: 'us-east-1' }, 'http', trusted);
    if (!dead.ok) throw new Error(dead.error.message);
    const id = (dead.value as { id: string }).id;
    expect(await app.dispatch('tables.list', { connectionId: id }, 'http', trusted)).toMatchObject({
      ok: false,
      error: { kind: 'unreachable' },
    });
    const listed = await app.deps.connections.get(id);
    expect(listed).toMatchObject({ ok: true, value: { state: 'error' } });
  });
});
