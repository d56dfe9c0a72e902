/**
 * Bad input on disk: hostile convention files (through the CLI's loader and the pure parser) and
 * hostile AWS config/credentials files (through loadProfiles). Each is a clear error or warning —
 * never a crash, a hang, a polluted prototype or a leaked secret.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conventionToFile, parseConventionFile } from '../../../shared/conventions/file';
import { PRESET_DEFAULTS, presetConvention } from '../../../shared/conventions/presets';
import type { KeySchema } from '../../../shared/model';
import { CliError } from '../../cli/command';
import { loadConventionFile } from '../../cli/convention-source';
import { loadProfiles } from '../../services/connections/profiles';
import { recordFigures } from './figures';

const KEYS: KeySchema = { hash: { name: 'PK', type: 'S' }, range: { name: 'SK', type: 'S' } };
const valid = (): Record<string, unknown> =>
  JSON.parse(JSON.stringify(conventionToFile(presetConvention('uniq', KEYS, PRESET_DEFAULTS.uniq)))) as Record<string, unknown>;
let dir = '';
const tally = { conventionFiles: 0, awsFiles: 0, crashes: 0 };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'locksmith-hostile-files-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const polluted = (): unknown => (({}) as Record<string, unknown>).polluted ?? (Object.prototype as Record<string, unknown>).isAdmin;

/** Hostile convention file texts: name → file content. */
const CONVENTION_FILES: Record<string, string> = {
  'empty file': '',
  'not JSON': '{ preset: uniq }',
  'a JSON string': '"uniq"',
  null: 'null',
  'an array': '[1,2,3]',
  'BOM + valid JSON with an unknown field': `\ufeff${JSON.stringify({ ...valid(), extra: 1 })}`,
  '__proto__ pollution': JSON.stringify(valid()).replace(/^\{/, '{"__proto__":{"polluted":true,"isAdmin":true},'),
  'constructor.prototype pollution': JSON.stringify({ ...valid(), constructor: { prototype: { polluted: true } } }),
  'rules as a string': JSON.stringify({ ...valid(), rules: 'email' }),
  'keys as a number': JSON.stringify({ ...valid(), keys: 5 }),
  'a template without {value}': JSON.stringify({
    ...valid(),
    rules: [{ ...(valid().rules as object[])[0], lockKeys: [{ hash: 'UNIQ#EMAIL#', range: 'LOCK' }] }],
  }),
  'nesting 5,000 deep': `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  'NUL bytes and lone surrogates': JSON.stringify({ ...valid(), preset: 'uniq\u0000\ud800' }),
};

/** Well-formed convention files far beyond any real one. */
const OVERSIZED_FILES: Record<string, string> = {
  'a rule with a 5 MB name': JSON.stringify({ ...valid(), rules: [{ ...(valid().rules as object[])[0], name: 'n'.repeat(5_000_000) }] }),
  'a 20 MB owner attribute name': JSON.stringify({ ...valid(), ownerAttribute: 'o'.repeat(20_000_000) }),
  '10,000 rules': JSON.stringify({
    ...valid(),
    rules: Array.from({ length: 10_000 }, (_, i) => ({
      name: `R${i}`,
      attribute: `a${i}`,
      lockKeys: [{ hash: `R${i}#{value}`, range: 'LOCK' }],
    })),
  }),
};

/**
 * A hostile file must not hang the loader (a quadratic parse of megabytes takes minutes): each case
 * gets a test timeout far above a normal answer on a loaded machine, not a timed assertion.
 */
const HANG = { timeout: 30_000 };

