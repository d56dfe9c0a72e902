/** A profile's sign-in ends on a silent STS, re-reads rotated keys, and never shows a credential_process's command or output. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '../dynamo/client';
import { isRetryable, mayHaveBeenApplied, toAppError } from '../dynamo/errors';
import { join } from 'node:path';
import { credentialError, signInNetworkError, SignInTimeoutError, withDeadline } from './credentials';
import { createConnectionRegistry, type ConnectionRegistry } from './registry';
import { createSettingsStore } from './settings-store';
import { createMfaBroker } from './mfa-broker';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-creds-'));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

function registry(
  files: { config: string; credentials: string },
  limits?: { connectMs: number; idleMs: number; deadlineMs: number },
): ConnectionRegistry {
  return createConnectionRegistry({
    settings: createSettingsStore(dir),
    sandbox: {
      state: () => 'stopped',
      endpoint: () => undefined,
      error: () => undefined,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
    },
    broker: createMfaBroker(() => undefined),
    env: { AWS_CONFIG_FILE: files.config, AWS_SHARED_CREDENTIALS_FILE: files.credentials },
    home: dir,
    ...(limits ? { signInLimits: limits } : {}),
  });
}

/** The profile's credential provider, as the DynamoDB client calls it. */
async function credentialsOf(reg: ConnectionRegistry, id: string): Promise<() => Promise<{ accessKeyId: string }>> {
  const resolved = await reg.resolve(id);
  if (!resolved.ok) throw new Error(resolved.error.message);
  const credentials = resolved.value.target.credentials;
  if (typeof credentials !== 'function') throw new Error('a profile signs through a provider');
  return credentials as () => Promise<{ accessKeyId: string }>;
}

