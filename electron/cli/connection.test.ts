import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toAppError } from '../services/dynamo/errors';
import { CliError } from './command';
import { connectionRequest, openConnection } from './connection';

describe('connectionRequest', () => {
  it('takes --endpoint with the default region for local endpoints', () => {
    expect(connectionRequest({ endpoint: 'http://localhost:8000' }, {})).toEqual({
      endpoint: 'http://localhost:8000',
      endpointSource: 'flag',
      region: 'us-east-1',
    });
  });

  it('lets --region, then AWS_REGION, then AWS_DEFAULT_REGION choose the region', () => {
    expect(connectionRequest({ endpoint: 'http://h:1', region: 'eu-west-1' }, { AWS_REGION: 'x' }).region).toBe('eu-west-1');
    expect(connectionRequest({ endpoint: 'http://h:1' }, { AWS_REGION: 'ap-south-1', AWS_DEFAULT_REGION: 'y' }).region).toBe('ap-south-1');
    expect(connectionRequest({ endpoint: 'http://h:1' }, { AWS_DEFAULT_REGION: 'sa-east-1' }).region).toBe('sa-east-1');
  });

  it('takes --profile over AWS_PROFILE, and AWS_PROFILE when no flag is given', () => {
    expect(connectionRequest({ profile: 'prod' }, { AWS_PROFILE: 'dev' })).toEqual({ profile: 'prod' });
    expect(connectionRequest({}, { AWS_PROFILE: 'dev', AWS_REGION: 'eu-west-1' })).toEqual({ profile: 'dev', region: 'eu-west-1' });
  });

  it('treats AWS_ENDPOINT_URL_DYNAMODB as the endpoint when no flag says otherwise', () => {
    expect(connectionRequest({}, { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9000' })).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      endpointSource: 'AWS_ENDPOINT_URL_DYNAMODB',
      region: 'us-east-1',
    });
    expect(connectionRequest({ profile: 'p' }, { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9000' })).toEqual({ profile: 'p' });
  });

  it.each([
    [{ endpoint: 'http://h:1', profile: 'p' }, /either --endpoint .* or --profile/],
    [{ endpoint: 'localhost:8000' }, /must be http/],
    [{ endpoint: 'not a url' }, /not a URL/],
  ])('rejects %j', (values, message) => {
    expect(() => connectionRequest(values, {})).toThrow(CliError);
    expect(() => connectionRequest(values, {})).toThrow(message);
  });
});

describe('openConnection', () => {
  it("puts a profile's configured endpoint into the error context", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'locksmith-cli-connection-'));
    try {
      const config = join(dir, 'config');
      await writeFile(config, '[profile proxied]\nregion = eu-west-1\nendpoint_url = http://127.0.0.1:9\n');
      const env = { AWS_CONFIG_FILE: config, AWS_SHARED_CREDENTIALS_FILE: join(dir, 'none') };
      const io = { stdout: () => undefined, stderr: () => undefined, env, interactive: false, signal: new AbortController().signal };
      const connection = await openConnection({ profile: 'proxied', region: 'eu-west-1' }, io);
      try {
        expect(connection.errorContext).toEqual({ endpoint: 'http://127.0.0.1:9', profile: 'proxied' });
        expect(connection.local).toBe(true);
      } finally {
        connection.client.destroy();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('signing in with --profile through a silent STS', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('fails as unreachable within the bound instead of hanging the command', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'locksmith-cli-sts-'));
    const sockets: Socket[] = [];
    // Accepts connections and never answers: a hung proxy.
    const server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const config = join(dir, 'config');
      const credentials = join(dir, 'credentials');
      await writeFile(
        config,
        '[profile role]\nregion = eu-west-1\nrole_arn = arn:aws:iam::123456789012:role/x\nsource_profile = src\n[profile src]\nregion = eu-west-1\n',
      );
      await writeFile(credentials, '[src]\naws_access_key_id = AKIASOURCESOURCE0001\naws_secret_access_key = sourcesecretsourcesecret\n');
      // The SDK's providers read these from the process environment.
      vi.stubEnv('AWS_CONFIG_FILE', config);
      vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', credentials);
      vi.stubEnv('AWS_ENDPOINT_URL_STS', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const io = {
        stdout: () => undefined,
        stderr: () => undefined,
        env: { AWS_CONFIG_FILE: config, AWS_SHARED_CREDENTIALS_FILE: credentials },
        interactive: false,
        signal: new AbortController().signal,
      };
      const connection = await openConnection({ profile: 'role', region: 'eu-west-1' }, io, {
        connectMs: 200,
        idleMs: 200,
        deadlineMs: 1_000,
      });
      try {
        const provider = connection.target.credentials;
        if (typeof provider !== 'function') throw new Error('a profile signs through a provider');
        const failure = await provider().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(sockets.length).toBeGreaterThan(0);
        const mapped = toAppError(failure, connection.errorContext);
        expect(mapped.kind).toBe('unreachable');
        expect(mapped.message).toMatch(/profile role/);
      } finally {
        connection.client.destroy();
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    }
  }, 15_000);
});
