import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DUMMY_CREDENTIALS, clientConfig, defaultSegments, effectiveEndpoint, endpointCredentials } from './client';

const local = { label: 'local', endpoint: 'http://localhost:8000', region: 'us-east-1' };
const aws = { label: 'aws', region: 'eu-west-1' };

// Shared config files written for these tests; every env below points at them, never at ~/.aws.
const dir = mkdtempSync(join(tmpdir(), 'locksmith-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CONFIG = join(dir, 'config');
const CREDENTIALS = join(dir, 'credentials');
writeFileSync(
  CONFIG,
  [
    '[default]',
    'endpoint_url = http://default-endpoint:1',
    '[profile plain]',
    'region = eu-west-1',
    '[profile local-dev]',
    'endpoint_url = http://localhost:8000',
    '[profile with-services]',
    'services = local-ddb',
    'endpoint_url = http://global:1',
    '[services local-ddb]',
    'dynamodb =',
    '  endpoint_url = http://ddb-only:8000',
    's3 =',
    '  endpoint_url = http://s3-only:9000',
    '[profile s3-services]',
    'services = s3-only',
    '[services s3-only]',
    's3 =',
    '  endpoint_url = http://s3-only:9000',
    '[profile ignoring]',
    'endpoint_url = http://ignored:1',
    'ignore_configured_endpoint_urls = true',
    '',
  ].join('\n'),
);
writeFileSync(
  CREDENTIALS,
  '[creds-only]\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key = x\nendpoint_url = http://from-credentials:1\n',
);
const files = { AWS_CONFIG_FILE: CONFIG, AWS_SHARED_CREDENTIALS_FILE: CREDENTIALS };
const none = { AWS_CONFIG_FILE: join(dir, 'missing'), AWS_SHARED_CREDENTIALS_FILE: join(dir, 'missing') };
const profile = (name: string) => ({ label: `profile ${name}`, region: 'eu-west-1', profile: name });

describe('effectiveEndpoint', () => {
  it('prefers the target endpoint over environment overrides', () => {
    expect(effectiveEndpoint(local, { AWS_ENDPOINT_URL_DYNAMODB: 'http://other:1' })).toEqual({
      url: 'http://localhost:8000',
      source: 'target',
    });
  });

  it('shows the environment redirecting an AWS target, service-specific first', () => {
    expect(effectiveEndpoint(aws, { AWS_ENDPOINT_URL: 'http://a:1', AWS_ENDPOINT_URL_DYNAMODB: 'http://d:1' })).toEqual({
      url: 'http://d:1',
      source: 'AWS_ENDPOINT_URL_DYNAMODB',
    });
    expect(effectiveEndpoint(aws, { AWS_ENDPOINT_URL: 'http://a:1' })).toEqual({ url: 'http://a:1', source: 'AWS_ENDPOINT_URL' });
    expect(effectiveEndpoint(aws, none)).toEqual({ source: 'aws' });
  });

  it('honours AWS_IGNORE_CONFIGURED_ENDPOINT_URLS', () => {
    expect(effectiveEndpoint(aws, { ...none, AWS_ENDPOINT_URL: 'http://a:1', AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' })).toEqual({
      source: 'aws',
    });
    expect(effectiveEndpoint(profile('ignoring'), { ...files, AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'false' })).toEqual({
      url: 'http://ignored:1',
      source: 'profile-endpoint_url',
    });
  });

  it.each([
    ['a profile endpoint_url', profile('local-dev'), {}, { url: 'http://localhost:8000', source: 'profile-endpoint_url' }],
    [
      'the dynamodb entry of the profile services section, over its endpoint_url',
      profile('with-services'),
      {},
      { url: 'http://ddb-only:8000', source: 'profile-services' },
    ],
    ['a services section without dynamodb: AWS', profile('s3-services'), {}, { source: 'aws' }],
    ['a profile without one: AWS, not the default profile endpoint', profile('plain'), {}, { source: 'aws' }],
    ['no profile: AWS_PROFILE', aws, { AWS_PROFILE: 'local-dev' }, { url: 'http://localhost:8000', source: 'profile-endpoint_url' }],
    ['no profile, no AWS_PROFILE: the default profile', aws, {}, { url: 'http://default-endpoint:1', source: 'profile-endpoint_url' }],
    [
      'endpoint_url in the credentials file',
      profile('creds-only'),
      {},
      { url: 'http://from-credentials:1', source: 'profile-endpoint_url' },
    ],
    ['ignore_configured_endpoint_urls in the profile', profile('ignoring'), {}, { source: 'aws' }],
    [
      'the environment before the config file',
      profile('local-dev'),
      { AWS_ENDPOINT_URL_DYNAMODB: 'http://env:1' },
      { url: 'http://env:1', source: 'AWS_ENDPOINT_URL_DYNAMODB' },
    ],
  ])('reads %s from the shared config', (_label, target, env, expected) => {
    expect(effectiveEndpoint(target, { ...files, ...env })).toEqual(expected);
  });

  it('sends requests where the label says: the configured endpoint explicitly, the SDK own lookup off', () => {
    const config = clientConfig({ ...profile('local-dev'), credentials: DUMMY_CREDENTIALS }, files);
    expect(config).toMatchObject({ endpoint: 'http://localhost:8000', ignoreConfiguredEndpointUrls: true, credentials: DUMMY_CREDENTIALS });
    // The SDK would read the default profile's endpoint_url for profile `plain`; AWS it is, as shown.
    const plain = clientConfig(profile('plain'), files);
    expect(plain.endpoint).toBeUndefined();
    expect(plain).toMatchObject({ profile: 'plain', ignoreConfiguredEndpointUrls: true });
  });
});

describe('endpoint credentials', () => {
  it('uses the environment keys when set (DynamoDB Local namespaces data by access key)', () => {
    expect(endpointCredentials({ AWS_ACCESS_KEY_ID: 'abc', AWS_SECRET_ACCESS_KEY: 'def' })).toEqual({
      accessKeyId: 'abc',
      secretAccessKey: 'def',
    });
  });

  it('falls back to dummy keys', () => {
    expect(endpointCredentials({})).toBe(DUMMY_CREDENTIALS);
    expect(endpointCredentials({ AWS_ACCESS_KEY_ID: 'abc' })).toBe(DUMMY_CREDENTIALS);
  });

  it('puts them, the endpoint and a single SDK attempt into the client config', () => {
    const config = clientConfig(local, {});
    expect(config).toMatchObject({
      endpoint: 'http://localhost:8000',
      region: 'us-east-1',
      credentials: DUMMY_CREDENTIALS,
      maxAttempts: 1,
    });
  });

  it('leaves AWS credentials to the SDK chain, or the profile', () => {
    expect(clientConfig(aws, none).credentials).toBeUndefined();
    expect(clientConfig({ ...aws, profile: 'dev' }, none)).toMatchObject({ profile: 'dev' });
  });
});

describe('defaultSegments', () => {
  it('is 4 on an endpoint, 8 on AWS', () => {
    expect(defaultSegments(local, {})).toBe(4);
    expect(defaultSegments(aws, none)).toBe(8);
  });
});
