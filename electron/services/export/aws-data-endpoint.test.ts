/**
 * A profile connection's S3 and Athena requests go to AWS as its own profile configures it: never to
 * where the environment or another profile points. A capture server on this machine, configured as
 * those endpoints, must receive nothing (it would otherwise see the profile's access key id and token).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../../shared/conventions/presets';
import { cleanEnv, runCli } from '../../cli/testing-cli';
import { auditOnAthena } from './athena-run';
import { awsDataEndpoint } from './aws-data-endpoint';
import type { OpenedExport } from './read-export';

let server: Server;
let capture = '';
const received: IncomingMessage[] = [];
let dir = '';

/** Profile `prod` with static keys; `[default]` and `[profile other]` point at the capture server. */
async function writeProfiles(extra: { prodConfig?: string } = {}): Promise<{ config: string; credentials: string }> {
  const config = join(dir, `config-${Math.random().toString(36).slice(2)}`);
  const credentials = join(dir, `credentials-${Math.random().toString(36).slice(2)}`);
  await writeFile(
    config,
    `[default]\nregion = us-east-1\nendpoint_url = ${capture}\n\n[profile prod]\nregion = us-east-1\n${extra.prodConfig ?? ''}\n[profile other]\nendpoint_url = ${capture}\n`,
  );
  await writeFile(
    credentials,
    `[prod]\naws_access_key_id = AKIAPRODSECRETKEY01\naws_secret_access_key = prodsecret\naws_session_token = prodtoken\n`,
  );
  return { config, credentials };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-endpoints-'));
  server = createServer((req, res) => {
    received.push(req);
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  capture = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

afterEach(() => {
  vi.unstubAllEnvs();
  received.length = 0;
});

describe('awsDataEndpoint', () => {
  it('refuses a non-AWS endpoint from the environment for a profile or for environment keys', async () => {
    const files = await writeProfiles();
    const env = { AWS_CONFIG_FILE: files.config, AWS_SHARED_CREDENTIALS_FILE: files.credentials };
    expect(awsDataEndpoint('s3', 'prod', { ...env, AWS_ENDPOINT_URL_S3: capture })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('AWS_ENDPOINT_URL_S3') },
    });
    expect(awsDataEndpoint('s3', undefined, { ...env, AWS_ENDPOINT_URL: capture })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('AWS_ENDPOINT_URL') },
    });
    expect(awsDataEndpoint('athena', 'prod', { ...env, AWS_ENDPOINT_URL_ATHENA: capture })).toMatchObject({ ok: false });
  });

  it('ignores the [default] profile\u2019s endpoint for profile prod and for environment keys', async () => {
    const files = await writeProfiles();
    const env = { AWS_CONFIG_FILE: files.config, AWS_SHARED_CREDENTIALS_FILE: files.credentials };
    expect(awsDataEndpoint('s3', 'prod', env)).toEqual({ ok: true, value: undefined });
    expect(awsDataEndpoint('s3', undefined, env)).toEqual({ ok: true, value: undefined });
  });

  it('follows the connection\u2019s own profile to an AWS endpoint, refuses it to anything else', async () => {
    const aws = await writeProfiles({
      prodConfig: 'services = prod-s3\n[services prod-s3]\ns3 =\n  endpoint_url = https://s3.eu-west-1.amazonaws.com\n',
    });
    expect(awsDataEndpoint('s3', 'prod', { AWS_CONFIG_FILE: aws.config })).toEqual({
      ok: true,
      value: 'https://s3.eu-west-1.amazonaws.com',
    });
    const local = await writeProfiles({ prodConfig: `endpoint_url = ${capture}\n` });
    expect(awsDataEndpoint('s3', 'prod', { AWS_CONFIG_FILE: local.config })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('profile prod') },
    });
    expect(awsDataEndpoint('s3', 'prod', { AWS_CONFIG_FILE: local.config, AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' })).toEqual({
      ok: true,
      value: undefined,
    });
  });
});

describe('audit --export s3://… --profile prod (bin/locksmith)', () => {
  it.each([
    ['AWS_ENDPOINT_URL_S3', (files: { config: string; credentials: string }) => ({ AWS_ENDPOINT_URL_S3: capture, ...paths(files) })],
    ['AWS_ENDPOINT_URL', (files: { config: string; credentials: string }) => ({ AWS_ENDPOINT_URL: capture, ...paths(files) })],
    ['the [default] profile\u2019s endpoint_url', (files: { config: string; credentials: string }) => paths(files)],
  ])(
    '%s set to a capture server: it receives nothing',
    async (_name, envOf) => {
      const files = await writeProfiles();
      const data = await mkdtemp(join(dir, 'data-'));
      const run = await runCli(
        ['audit', '--export', 's3://prod-exports/table/', '--profile', 'prod', '--table', 'accounts', '--json'],
        cleanEnv({ ...envOf(files), LOCKSMITH_DATA_DIR: data }),
      );
      expect(run.code).toBe(2);
      expect(received.map((r) => `${r.method} ${r.url} ${r.headers.authorization ?? ''}`)).toEqual([]);
    },
    60_000,
  );

  it('environment keys with the [default] profile pointing at the capture server: it receives nothing', async () => {
    const files = await writeProfiles();
    const data = await mkdtemp(join(dir, 'data-'));
    const env = cleanEnv({
      ...paths(files),
      AWS_ACCESS_KEY_ID: 'AKIAENVKEY0000000001',
      AWS_SECRET_ACCESS_KEY: 'envsecret',
      LOCKSMITH_DATA_DIR: data,
    });
    const run = await runCli(['audit', '--export', 's3://prod-exports/table/', '--json'], env);
    expect(run.code).toBe(2);
    expect(received).toEqual([]);
  }, 60_000);
});

describe('the Athena engine', () => {
  it.each([
    ['AWS_ENDPOINT_URL_ATHENA', { AWS_ENDPOINT_URL_ATHENA: 'capture' }],
    ['the [default] profile\u2019s endpoint_url', {}],
  ])(
    '%s set to a capture server: it receives nothing',
    async (_name, extra) => {
      const files = await writeProfiles();
      // The SDK reads the process environment: set it there, as a user's shell would.
      vi.stubEnv('AWS_CONFIG_FILE', files.config);
      vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', files.credentials);
      for (const [name, value] of Object.entries(extra)) vi.stubEnv(name, value === 'capture' ? capture : value);
      const full = {
        dir: join(dir, 'AWSDynamoDB', '01234567890123-abcdefgh'),
        type: 'FULL_EXPORT',
        files: [],
        summary: {
          itemCount: 1,
          exportArn: 'arn:aws:dynamodb:us-east-1:123456789012:table/accounts/export/01234567890123-abcdefgh',
          exportTime: '2026-01-01T00:00:00Z',
        },
      } as unknown as OpenedExport;
      await expect(
        auditOnAthena({
          region: 'us-east-1',
          profile: 'prod',
          env: process.env,
          outputLocation: 's3://results/q/',
          convention: presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq),
          table: 'accounts',
          full,
          dataLocation: 's3://prod-exports/table/AWSDynamoDB/01234567890123-abcdefgh/data/',
        }),
      ).rejects.toThrow();
      expect(received).toEqual([]);
    },
    30_000,
  );
});

function paths(files: { config: string; credentials: string }): NodeJS.ProcessEnv {
  return { AWS_CONFIG_FILE: files.config, AWS_SHARED_CREDENTIALS_FILE: files.credentials, AWS_REGION: 'us-east-1' };
}