describe('signing in through a silent STS', () => {
  let server: Server;
  const sockets: Socket[] = [];
  beforeEach(async () => {
    // Accepts connections and never answers: a hung proxy.
    server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    vi.stubEnv('AWS_ENDPOINT_URL_STS', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('fails as unreachable within the bound, and the next call is a new attempt', async () => {
    const config = join(dir, 'config');
    const credentials = join(dir, 'credentials');
    await writeFile(
      config,
      '[profile role]\nregion = eu-west-1\nrole_arn = arn:aws:iam::123456789012:role/x\nsource_profile = src\n[profile src]\nregion = eu-west-1\n',
    );
    await writeFile(credentials, '[src]\naws_access_key_id = AKIASOURCESOURCE0001\naws_secret_access_key = sourcesecretsourcesecret\n');
    const reg = registry({ config, credentials }, { connectMs: 200, idleMs: 200, deadlineMs: 1_000 });
    const provider = await credentialsOf(reg, 'profile:role');
    const first = await provider().then(
      () => undefined,
      (error: unknown) => error,
    );
    const mapped = credentialError(first, 'role');
    expect(['unreachable', 'credentials']).toContain(mapped.kind);
    expect(mapped.message).toMatch(/profile role/);
    expect(mapped.message).not.toMatch(/DynamoDB/);
    const connectionsAfterFirst = sockets.length;
    expect(connectionsAfterFirst).toBeGreaterThan(0);
    await expect(provider()).rejects.toThrow();
    // Not the first attempt's promise again: STS was asked anew.
    expect(sockets.length).toBeGreaterThan(connectionsAfterFirst);
  }, 15_000);
});

describe('signing in through an STS nothing listens on', () => {
  it('says the sign-in could not reach STS or SSO, not DynamoDB', async () => {
    // A port that was just free: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    vi.stubEnv('AWS_ENDPOINT_URL_STS', `http://127.0.0.1:${port}`);
    const config = join(dir, 'config');
    const credentials = join(dir, 'credentials');
    await writeFile(
      config,
      '[profile role]\nregion = eu-west-1\nrole_arn = arn:aws:iam::123456789012:role/x\nsource_profile = src\n[profile src]\nregion = eu-west-1\n',
    );
    await writeFile(credentials, '[src]\naws_access_key_id = AKIASOURCESOURCE0001\naws_secret_access_key = sourcesecretsourcesecret\n');
    const provider = await credentialsOf(registry({ config, credentials }), 'profile:role');
    const failure = await provider().then(
      () => undefined,
      (error: unknown) => error,
    );
    const mapped = credentialError(failure, 'role');
    expect(mapped.kind).toBe('unreachable');
    expect(mapped.message).toBe('signing in with profile role: cannot reach STS or SSO (ECONNREFUSED)');
    expect(mapped.fix).toMatch(/network or proxy/);
  });

  it('a reset while signing in is retried (a blip mid-scan), and never read as a write that may have been applied', () => {
    const reset = signInNetworkError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'profile dev');
    expect(isRetryable(reset)).toBe(true);
    expect(mayHaveBeenApplied(reset)).toBe(false);
    expect(toAppError(reset).message).toBe('signing in with profile dev: cannot reach STS or SSO (ECONNRESET)');
  });
});

/** A DynamoDB stand-in that answers ListTables and records the key id each request was signed with. */
async function captureServer(): Promise<{ url: string; keyIds: string[]; close: () => Promise<void> }> {
  const keyIds: string[] = [];
  const server = createHttpServer((req, res) => {
    keyIds.push(/Credential=([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? '(unsigned)');
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.0' });
      res.end('{"TableNames":[]}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keyIds,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('rotated keys', () => {
  it('are read again once the credentials file changed', async () => {
    const config = join(dir, 'config');
    const credentials = join(dir, 'credentials');
    await writeFile(config, '[profile work]\nregion = eu-west-1\n');
    await writeFile(credentials, '[work]\naws_access_key_id = AKIAOLDOLDOLDOLD0001\naws_secret_access_key = oldsecretoldsecret\n');
    const reg = registry({ config, credentials });
    const capture = await captureServer();
    const resolved = await reg.resolve('profile:work');
    if (!resolved.ok) throw new Error(resolved.error.message);
    // One client for both calls, as the client pool keeps it.
    const client = createDynamoClient(resolved.value.target, { env: { AWS_ENDPOINT_URL_DYNAMODB: capture.url } });
    try {
      await client.send(new ListTablesCommand({}));
      // saml2aws, gimme-aws-creds or a manual rotation rewrites the file while the app runs (a longer file: the size changes too).
      await writeFile(
        credentials,
        '[work]\naws_access_key_id = AKIANEWNEWNEWNEW0002\naws_secret_access_key = newsecretnewsecretnewsecret\n',
      );
      await client.send(new ListTablesCommand({}));
    } finally {
      client.destroy();
      await capture.close();
    }
    expect(capture.keyIds).toEqual(['AKIAOLDOLDOLDOLD0001', 'AKIANEWNEWNEWNEW0002']);
  });

  it('are dropped when the service rejects them, though the files did not change', async () => {
    const config = join(dir, 'config');
    const script = join(dir, 'creds.sh');
    const counter = join(dir, 'count');
    // Each run hands out another key id, without Expiration: only a new resolution can tell.
    await writeFile(
      script,
      `#!/bin/sh\nn=$(cat '${counter}' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '${counter}'\necho '{"Version":1,"AccessKeyId":"AKIAPROCESSKEY000'$n'","SecretAccessKey":"processsecret"}'\n`,
    );
    await chmod(script, 0o755);
    await writeFile(config, `[profile proc]\nregion = eu-west-1\ncredential_process = ${script}\n`);
    const reg = registry({ config, credentials: join(dir, 'none') });
    const provider = await credentialsOf(reg, 'profile:proc');
    expect((await provider()).accessKeyId).toBe('AKIAPROCESSKEY0001');
    expect((await provider()).accessKeyId).toBe('AKIAPROCESSKEY0001');
    reg.markState('profile:proc', 'error', {
      kind: 'credentials',
      message: 'credentials rejected or unavailable: The security token included in the request is expired',
    });
    expect((await provider()).accessKeyId).toBe('AKIAPROCESSKEY0002');
  });
});

describe('a failing credential_process', () => {
  it('shows neither its command line nor its stderr', async () => {
    const marker = 'hvs.MARKERTOKEN0123456789';
    const config = join(dir, 'config');
    await writeFile(
      config,
      `[profile vault]\nregion = eu-west-1\ncredential_process = sh -c 'echo "vault: login failed for token ${marker} (403)" >&2; exit 3' x --vault-token ${marker}\n`,
    );
    const reg = registry({ config, credentials: join(dir, 'none') });
    const failure = await (
      await credentialsOf(reg, 'profile:vault')
    )().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(String((failure as Error).message)).toContain(marker);
    const mapped = credentialError(failure, 'vault');
    // The path a bridge call takes: the DynamoDB client asks the provider, the request context maps what it throws.
    const resolved = await reg.resolve('profile:vault');
    if (!resolved.ok) throw new Error(resolved.error.message);
    const client = createDynamoClient(resolved.value.target, { env: { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9' } });
    const thrown = await client.send(new ListTablesCommand({})).then(
      () => undefined,
      (error: unknown) => error,
    );
    client.destroy();
    const viaClient = toAppError(thrown, { endpoint: 'http://127.0.0.1:9', profile: 'vault' });
    expect(viaClient.kind).toBe('credentials');
    reg.markState('profile:vault', 'error', viaClient);
    const everything = JSON.stringify([mapped, viaClient, await reg.list(), await reg.resolve('profile:vault')]);
    expect(everything).not.toContain(marker);
    expect(everything).not.toContain('vault: login failed');
    expect(mapped).toMatchObject({ kind: 'credentials', message: expect.stringMatching(/credential_process of profile vault failed/) });
  });
});

describe('the sign-in deadline', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends an attempt that outlives it', async () => {
    vi.useFakeTimers();
    const outcome = withDeadline(1_000, 'too slow', () => new Promise<string>(() => undefined)).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_001);
    expect(await outcome).toBeInstanceOf(SignInTimeoutError);
  });

  it('does not count the time spent waiting for the MFA code', async () => {
    vi.useFakeTimers();
    let typed: (code: string) => void = () => undefined;
    const code = new Promise<string>((resolve) => (typed = resolve));
    const outcome = withDeadline(1_000, 'too slow', async (pause) => `signed in with ${await pause(code)}`);
    await vi.advanceTimersByTimeAsync(600);
    // The user takes a minute to find the device; the broker's own timeout bounds this wait.
    await vi.advanceTimersByTimeAsync(60_000);
    typed('123456');
    expect(await outcome).toBe('signed in with 123456');
  });
});
