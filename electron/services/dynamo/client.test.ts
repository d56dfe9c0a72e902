import { describe, expect, it } from 'vitest';
import { DUMMY_CREDENTIALS, clientConfig, defaultSegments, effectiveEndpoint, endpointCredentials } from './client';

const local = { label: 'local', endpoint: 'http://localhost:8000', region: 'us-east-1' };
const aws = { label: 'aws', region: 'eu-west-1' };

describe('effectiveEndpoint', () => {
  it('prefers the target endpoint over environment overrides', () => {
    expect(effectiveEndpoint(local, { AWS_ENDPOINT_URL_DYNAMODB: 'http://other:1' })).toEqual({ url: 'http://localhost:8000', source: 'target' });
  });

  it('shows the environment redirecting an AWS target, service-specific first', () => {
    expect(effectiveEndpoint(aws, { AWS_ENDPOINT_URL: 'http://a:1', AWS_ENDPOINT_URL_DYNAMODB: 'http://d:1' })).toEqual({ url: 'http://d:1', source: 'AWS_ENDPOINT_URL_DYNAMODB' });
    expect(effectiveEndpoint(aws, { AWS_ENDPOINT_URL: 'http://a:1' })).toEqual({ url: 'http://a:1', source: 'AWS_ENDPOINT_URL' });
    expect(effectiveEndpoint(aws, {})).toEqual({ source: 'aws' });
  });

  it('honours AWS_IGNORE_CONFIGURED_ENDPOINT_URLS', () => {
    expect(effectiveEndpoint(aws, { AWS_ENDPOINT_URL: 'http://a:1', AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' })).toEqual({ source: 'aws' });
  });
});

describe('endpoint credentials', () => {
  it('uses the environment keys when set (DynamoDB Local namespaces data by access key)', () => {
    expect(endpointCredentials({ AWS_ACCESS_KEY_ID: 'abc', AWS_SECRET_ACCESS_KEY: 'def' })).toEqual({ accessKeyId: 'abc', secretAccessKey: 'def' });
  });

  it('falls back to dummy keys', () => {
    expect(endpointCredentials({})).toBe(DUMMY_CREDENTIALS);
    expect(endpointCredentials({ AWS_ACCESS_KEY_ID: 'abc' })).toBe(DUMMY_CREDENTIALS);
  });

  it('puts them, the endpoint and a single SDK attempt into the client config', () => {
    const config = clientConfig(local, {});
    expect(config).toMatchObject({ endpoint: 'http://localhost:8000', region: 'us-east-1', credentials: DUMMY_CREDENTIALS, maxAttempts: 1 });
  });

  it('leaves AWS credentials to the SDK chain, or the profile', () => {
    expect(clientConfig(aws, {}).credentials).toBeUndefined();
    expect(clientConfig({ ...aws, profile: 'dev' }, {})).toMatchObject({ profile: 'dev' });
  });
});

describe('defaultSegments', () => {
  it('is 4 on an endpoint, 8 on AWS', () => {
    expect(defaultSegments(local, {})).toBe(4);
    expect(defaultSegments(aws, {})).toBe(8);
  });
});
