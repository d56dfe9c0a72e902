/** #16 finding 2: credentials and SSO tokens in use become known to the scrubber. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeKnownSecrets, scrubSecrets } from '../dynamo/secrets';
import { memoizeCredentials, rememberSsoTokens } from './credentials';

describe('secrets the credential providers hand out', () => {
  it('SSO tokens cached by `aws sso login` are scrubbed once a profile resolves', async () => {
    const home = await mkdtemp(join(tmpdir(), 'locksmith-sso-'));
    try {
      await mkdir(join(home, '.aws', 'sso', 'cache'), { recursive: true });
      await writeFile(
        join(home, '.aws', 'sso', 'cache', 'abc.json'),
        JSON.stringify({
          accessToken: 'SsoAccessTokenValue0123456789',
          refreshToken: 'SsoRefreshTokenValue0123456789',
          expiresAt: '2030-01-01T00:00:00Z',
        }),
      );
      await writeFile(join(home, '.aws', 'sso', 'cache', 'junk.json'), 'not json');
      expect(removeKnownSecrets('SsoAccessTokenValue0123456789')).toBe('SsoAccessTokenValue0123456789');
      await rememberSsoTokens(home);
      expect(scrubSecrets('bearer SsoAccessTokenValue0123456789 / SsoRefreshTokenValue0123456789')).toBe('bearer *** / ***');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('a resolved profile identity is known before any request is signed with it', async () => {
    const provider = memoizeCredentials(async () => ({
      accessKeyId: 'ResolvedKeyId0000001',
      secretAccessKey: 'ResolvedSecretValue0123456789',
      sessionToken: 'ResolvedSessionToken0123456789',
    }));
    await provider();
    expect(removeKnownSecrets('ResolvedKeyId0000001 ResolvedSecretValue0123456789 ResolvedSessionToken0123456789')).toBe('*** *** ***');
  });
});