describe('hostile convention files', () => {
  it.each(Object.keys(CONVENTION_FILES))('%s: a clear validation error naming the file, nothing polluted', HANG, async (label) => {
    const path = join(dir, `${label.replace(/\W+/g, '-')}.json`);
    await writeFile(path, CONVENTION_FILES[label] ?? '');
    let thrown: unknown;
    try {
      await loadConventionFile(path, KEYS);
    } catch (error) {
      thrown = error;
    }
    tally.conventionFiles += 1;
    expect(thrown).toBeInstanceOf(CliError);
    const error = (thrown as CliError).appError;
    expect(error.kind).toBe('validation');
    expect(error.message.startsWith(path)).toBe(true);
    // Errors quote no megabytes back at the person.
    expect(error.message.length).toBeLessThan(2_000);
    expect(polluted()).toBeUndefined();
  });

  /**
   * Well-formed but oversized files. The file format has the bridge schema's bounds, so the loader
   * refuses them promptly, names the field, and pollutes nothing.
   */
  it.each(Object.keys(OVERSIZED_FILES))('%s: answered, not hung; refused by the file parser, with the field named', HANG, async (label) => {
    const path = join(dir, `${label.replace(/\W+/g, '-')}.json`);
    await writeFile(path, OVERSIZED_FILES[label] ?? '');
    const loaded = await loadConventionFile(path, KEYS).then(
      (convention) => ({ ok: true as const, convention }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    tally.conventionFiles += 1;
    // The file parser applies the bridge schema's bounds, so the file itself is refused.
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) {
      expect(loaded.error).toBeInstanceOf(CliError);
      expect(String((loaded.error as Error).message)).toMatch(/must be at most|at most 32 rules/);
    }
    expect(polluted()).toBeUndefined();
  });

  it('the pure parser answers every JSON value type with a Result, never a throw', () => {
    for (const value of [
      undefined,
      null,
      0,
      NaN,
      '',
      [],
      {},
      true,
      Object.create(null) as object,
      new Proxy({}, {}),
      { rules: [null] },
      { keys: { hash: null } },
    ]) {
      const result = parseConventionFile(value, KEYS);
      expect(result.ok).toBe(false);
      tally.conventionFiles += 1;
    }
    expect(polluted()).toBeUndefined();
  });
});

/** Hostile AWS shared files: name → [config text, credentials text]. */
const AWS_FILES: Record<string, [string, string]> = {
  'binary garbage': [String.fromCharCode(...Array.from({ length: 4_096 }, (_, i) => (i * 7919) % 256)), '\u0000\u0001\u0002'],
  '[profile __proto__] and [__proto__]': [
    '[profile __proto__]\nregion = eu-west-1\npolluted = true\n[profile ok]\nregion=us-east-1',
    '[__proto__]\naws_access_key_id = AKIALOCKSMITHFAKE000\naws_secret_access_key = LocksmithFakeSecretFromFile0123456789abc\n',
  ],
  'constructor / toString / hasOwnProperty profiles': [
    '[profile constructor]\nregion=a\n[profile toString]\nregion=b\n[profile hasOwnProperty]\nregion=c',
    '[constructor]\naws_access_key_id=x\n',
  ],
  '__proto__ keys inside a section': ['[profile dev]\n__proto__ = polluted\nconstructor = x\nregion = us-west-2', ''],
  '200,000 lines': [Array.from({ length: 200_000 }, (_, i) => (i % 3 === 0 ? `[profile p${i}]` : `k${i} = v`)).join('\n'), ''],
  'a 2 MB line': [`[profile big]\nregion = ${'r'.repeat(2_000_000)}`, ''],
  'UTF-16 with BOM': [Buffer.from('\ufeff[profile u16]\nregion=eu-west-1', 'utf16le').toString('latin1'), ''],
  'CRLF, tabs, unclosed sections': ['[profile a\r\n\tregion\t=\tx\r\n[default]\r\nregion=us-east-1\r\n', '[default\r\n'],
  'credential_process with shell metacharacters': [
    '[profile p]\ncredential_process = /bin/sh -c "echo $(cat ~/.ssh/id_rsa)" ; rm -rf /\n',
    '',
  ],
  'source_profile chains 1,000 long, and a cycle': [
    Array.from({ length: 1_000 }, (_, i) => `[profile c${i}]\nrole_arn = arn:aws:iam::1:role/r\nsource_profile = c${(i + 1) % 1_000}`).join(
      '\n',
    ),
    '',
  ],
};

describe('hostile AWS config and credentials files', () => {
  it.each(Object.keys(AWS_FILES))('%s: profiles load with warnings, no throw, no secrets, nothing polluted', HANG, async (label) => {
    const [config, credentials] = AWS_FILES[label] ?? ['', ''];
    const configPath = join(dir, `config-${label.replace(/\W+/g, '-')}`);
    const credentialsPath = join(dir, `credentials-${label.replace(/\W+/g, '-')}`);
    await writeFile(configPath, config, 'latin1');
    await writeFile(credentialsPath, credentials, 'latin1');
    const catalog = await loadProfiles({ AWS_CONFIG_FILE: configPath, AWS_SHARED_CREDENTIALS_FILE: credentialsPath }, dir);
    tally.awsFiles += 2;
    expect(Array.isArray(catalog.profiles)).toBe(true);
    const shown = JSON.stringify(catalog);
    expect(shown).not.toContain('LocksmithFakeSecretFromFile');
    expect(shown).not.toContain('AKIALOCKSMITHFAKE000');
    expect(shown.length).toBeLessThan(5_000_000);
    expect(polluted()).toBeUndefined();
    if (label.startsWith('[profile __proto__]')) expect(catalog.warnings.join('\n')).toMatch(/the AWS SDK treats this file as empty/);
    if (label.startsWith('source_profile')) expect(catalog.warnings.join('\n')).toMatch(/source_profile cycle/);
  });

  it('records the figures', async () => {
    expect(tally.crashes).toBe(0);
    await recordFigures('hostile-files', {
      ...tally,
      conventionFileCases: Object.keys(CONVENTION_FILES).length + Object.keys(OVERSIZED_FILES).length,
      awsFileCases: Object.keys(AWS_FILES).length,
    });
  });
});
