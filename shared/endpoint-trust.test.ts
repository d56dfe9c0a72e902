import { describe, expect, it } from 'vitest';
import { endpointHost, endpointTrust, writableByDefault } from './endpoint-trust';

describe('endpointTrust', () => {
  it.each([
    ['http://localhost:8000', 'loopback'],
    ['http://127.0.0.1:9555', 'loopback'],
    ['http://127.8.9.10:1', 'loopback'],
    ['http://[::1]:8000', 'loopback'],
    ['http://127.0.0.1.nip.io:8000', 'remote'],
    ['http://localhost.evil.example:8000', 'remote'],
    ['http://10.0.0.5:8000', 'remote'],
    ['http://0.0.0.0:8000', 'remote'],
    ['https://dynamodb.us-east-1.amazonaws.com', 'aws'],
    ['https://DYNAMODB.US-EAST-1.AMAZONAWS.COM.', 'aws'],
    ['https://dynamodb.cn-north-1.amazonaws.com.cn', 'aws'],
    ['https://dynamodb.us-east-1.api.aws', 'aws'],
    ['https://amazonaws.com.evil.example', 'remote'],
    ['not a url', 'remote'],
  ])('%s is %s', (url, trust) => {
    expect(endpointTrust(url)).toBe(trust);
  });

  it('names the host a person types to allow writes', () => {
    expect(endpointHost('http://db.internal:8000/x')).toBe('db.internal');
    expect(endpointHost('http://[::1]:8000')).toBe('::1');
  });
});

describe('writableByDefault (the app and the CLI alike)', () => {
  it.each([
    [{ endpoint: 'http://localhost:8000' }, true],
    [{ endpoint: 'http://127.0.0.1:8000' }, true],
    [{ endpoint: 'http://[::1]:8000' }, true],
    [{ endpoint: 'http://10.0.0.5:8000' }, false],
    [{ endpoint: 'http://127.0.0.1.nip.io:8000' }, false],
    [{ endpoint: 'https://dynamodb.us-east-1.amazonaws.com' }, false],
    [{ profile: 'prod' }, false],
    [{ profile: 'prod', endpoint: 'http://localhost:8000' }, false],
    [{}, false],
  ])('%j → %s', (connection, writable) => {
    expect(writableByDefault(connection)).toBe(writable);
  });
});
