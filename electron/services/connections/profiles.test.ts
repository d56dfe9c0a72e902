import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadProfiles, presentCredentialEnv, sharedFilePaths } from './profiles';
import { parseIni } from './ini';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const env = (config: string, credentials: string): NodeJS.ProcessEnv => ({
  AWS_CONFIG_FILE: join(fixtures, config),
  AWS_SHARED_CREDENTIALS_FILE: join(fixtures, credentials),
});
const byName = async (e: NodeJS.ProcessEnv) => {
  const catalog = await loadProfiles(e, '/nonexistent-home');
  return { catalog, get: (name: string) => catalog.profiles.find((p) => p.name === name) };
};

describe('loadProfiles', () => {
  it('classifies every kind with its region', async () => {
    const { catalog, get } = await byName(env('config-all-kinds', 'credentials-basic'));
    expect(get('default')).toMatchObject({ kind: 'static', region: 'eu-west-1' });
    expect(get('static-dev')).toMatchObject({ kind: 'static', region: 'eu-central-1' });
    expect(get('corp-sso')).toMatchObject({ kind: 'sso', region: 'us-east-1' });
    expect(get('legacy-sso')).toMatchObject({ kind: 'sso' });
    expect(get('auditor')).toMatchObject({ kind: 'assume-role', region: 'ap-northeast-2', sourceProfile: 'static-dev' });
    expect(get('prod-mfa')).toMatchObject({ kind: 'mfa', mfaSerial: 'arn:aws:iam::111122223333:mfa/ada' });
    expect(get('prod-mfa')?.region).toBeUndefined();
    expect(get('proc')).toMatchObject({ kind: 'credential-process' });
    expect(get('ci')).toMatchObject({ kind: 'web-identity' });
    // A config section without the `profile ` prefix is not a profile for the SDK; we say so.
    expect(get('not-a-profile')).toBeUndefined();
    expect(catalog.warnings.join('\n')).toContain('[not-a-profile] is ignored');
  });

  it('never exposes secrets in the catalog', async () => {
    const { catalog } = await byName(env('config-all-kinds', 'credentials-basic'));
    expect(JSON.stringify(catalog)).not.toMatch(/secret|AKIA/);
  });

  it('survives [profile __proto__] and CRLF without polluting anything, and warns the SDK would ignore the file', async () => {
    const { catalog, get } = await byName(env('config-hostile-crlf', 'credentials-hostile'));
    expect(get('good')).toMatchObject({ region: 'us-east-2' });
    expect(get('after')).toMatchObject({ region: 'eu-west-3' });
    expect(get('__proto__')).toMatchObject({ kind: 'static' });
    expect(get('constructor')).toMatchObject({ kind: 'static' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('region');
    const warnings = catalog.warnings.join('\n');
    expect(warnings).toMatch(/config-hostile-crlf line 4: section \[profile __proto__\].*treats this file as empty/);
    expect(warnings).toMatch(/credentials-hostile line 7: not a "key = value" line/);
    expect(warnings).toMatch(/credentials-hostile line 8: section header not closed/);
  });

  it('merges a profile present in both files, the credentials file winning', async () => {
    const { get } = await byName(env('config-in-both', 'credentials-in-both'));
    expect(get('shared')).toMatchObject({ kind: 'static', region: 'sa-east-1' });
  });

  it('reports source_profile cycles and dangling sources, but accepts a self-sourcing static profile', async () => {
    const { catalog, get } = await byName(env('config-cycle', 'missing-credentials'));
    expect(get('a')?.problem).toBe('source_profile cycle: a → b → a');
    expect(get('b')?.problem).toBe('source_profile cycle: b → a → b');
    expect(get('self-ok')?.problem).toBeUndefined();
    expect(get('dangling')?.problem).toBe('source_profile nowhere does not exist');
    expect(catalog.warnings).toHaveLength(3);
  });

  it('treats missing files as no profiles, silently', async () => {
    const { catalog } = await byName(env('missing-config', 'missing-credentials'));
    expect(catalog.profiles).toEqual([]);
    expect(catalog.warnings).toEqual([]);
  });

  it('respects AWS_CONFIG_FILE and defaults to ~/.aws', () => {
    expect(sharedFilePaths({}, '/home/ada')).toEqual({ config: '/home/ada/.aws/config', credentials: '/home/ada/.aws/credentials' });
    expect(sharedFilePaths({ AWS_CONFIG_FILE: '~/cfg', AWS_SHARED_CREDENTIALS_FILE: '/etc/c' }, '/home/ada')).toEqual({
      config: '/home/ada/cfg',
      credentials: '/etc/c',
    });
  });

  it('reports credential environment variables by name only', () => {
    expect(presentCredentialEnv({ AWS_ACCESS_KEY_ID: 'AKIAX', AWS_PROFILE: 'dev', HOME: '/h' })).toEqual([
      'AWS_ACCESS_KEY_ID',
      'AWS_PROFILE',
    ]);
  });
});

describe('parseIni', () => {
  it('keeps nested blocks, strips comments, lets later keys win', () => {
    const doc = parseIni('[profile x]\nregion = a # c\nregion = b\ns3 =\n  max = 20\noutput = json\n');
    expect(Object.fromEntries(doc.sections.get('profile x') ?? [])).toEqual({ region: 'b', 's3.max': '20', output: 'json' });
  });

  it('does not hang or throw on hostile input', () => {
    const doc = parseIni(`${'['.repeat(10_000)}\n=${'x'.repeat(70_000)}\n\u0000[a]\nk=v`);
    expect(doc.issues.length).toBeGreaterThan(0);
  });
});
