import { describe, expect, it } from 'vitest';
import { isRetryable, mayHaveBeenApplied, isThrottle, toAppError } from './errors';
import { knownSecrets, rememberCredentials, rememberEnvSecrets, removeKnownSecrets, scrubKnownSecrets, scrubSecrets } from './secrets';

/** An error shaped like the SDK's service exceptions. */
function sdkError(name: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode: 400 }, ...extra });
}

function netError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:8000`), { code });
}

describe('toAppError', () => {
  it.each([
    ['ECONNREFUSED', netError('ECONNREFUSED'), 'unreachable'],
    ['ENOTFOUND', netError('ENOTFOUND'), 'unreachable'],
    ['reset mid-request', netError('ECONNRESET'), 'unreachable'],
    ['missing table', sdkError('ResourceNotFoundException', 'Requested resource not found'), 'not-found'],
    ['throttle', sdkError('ProvisionedThroughputExceededException', 'rate exceeded'), 'throttled'],
    ['bad signature', sdkError('InvalidSignatureException', 'The request signature we calculated does not match'), 'credentials'],
    ['unknown key', sdkError('UnrecognizedClientException', 'The security token included in the request is invalid.'), 'credentials'],
    ['validation', sdkError('ValidationException', 'One or more parameter values were invalid'), 'validation'],
    ['other', sdkError('AccessDeniedException', 'User: arn:aws:iam::1:user/x is not authorized'), 'aws'],
    ['abort', Object.assign(new Error('The operation was aborted'), { name: 'AbortError' }), 'cancelled'],
    ['a string thrown', 'boom', 'aws'],
  ])('%s → %s', (_label, error, kind) => {
    expect(toAppError(error).kind).toBe(kind);
  });

  it('names the table for ResourceNotFoundException', () => {
    expect(toAppError(sdkError('ResourceNotFoundException', 'Requested resource not found'), { table: 'accounts' }).message).toBe(
      'table accounts not found',
    );
  });

  it('names the endpoint when it cannot be reached', () => {
    const error = toAppError(netError('ECONNREFUSED'), { endpoint: 'http://localhost:8000' });
    expect(error.message).toBe('cannot reach http://localhost:8000 (ECONNREFUSED)');
    expect(error.fix).toMatch(/DynamoDB Local/);
  });

  it('finds the network code in the cause chain', () => {
    const wrapped = Object.assign(new Error('fetch failed'), { cause: netError('ECONNREFUSED') });
    expect(toAppError(wrapped).kind).toBe('unreachable');
  });

  it.each([
    'The SSO session associated with this profile has expired or is otherwise invalid. To refresh this SSO session run aws sso login with the corresponding profile.',
    "Token is expired. To refresh this SSO session run 'aws sso login' with the corresponding profile.",
    'The SSO session token associated with profile=dev was not found or is invalid. To refresh this SSO session run aws sso login with the corresponding profile.',
  ])('maps an expired SSO session to sso-expired with the login command: %s', (message) => {
    const error = toAppError(sdkError('CredentialsProviderError', message), { profile: 'dev' });
    expect(error).toEqual({
      kind: 'sso-expired',
      message: 'the SSO session of profile dev has expired',
      fix: 'aws sso login --profile dev',
    });
  });

  it('never repeats secrets from the message', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const error = toAppError(sdkError('UnrecognizedClientException', `bad key AKIAIOSFODNN7EXAMPLE with secret ${secret}`), {
      secrets: [secret],
    });
    expect(error.message).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(error.message).not.toContain(secret);
  });
});

describe('scrubSecrets', () => {
  it.each([
    ['aws_secret_access_key=abcd1234efgh', 'aws_secret_access_key=***'],
    ['session_token: "FQoGZXIvYXdzE"', 'session_token: "***"'],
    ['key ASIAABCDEFGHIJKLMNOP used', 'key *** used'],
    ['nothing secret here', 'nothing secret here'],
  ])('%s → %s', (input, output) => {
    expect(scrubSecrets(input)).toBe(output);
  });
});

describe('isRetryable / isThrottle', () => {
  it.each([
    [sdkError('ProvisionedThroughputExceededException', 'x'), true],
    [sdkError('ThrottlingException', 'x'), true],
    [sdkError('InternalServerError', 'x'), true],
    [Object.assign(new Error('x'), { name: 'Whatever', $fault: 'server' }), true],
    [Object.assign(new Error('x'), { name: 'Whatever', $metadata: { httpStatusCode: 503 } }), true],
    [netError('ECONNRESET'), true],
    [new Error('socket hang up'), true],
    [netError('ECONNREFUSED'), false],
    [sdkError('ValidationException', 'x'), false],
    [sdkError('ResourceNotFoundException', 'x'), false],
    [Object.assign(new Error('aborted'), { name: 'AbortError' }), false],
  ])('%s → %s', (error, retryable) => {
    expect(isRetryable(error)).toBe(retryable);
  });

  it('knows throttles', () => {
    expect(isThrottle(sdkError('ThrottlingException', 'x'))).toBe(true);
    expect(isThrottle(sdkError('InternalServerError', 'x'))).toBe(false);
  });
});

describe('the secrets the process knows (#16 finding 2)', () => {
  it('a session token echoed in a ValidationException is scrubbed once the environment is known, whatever its shape', () => {
    const token = 'IQoJb3JpZ2luX2VjEEchoedTokenWithNoKnownShape0123';
    const echoed = sdkError('ValidationException', `bad request with ${token} inside`);
    expect(toAppError(echoed).message).toContain(token);
    rememberEnvSecrets({ AWS_SESSION_TOKEN: token, AWS_SECRET_ACCESS_KEY: 'x' });
    expect(toAppError(echoed).message).toBe('bad request with *** inside');
    expect(knownSecrets()).toEqual([token]);
  });

  it('remembers resolved credentials and scrubs them from every string of a result, keys included', () => {
    rememberCredentials({
      accessKeyId: 'ProfileKeyId00000001',
      secretAccessKey: 'ProfileSecretValue0123456789',
      sessionToken: 'ProfileSession0123456789abcdef',
    });
    const result = {
      ok: false,
      error: { message: 'denied ProfileSecretValue0123456789', nested: [{ ProfileKeyId00000001: 'ProfileSession0123456789abcdef' }] },
    };
    expect(scrubKnownSecrets(result)).toEqual({ ok: false, error: { message: 'denied ***', nested: [{ '***': '***' }] } });
    const clean = { ok: true, value: { names: ['a'] } };
    expect(scrubKnownSecrets(clean)).toBe(clean);
    expect(removeKnownSecrets('{"token":"ProfileSession0123456789abcdef"}')).toBe('{"token":"***"}');
  });
});

describe('mayHaveBeenApplied', () => {
  const error = (fields: Record<string, unknown>, message = 'x'): Error => Object.assign(new Error(message), fields);
  it('a 200 whose body was lost may have been applied; a 4xx was not', () => {
    expect(mayHaveBeenApplied(error({ code: 'ECONNRESET', $metadata: { httpStatusCode: 200 } }))).toBe(true);
    expect(mayHaveBeenApplied(error({ code: 'ECONNRESET', $metadata: { httpStatusCode: 503 } }))).toBe(true);
    expect(mayHaveBeenApplied(error({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } }))).toBe(false);
  });
  it('a connection never made sent nothing, however it timed out', () => {
    expect(
      mayHaveBeenApplied(
        error(
          { name: 'TimeoutError' },
          'the request socket did not establish a connection with the server within the configured timeout of 500 ms.',
        ),
      ),
    ).toBe(false);
    expect(mayHaveBeenApplied(error({ code: 'ETIMEDOUT', syscall: 'connect' }, 'connect ETIMEDOUT 10.0.0.1:443'))).toBe(false);
    expect(mayHaveBeenApplied(error({ cause: error({ code: 'ECONNRESET', syscall: 'connect' }) }))).toBe(false);
  });
  it('a connection lost or silent after the request was written may have been applied', () => {
    expect(mayHaveBeenApplied(error({ code: 'ETIMEDOUT', syscall: 'read' }))).toBe(true);
    expect(
      mayHaveBeenApplied(
        error(
          { name: 'TimeoutError' },
          '@smithy/node-http-handler - the request socket timed out after 10000 ms of inactivity (configured by client requestHandler).',
        ),
      ),
    ).toBe(true);
    expect(mayHaveBeenApplied(error({}, 'socket hang up'))).toBe(true);
  });
});
