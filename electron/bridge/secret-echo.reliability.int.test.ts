/**
 * #16 finding 2: an endpoint that echoes the session token it was signed with (in a
 * ValidationException message) must not get that token into any result, the activity log, the
 * activity list, a log line or the CLI's output. The endpoint is a loopback proxy in front of the
 * run's DynamoDB Local that answers ListTables and TransactWriteItems with the echo.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { layoutFor } from '../../shared/conventions/test-layouts';
import { main } from '../cli/main';
import { captureIo } from '../cli/testing-io';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { recordFigures } from '../testing/reliability/figures';
import { composeApp, type ComposedApp } from './compose';
import { createConsoleLogger } from './logger';

const SESSION = 'EchoedSessionTokenAbcdefghijklmnop0123456789';
const KEY_ID = 'EchoKeyIdZyxwvut0123';
const SECRET = 'EchoSecretKeyMnopqrstu0123456789abcdefgh';
const ECHOED = new Set(['DynamoDB_20120810.ListTables', 'DynamoDB_20120810.TransactWriteItems']);

const dynamo = new URL(inject('dynamoEndpoint'));
const admin = testClient(dynamo.origin);
const layout = layoutFor('uniq');
let proxy: Server;
let proxyUrl = '';
let dir = '';
let table = '';
let app: ComposedApp;
const logLines: string[] = [];
let echoes = 0;

/** Answers the echoed operations with the token from the signed request; forwards the rest to DynamoDB Local. */
function startProxy(): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      if (ECHOED.has(target)) {
        echoes++;
        res.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' });
        res.end(
          JSON.stringify({
            __type: 'com.amazon.coral.validate#ValidationException',
            message: `invalid request signed with token ${String(req.headers['x-amz-security-token'])}`,
          }),
        );
        return;
      }
      const forward = request(
        { host: dynamo.hostname, port: dynamo.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(res);
        },
      );
      forward.end(Buffer.concat(chunks));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-echo-'));
  proxy = await startProxy();
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  table = await createTempTable(admin, layout.convention.keys, 'echo');
  await putItems(admin, table, [layout.account('e1', { username: 'echo' })]);
  app = composeApp({
    mode: 'browser',
    version: 'echo',
    env: {
      LOCKSMITH_DATA_DIR: join(dir, 'data'),
      AWS_CONFIG_FILE: join(dir, 'none'),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'none'),
      AWS_ACCESS_KEY_ID: KEY_ID,
      AWS_SECRET_ACCESS_KEY: SECRET,
      AWS_SESSION_TOKEN: SESSION,
    },
    log: createConsoleLogger((line) => logLines.push(line)),
  });
});

afterAll(async () => {
  await app.shutdown();
  await deleteTable(admin, table);
  await new Promise((resolve) => proxy.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('a session token echoed by the endpoint', () => {
  it('reaches no result, activity-log line, activity entry, log line or CLI output', async () => {
    const call = (method: string, args: unknown) => app.dispatch(method, args, 'http', { trusted: true, label: 'echo test' });
    const added = (await call('connections.addEndpoint', { endpoint: proxyUrl, region: 'us-east-1', credentials: { source: 'env' } })) as {
      ok: true;
      value: { id: string };
    };
    const connectionId = added.value.id;
    const results: unknown[] = [];
    results.push(await call('tables.list', { connectionId }));
    const preview = (await call('tx.preview', {
      connectionId,
      table,
      convention: layout.convention,
      request: { kind: 'claim', rule: 'HANDLE', value: 'echo', account: { PK: 'ACCT#e1', SK: 'PROFILE' } },
    })) as { ok: true; value: { previewId: string; confirmText: string } };
    expect(preview.ok).toBe(true);
    results.push(preview, await call('tx.execute', { previewId: preview.value.previewId, confirmation: preview.value.confirmText }));
    results.push(await call('activity.list', {}));
    const activityLog = await readFile(join(dir, 'data', 'audit-log.jsonl'), 'utf8');
    const cli = captureIo({ AWS_ACCESS_KEY_ID: KEY_ID, AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: SESSION });
    await main(['tables', '--endpoint', proxyUrl], cli);

    // The echo really happened: the message came back (scrubbed) through every path.
    expect(echoes).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(results[0])).toMatch(/signed with token \*\*\*/);
    expect(activityLog.trim().split('\n')).toHaveLength(1);
    expect(cli.err()).toMatch(/signed with token \*\*\*/);
    const everything = [JSON.stringify(results), activityLog, logLines.join('\n'), cli.out(), cli.err()].join('\n');
    for (const secret of [SESSION, SECRET, KEY_ID]) expect(everything, `found ${secret}`).not.toContain(secret);
    await recordFigures('secret-echo', { echoes, paths: 6, secretHits: 0 });
  });
});
