import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '../dynamo/client';
import { createConnectionRegistry } from './registry';
import type { SandboxProbe } from './registry-types';
import { createSettingsStore } from './settings-store';
import { createMfaBroker } from './mfa-broker';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-registry-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sandbox = (running: boolean): SandboxProbe => ({
  state: () => (running ? 'running' : 'stopped'),
  endpoint: () => (running ? 'http://127.0.0.1:45678' : undefined),
  error: () => undefined,
  region: 'us-east-1',
  credentials: { accessKeyId: 'locksmith', secretAccessKey: 'locksmith' },
});

function registry(env: NodeJS.ProcessEnv = {}, running = true) {
  return createConnectionRegistry({
    settings: createSettingsStore(dir),
    sandbox: sandbox(running),
    broker: createMfaBroker(() => undefined),
    env: { AWS_CONFIG_FILE: join(fixtures, 'config-all-kinds'), AWS_SHARED_CREDENTIALS_FILE: join(fixtures, 'credentials-basic'), ...env },
    home: '/nonexistent',
  });
}

describe('connection registry', () => {
  it('lists the sandbox and every profile; profiles start read-only, the sandbox writable', async () => {
    const list = await registry().list();
    expect(list.suggestedEndpoint).toBe('http://localhost:8000');
    const sandboxView = list.connections.find((c) => c.id === 'sandbox');
    expect(sandboxView).toMatchObject({ kind: 'sandbox', writable: true, state: 'ok', endpoint: 'http://127.0.0.1:45678' });
    const prod = list.connections.find((c) => c.id === 'profile:prod-mfa');
    expect(prod).toMatchObject({
      kind: 'profile',
      profileKind: 'mfa',
      writable: false,
      endpoint: null,
      endpointSource: 'aws-default',
      region: 'us-east-1',
    });
    expect(JSON.stringify(list)).not.toMatch(/secret|AKIA/);
  });

  it('says where it looks for profiles, the home folder written as ~', async () => {
    const none = createConnectionRegistry({
      settings: createSettingsStore(dir),
      sandbox: sandbox(true),
      broker: createMfaBroker(() => undefined),
      env: {},
      home: dir,
    });
    const list = await none.list();
    expect(list.connections.filter((c) => c.kind === 'profile')).toEqual([]);
    expect(list.profileFiles).toEqual(['~/.aws/config', '~/.aws/credentials']);
    expect((await registry().list()).profileFiles).toEqual([join(fixtures, 'config-all-kinds'), join(fixtures, 'credentials-basic')]);
  });

  it('makes environment overrides visible, by name', async () => {
    const list = await registry({
      AWS_ENDPOINT_URL_DYNAMODB: 'http://proxy:9000',
      AWS_REGION: 'eu-west-2',
      AWS_ACCESS_KEY_ID: 'AKIAX',
      AWS_SECRET_ACCESS_KEY: 'x',
    }).list();
    const prod = list.connections.find((c) => c.id === 'profile:prod-mfa');
    expect(prod).toMatchObject({
      endpoint: 'http://proxy:9000',
      endpointSource: 'env',
      region: 'eu-west-2',
      envOverrides: ['AWS_ENDPOINT_URL_DYNAMODB', 'AWS_REGION'],
    });
    expect(list.envCredentials).toEqual(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']);
    expect(JSON.stringify(list)).not.toContain('AKIAX');
  });

  it("labels an endpoint from a profile's config by where it comes from, not as the environment", async () => {
    const config = join(dir, 'config-endpoints');
    await writeFile(
      config,
      [
        '[profile via-url]',
        'region = us-east-1',
        'endpoint_url = http://profile-proxy:7000',
        '',
        '[profile via-services]',
        'region = us-east-1',
        'services = local',
        '',
        '[services local]',
        'dynamodb =',
        '  endpoint_url = http://services-proxy:7001',
        '',
      ].join('\n'),
    );
    const list = await registry({ AWS_CONFIG_FILE: config }).list();
    expect(list.connections.find((c) => c.id === 'profile:via-url')).toMatchObject({
      endpoint: 'http://profile-proxy:7000',
      endpointSource: 'profile-endpoint_url',
      envOverrides: [],
    });
    expect(list.connections.find((c) => c.id === 'profile:via-services')).toMatchObject({
      endpoint: 'http://services-proxy:7001',
      endpointSource: 'profile-services',
      envOverrides: [],
    });

    const ignored = await registry({ AWS_CONFIG_FILE: config, AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' }).list();
    expect(ignored.connections.find((c) => c.id === 'profile:via-url')).toMatchObject({
      endpoint: null,
      endpointSource: 'aws-default',
      envOverrides: ['AWS_IGNORE_CONFIGURED_ENDPOINT_URLS'],
    });
  });

  it('allows writes on a profile only when its name is typed back', async () => {
    const r = registry();
    expect(await r.setWritable('profile:prod-mfa', true, 'prod')).toMatchObject({
      ok: false,
      error: { kind: 'validation', field: 'confirm' },
    });
    expect(await r.setWritable('profile:prod-mfa', true)).toMatchObject({ ok: false });
    expect(await r.setWritable('profile:prod-mfa', true, 'prod-mfa')).toMatchObject({ ok: true, value: { writable: true } });
    expect(await r.setWritable('profile:prod-mfa', false)).toMatchObject({ ok: true, value: { writable: false } });
  });

  it('adds, selects and removes local endpoints; cannot remove a profile', async () => {
    const r = registry();
    const added = await r.addEndpoint({ endpoint: 'http://localhost:8000' });
    if (!added.ok) throw new Error(added.error.message);
    expect(added.value).toMatchObject({ kind: 'endpoint', writable: true, region: 'us-east-1', endpoint: 'http://localhost:8000' });
    await r.select(added.value.id);
    expect((await r.list()).selectedId).toBe(added.value.id);
    const removed = await r.remove(added.value.id);
    expect(removed.ok && removed.value.selectedId).toBe(null);
    expect(await r.remove('profile:static-dev')).toMatchObject({ ok: false, error: { kind: 'validation' } });
  });

  it('resolves a target for the data services, refusing a stopped sandbox and a cyclic profile', async () => {
    expect(await registry({}, false).resolve('sandbox')).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
    const target = await registry().resolve('profile:auditor');
    expect(target.ok && target.value.target).toMatchObject({ region: 'ap-northeast-2', profile: 'auditor' });
    const cyclic = createConnectionRegistry({
      settings: createSettingsStore(dir),
      sandbox: sandbox(true),
      broker: createMfaBroker(() => undefined),
      env: { AWS_CONFIG_FILE: join(fixtures, 'config-cycle'), AWS_SHARED_CREDENTIALS_FILE: join(fixtures, 'none') },
      home: '/x',
    });
    expect(await cyclic.resolve('profile:a')).toMatchObject({ ok: false, error: { kind: 'credentials' } });
    expect(await registry().resolve('profile:nope')).toMatchObject({ ok: false, error: { kind: 'not-found' } });
  });
});

/** A loopback server that records request headers and answers like an empty DynamoDB Local. */
async function captureServer(): Promise<{ url: string; headers: IncomingHttpHeaders[]; close: () => Promise<void> }> {
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    headers.push(req.headers);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.0' });
      res.end('{"TableNames":[]}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    headers,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('endpoint connections: credentials follow the connection (#16 finding 1)', () => {
  const ENV_KEYS = {
    AWS_ACCESS_KEY_ID: 'AKIAENVKEY0123456789',
    AWS_SECRET_ACCESS_KEY: 'env-secret-value-xyz',
    AWS_SESSION_TOKEN: 'env-session-token-xyz',
  };

  it('an endpoint added in the app signs with dummy keys: the environment key and session token never reach it', async () => {
    const capture = await captureServer();
    try {
      const r = registry(ENV_KEYS);
      const added = await r.addEndpoint({ endpoint: capture.url });
      if (!added.ok) throw new Error(added.error.message);
      expect(added.value.credentials).toEqual({ source: 'dummy' });
      const resolved = await r.resolve(added.value.id);
      if (!resolved.ok) throw new Error(resolved.error.message);
      const client = createDynamoClient(resolved.value.target, { env: ENV_KEYS });
      await client.send(new ListTablesCommand({}));
      client.destroy();
      const sent = JSON.stringify(capture.headers);
      expect(capture.headers).toHaveLength(1);
      expect(sent).not.toContain(ENV_KEYS.AWS_ACCESS_KEY_ID);
      expect(sent).not.toContain(ENV_KEYS.AWS_SESSION_TOKEN);
      expect(capture.headers[0]?.['x-amz-security-token']).toBeUndefined();
      expect(capture.headers[0]?.authorization).toContain('Credential=locksmith/');
    } finally {
      await capture.close();
    }
  });

  it('signs with the environment keys only when that source is chosen, and shows it by name', async () => {
    const capture = await captureServer();
    try {
      const r = registry(ENV_KEYS);
      const added = await r.addEndpoint({ endpoint: capture.url, credentials: { source: 'env' } });
      if (!added.ok) throw new Error(added.error.message);
      expect(added.value).toMatchObject({
        credentials: { source: 'env' },
        envOverrides: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'],
      });
      expect(JSON.stringify(added.value)).not.toContain(ENV_KEYS.AWS_ACCESS_KEY_ID);
      const resolved = await r.resolve(added.value.id);
      if (!resolved.ok) throw new Error(resolved.error.message);
      const client = createDynamoClient(resolved.value.target, { env: {} });
      await client.send(new ListTablesCommand({}));
      client.destroy();
      expect(capture.headers[0]?.authorization).toContain(`Credential=${ENV_KEYS.AWS_ACCESS_KEY_ID}/`);
    } finally {
      await capture.close();
    }
  });

  it.each([undefined, { source: 'dummy' as const }, { source: 'env' as const }])(
    'refuses a real AWS endpoint signed with %j: only a profile reaches AWS',
    async (credentials) => {
      const r = registry(ENV_KEYS);
      for (const endpoint of [
        'https://dynamodb.us-east-1.amazonaws.com',
        'https://dynamodb.cn-north-1.amazonaws.com.cn',
        'https://dynamodb.us-east-1.api.aws',
      ]) {
        const added = await r.addEndpoint({ endpoint, label: 'localhost:8000', ...(credentials ? { credentials } : {}) });
        expect(added).toMatchObject({ ok: false, error: { kind: 'credentials' } });
      }
      expect((await r.list()).connections.filter((c) => c.kind === 'endpoint')).toEqual([]);
    },
  );

  it.each([{ source: 'env' as const }, { source: 'profile' as const, profile: 'static-dev' }])(
    'the page cannot point %j at a host elsewhere: real keys only reach AWS or this machine',
    async (credentials) => {
      const r = registry(ENV_KEYS);
      for (const endpoint of [
        'http://10.1.2.3:8000',
        'https://attacker.example.com',
        'http://127.0.0.1.nip.io:8000',
        'http://[::2]:8000',
      ]) {
        const added = await r.addEndpoint({ endpoint, credentials });
        expect(added).toMatchObject({
          ok: false,
          error: { kind: 'credentials', message: expect.stringContaining('neither AWS nor this machine') },
        });
      }
      expect((await r.list()).connections.filter((c) => c.kind === 'endpoint')).toEqual([]);
      // The same keys on this machine (a proxy, LocalStack) and dummy keys elsewhere stay allowed.
      expect(await r.addEndpoint({ endpoint: 'http://127.0.0.1:4566', credentials })).toMatchObject({ ok: true, value: { credentials } });
      expect(await r.addEndpoint({ endpoint: 'http://10.1.2.3:8000' })).toMatchObject({
        ok: true,
        value: { credentials: { source: 'dummy' } },
      });
    },
  );

  it('an endpoint typed on the command line beside the keys may sign elsewhere for that run only; one saved by the page is refused, not used', async () => {
    const r = registry(ENV_KEYS);
    const typed = await r.addEndpoint({ endpoint: 'http://10.1.2.3:8000', credentials: { source: 'env' } }, 'command-line');
    if (!typed.ok) throw new Error(typed.error.message);
    expect(typed.value).toMatchObject({ credentials: { source: 'env' }, trust: 'remote', writable: false });
    expect((await r.resolve(typed.value.id)).ok).toBe(true);
    // A later launch (a shell with other, real keys) does not inherit the trust until the endpoint is typed again.
    const later = registry(ENV_KEYS);
    expect(await later.resolve(typed.value.id)).toMatchObject({ ok: false, error: { kind: 'credentials' } });
    later.typedOnCommandLine(typed.value.id);
    expect((await later.resolve(typed.value.id)).ok).toBe(true);
    // A settings file written by an older version, when the page could save this: shown as an error and never resolved.
    const settings = createSettingsStore(dir);
    await settings.update((s) => ({
      ...s,
      endpoints: [
        ...s.endpoints,
        {
          id: 'endpoint:old1',
          endpoint: 'http://10.9.9.9:8000',
          region: 'us-east-1',
          label: 'old',
          credentials: { source: 'profile', profile: 'static-dev' },
        },
      ],
    }));
    const reopened = registry(ENV_KEYS);
    const listed = (await reopened.list()).connections.find((c) => c.id === 'endpoint:old1');
    expect(listed).toMatchObject({
      state: 'error',
      error: { kind: 'credentials', message: expect.stringContaining('neither AWS nor this machine') },
    });
    expect(await reopened.resolve('endpoint:old1')).toMatchObject({ ok: false, error: { kind: 'credentials' } });
    expect((await reopened.resolve(typed.value.id)).ok).toBe(false);
  });

  it('a real AWS endpoint through a profile is read-only until its host is typed back', async () => {
    const r = registry();
    const added = await r.addEndpoint({
      endpoint: 'https://dynamodb.us-east-1.amazonaws.com',
      credentials: { source: 'profile', profile: 'static-dev' },
    });
    if (!added.ok) throw new Error(added.error.message);
    expect(added.value).toMatchObject({
      writable: false,
      trust: 'aws',
      writeConfirm: 'dynamodb.us-east-1.amazonaws.com',
      credentials: { source: 'profile', profile: 'static-dev' },
    });
    expect(await r.setWritable(added.value.id, true)).toMatchObject({ ok: false, error: { field: 'confirm' } });
    expect(await r.setWritable(added.value.id, true, 'dynamodb.us-east-1.amazonaws.com')).toMatchObject({
      ok: true,
      value: { writable: true },
    });
  });

  it('a non-loopback endpoint is read-only until its host is typed; a label naming another address is refused', async () => {
    const r = registry();
    expect(await r.addEndpoint({ endpoint: 'http://10.1.2.3:8000', label: 'localhost:8000' })).toMatchObject({
      ok: false,
      error: { field: 'label' },
    });
    const added = await r.addEndpoint({ endpoint: 'http://10.1.2.3:8000', label: 'team db' });
    if (!added.ok) throw new Error(added.error.message);
    expect(added.value).toMatchObject({ writable: false, trust: 'remote', writeConfirm: '10.1.2.3' });
    expect(await r.setWritable(added.value.id, true, 'localhost')).toMatchObject({
      ok: false,
      error: { kind: 'validation', field: 'confirm' },
    });
    expect(await r.setWritable(added.value.id, true, '10.1.2.3')).toMatchObject({ ok: true, value: { writable: true } });
    const local = await r.addEndpoint({ endpoint: 'http://127.0.0.1:8000', label: '127.0.0.1:8000' });
    expect(local).toMatchObject({ ok: true, value: { writable: true, trust: 'loopback' } });
  });

  it('an endpoint signing with the environment says so when the environment has no keys', async () => {
    const r = registry({});
    const added = await r.addEndpoint({ endpoint: 'http://127.0.0.1:9', credentials: { source: 'env' } });
    if (!added.ok) throw new Error(added.error.message);
    const resolved = await r.resolve(added.value.id);
    if (!resolved.ok) throw new Error(resolved.error.message);
    const credentials = resolved.value.target.credentials;
    expect(typeof credentials).toBe('function');
    if (typeof credentials === 'function')
      await expect(credentials()).rejects.toThrow(/AWS_ACCESS_KEY_ID \/ AWS_SECRET_ACCESS_KEY are not set/);
  });
});
