/**
 * Attacks through the bridge, with the real composed app over the run's DynamoDB Local:
 * markup in item values comes back as data; a renderer asking for Node, credentials or unknown
 * methods is refused; IPC from a foreign frame is refused; and recognisable fake secrets (access
 * key, secret key, session token, MFA code) appear in no result, log line, activity log or settings file.
 * (Renderer inertness of that markup: e2e/xss.spec.ts. Browser-mode token/Host/Origin: electron/serve/server.test.ts.)
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { layoutFor } from '../../shared/conventions/test-layouts';
import type { Item } from '../../shared/model';
import { ipcSenderVerdict } from '../main/ipc';
import { createTempTable, deleteTable, putItems, testClient } from '../testing/dynamo-fixtures';
import { recordFigures } from '../testing/reliability/figures';
import { composeApp, type ComposedApp } from './compose';
import { createConsoleLogger } from './logger';
import { createDispatcher, type SenderVerdict } from './pipeline';
import { createFakeHandlers } from './testing/fake-handlers';

// main/ipc imports electron, whose binary cannot exist here; the verdict function needs none of it.
vi.mock('electron', () => ({ ipcMain: { handle: () => undefined, removeHandler: () => undefined } }));

const FAKE_KEY_ID = 'ASIALOCKSMITHFAKE0002';
const FAKE_SECRET = 'LocksmithFakeSecretAbcdefghij0123456789';
const FAKE_SESSION = 'LocksmithFakeSessionTokenQrstuvwxyz0123456789';
const FAKE_PROFILE_SECRET = 'LocksmithFakeProfileSecret0123456789abcd';
const MFA_CODE = '592614';
const SECRETS = [FAKE_KEY_ID, FAKE_SECRET, FAKE_SESSION, FAKE_PROFILE_SECRET, MFA_CODE];
const MARKUP = [
  '<img src=x onerror=alert(1)>',
  '<script>window.top.locksmith</script>',
  'javascript:alert(document.cookie)',
  '"><svg onload=alert(1)>',
  '{{constructor.constructor("alert(1)")()}}',
];

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
const conv = layout.convention;
const trusted: SenderVerdict = { trusted: true, label: 'attack test' };
const logLines: string[] = [];
const results: unknown[] = [];
let dir = '';
let table = '';
let app: ComposedApp;
let connectionId = '';

async function call(method: string, args: unknown): Promise<unknown> {
  const result = await app.dispatch(method, args, 'ipc', trusted);
  results.push(result);
  return result;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-attacks-'));
  await writeFile(
    join(dir, 'config'),
    '[profile prod]\nregion = eu-west-1\nmfa_serial = arn:aws:iam::123456789012:mfa/ada\nrole_arn = arn:aws:iam::123456789012:role/admin\nsource_profile = base\n',
  );
  await writeFile(
    join(dir, 'credentials'),
    `[base]\naws_access_key_id = AKIALOCKSMITHFAKE003\naws_secret_access_key = ${FAKE_PROFILE_SECRET}\n`,
  );
  table = await createTempTable(admin, conv.keys, 'attacks');
  const items: Item[] = MARKUP.flatMap((value, i) => [
    layout.account(`x${i}`, { username: value }),
    layout.lock('EMAIL', value.toLowerCase()),
  ]);
  await putItems(admin, table, items);
  app = composeApp({
    mode: 'browser',
    version: 'attack',
    // The environment carries live-looking credentials: endpoint connections sign with them.
    env: {
      LOCKSMITH_DATA_DIR: join(dir, 'data'),
      AWS_CONFIG_FILE: join(dir, 'config'),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'),
      AWS_ACCESS_KEY_ID: FAKE_KEY_ID,
      AWS_SECRET_ACCESS_KEY: FAKE_SECRET,
      AWS_SESSION_TOKEN: FAKE_SESSION,
    },
    log: createConsoleLogger((line) => logLines.push(line)),
  });
  const added = (await call('connections.addEndpoint', { endpoint, region: 'us-east-1' })) as { ok: true; value: { id: string } };
  connectionId = added.value.id;
});

afterAll(async () => {
  await app.shutdown();
  await deleteTable(admin, table);
  await rm(dir, { recursive: true, force: true });
});

describe('markup and script in item values', () => {
  it('comes back from items.get, lookup and audit as the exact text, as data', async () => {
    for (const [i, value] of MARKUP.entries()) {
      const item = (await call('items.get', { connectionId, table, key: { PK: `ACCT#x${i}`, SK: 'PROFILE' } })) as {
        ok: true;
        value: { dynamo: Item; plain: Record<string, unknown> };
      };
      expect(item.ok).toBe(true);
      expect(item.value.dynamo.username).toEqual({ S: value });
      expect(item.value.plain.username).toBe(value);
      const looked = (await call('lookup.run', { connectionId, table, value, convention: conv })) as {
        ok: true;
        value: { rules: { rule: string; verdict: string; normalized: string }[] };
      };
      expect(looked.value.rules.find((r) => r.rule === 'HANDLE')).toMatchObject({
        verdict: 'unprotected',
        normalized: value.trim().toLowerCase(),
      });
    }
    const started = (await call('audit.start', { connectionId, table, convention: conv, segments: 1 })) as {
      ok: true;
      value: { runId: string };
    };
    let report: { ok: boolean; value?: { problems: { kind: string; value: string }[] } } = { ok: false };
    for (let i = 0; i < 200 && !report.ok; i++) {
      report = (await call('audit.report', { runId: started.value.runId })) as typeof report;
      if (!report.ok) await new Promise((r) => setTimeout(r, 25));
    }
    const orphans = report.value?.problems
      .filter((p) => p.kind === 'orphan-lock')
      .map((p) => p.value)
      .sort();
    expect(orphans).toEqual(MARKUP.map((v) => v.toLowerCase()).sort());
  });
});

describe('a renderer reaching for Node, credentials or unknown methods', () => {
  const ATTEMPTS = [
    'require',
    'process.env',
    'eval',
    'child_process.exec',
    'fs.readFile',
    'credentials.get',
    'connections.credentials',
    '__proto__',
    'constructor',
    'hasOwnProperty',
    'toString',
    'app.info.constructor',
    'tx.execute\u0000',
    'TX.EXECUTE',
    ' tx.execute',
  ];

  it.each(ATTEMPTS)('%j is an unknown method: refused, no service touched', async (method) => {
    const { handlers, calls, writes } = createFakeHandlers();
    const dispatch = createDispatcher(handlers, { refused: () => undefined, failed: () => undefined });
    const result = await dispatch(method, { path: '/etc/passwd', command: 'id' }, 'ipc', trusted);
    expect(result).toMatchObject({ ok: false, error: { kind: 'validation', message: expect.stringMatching(/^Unknown method/) } });
    expect(calls).toEqual([]);
    expect(writes()).toBe(0);
  });

  it('connections.list shows profiles and credential variables by name, never their values', async () => {
    const listed = JSON.stringify(await call('connections.list', {}));
    expect(listed).toContain('prod');
    expect(listed).toContain('AWS_SECRET_ACCESS_KEY');
    for (const secret of SECRETS) expect(listed).not.toContain(secret);
  });
});

describe('IPC from a foreign frame', () => {
  const ours = { id: 1 } as unknown as WebContents;
  const known = (contents: WebContents): boolean => contents === ours;
  const event = (url: string | null, options: { sender?: WebContents; parent?: object | null } = {}) =>
    ({ sender: options.sender ?? ours, senderFrame: url === null ? null : { url, parent: options.parent ?? null } }) as unknown as Pick<
      IpcMainInvokeEvent,
      'sender' | 'senderFrame'
    >;
  const FOREIGN: [string, ReturnType<typeof event>][] = [
    ['another window', event('app://locksmith/index.html', { sender: { id: 2 } as unknown as WebContents })],
    ['a subframe of our window', event('app://locksmith/index.html', { parent: {} })],
    ['a frame that is gone', event(null)],
    ['https page', event('https://evil.example/')],
    ['file URL', event('file:///etc/passwd')],
    ['look-alike host', event('app://locksmith.evil/index.html')],
    ['credentials in the URL', event('app://evil@locksmith.evil/')],
    ['data URL', event('data:text/html,<script>1</script>')],
    ['about:blank', event('about:blank')],
    ['devtools', event('devtools://devtools/bundled/inspector.html')],
    ['http on our host name', event('http://locksmith/index.html')],
  ];

  it.each(FOREIGN)('%s: refused before any service runs', async (_label, foreign) => {
    const verdict = ipcSenderVerdict(foreign, known);
    expect(verdict.trusted).toBe(false);
    const { handlers, calls } = createFakeHandlers();
    const result = await createDispatcher(handlers, { refused: () => undefined, failed: () => undefined })(
      'connections.setWritable',
      { id: 'sandbox', writable: true },
      'ipc',
      verdict,
    );
    expect(result).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(calls).toEqual([]);
  });

  it('our own main frame is trusted', () => {
    expect(ipcSenderVerdict(event('app://locksmith/index.html'), known).trusted).toBe(true);
  });
});

describe('secrets never leave the Node process', () => {
  it('after reads, a write, failures and MFA answers: no fake secret in any result, log line, activity log or settings file', async () => {
    await call('tables.list', { connectionId });
    const preview = (await call('tx.preview', {
      connectionId,
      table,
      convention: conv,
      request: { kind: 'claim', rule: 'HANDLE', value: MARKUP[0]!.toLowerCase(), account: { PK: 'ACCT#x0', SK: 'PROFILE' } },
    })) as { ok: true; value: { previewId: string; confirmText: string } };
    expect(preview.ok).toBe(true);
    expect(await call('tx.execute', { previewId: preview.value.previewId, confirmation: preview.value.confirmText })).toMatchObject({
      ok: true,
      value: { status: 'succeeded' },
    });
    await call('activity.list', {});
    // Failures: a missing table, a dead endpoint, a profile whose role needs STS, bad MFA answers.
    await call('tables.describe', { connectionId, table: 'no-such-table' });
    const dead = (await call('connections.addEndpoint', { endpoint: 'http://127.0.0.1:9', region: 'us-east-1' })) as {
      ok: true;
      value: { id: string };
    };
    await call('tables.list', { connectionId: dead.value.id });
    await call('mfa.answer', { action: 'submit', promptId: 'nope', code: MFA_CODE });
    await call('mfa.answer', { action: 'submit', promptId: 'nope', code: `${MFA_CODE}x${FAKE_SECRET}` });
    await call('tx.execute', { previewId: 'pv_unknown', confirmation: FAKE_SECRET });
    await call('connections.setWritable', { id: 'profile:prod', writable: true, confirm: FAKE_SECRET });

    const files: string[] = [];
    for (const name of await readdir(join(dir, 'data'))) files.push(await readFile(join(dir, 'data', name), 'utf8'));
    expect(files.join('').length).toBeGreaterThan(0);
    const everything = [JSON.stringify(results), logLines.join('\n'), ...files].join('\n');
    for (const secret of SECRETS) expect(everything, `found ${secret}`).not.toContain(secret);
    await recordFigures('attacks', {
      markupValues: MARKUP.length,
      unknownMethods: 15,
      foreignFrames: 11,
      bridgeCalls: results.length,
      secretsSearched: SECRETS.length,
      secretHits: 0,
      logLines: logLines.length,
      filesSearched: files.length,
    });
  });
});
