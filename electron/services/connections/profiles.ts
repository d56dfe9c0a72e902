/**
 * AWS profiles from the shared config and credentials files, each with its kind and region.
 * Read with our own parser so that a file the SDK would silently treat as empty produces a warning.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ProfileKind } from '../../../shared/domain';
import type { IniDocument } from './ini';
import { parseIni } from './ini';

/** One AWS profile as the renderer may see it (no secrets). */
export interface ProfileInfo {
  readonly name: string;
  readonly kind: ProfileKind;
  /** The profile's own region, if it sets one. */
  readonly region?: string;
  readonly sourceProfile?: string;
  readonly mfaSerial?: string;
  /** Why this profile cannot work as written (cycle, missing source profile…). */
  readonly problem?: string;
}

/** All profiles plus warnings about the files. */
export interface ProfileCatalog {
  readonly profiles: readonly ProfileInfo[];
  readonly warnings: readonly string[];
  readonly configPath: string;
  readonly credentialsPath: string;
}

/** Where the shared files are: `AWS_CONFIG_FILE` / `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/…`. */
export function sharedFilePaths(env: NodeJS.ProcessEnv, home: string = homedir()): { config: string; credentials: string } {
  const expand = (path: string): string => (path.startsWith('~/') ? join(home, path.slice(2)) : path);
  return {
    config: expand(env.AWS_CONFIG_FILE || join(home, '.aws', 'config')),
    credentials: expand(env.AWS_SHARED_CREDENTIALS_FILE || join(home, '.aws', 'credentials')),
  };
}

/** Reads a file; a missing file is normal (no warning), any other read error is reported. */
async function readOptional(path: string, warnings: string[]): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') warnings.push(`${path}: cannot be read (${code ?? 'error'})`);
    return undefined;
  }
}

function reportIssues(path: string, document: IniDocument, warnings: string[]): void {
  for (const issue of document.issues) {
    warnings.push(`${path} line ${issue.line}: ${issue.message}${issue.fatalForSdk ? ' — the AWS SDK treats this file as empty' : ''}`);
  }
}

/** Classifies a profile's settings (merged from both files). Order matters: an MFA role is also a role. */
export function profileKind(settings: ReadonlyMap<string, string>): ProfileKind {
  if (settings.has('credential_process')) return 'credential-process';
  if (settings.has('sso_session') || settings.has('sso_start_url')) return 'sso';
  if (settings.has('role_arn') && settings.has('web_identity_token_file')) return 'web-identity';
  if (settings.has('mfa_serial')) return 'mfa';
  if (settings.has('role_arn')) return 'assume-role';
  if (settings.has('aws_access_key_id')) return 'static';
  return 'unknown';
}

/** A chain of profile names, shortened in the middle: one warning per profile of a long cycle must not grow quadratically. */
function chainText(names: readonly string[]): string {
  const shown = names.length <= 8 ? names : [...names.slice(0, 4), `… ${names.length - 7} more …`, ...names.slice(-3)];
  return shown.join(' → ');
}

/** Follows `source_profile` links; returns a problem text for a cycle or a missing link. */
function sourceChainProblem(name: string, all: ReadonlyMap<string, ReadonlyMap<string, string>>): string | undefined {
  const seen = [name];
  let current = all.get(name)?.get('source_profile');
  while (current !== undefined) {
    // A profile that sources itself with static keys is legal (the SDK uses its keys for the role call).
    if (current === seen[seen.length - 1] && all.get(current)?.has('aws_access_key_id')) return undefined;
    if (seen.includes(current)) return `source_profile cycle: ${chainText([...seen, current])}`;
    const next = all.get(current);
    if (!next) return `source_profile ${current} does not exist`;
    seen.push(current);
    current = next.get('source_profile');
  }
  return undefined;
}

/** Loads every profile from both files. Never throws; problems become warnings. */
export async function loadProfiles(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): Promise<ProfileCatalog> {
  const paths = sharedFilePaths(env, home);
  const warnings: string[] = [];
  const merged = new Map<string, Map<string, string>>();
  const settingsOf = (name: string): Map<string, string> => {
    let settings = merged.get(name);
    if (!settings) merged.set(name, (settings = new Map()));
    return settings;
  };

  const configText = await readOptional(paths.config, warnings);
  if (configText !== undefined) {
    const config = parseIni(configText);
    reportIssues(paths.config, config, warnings);
    for (const [section, values] of config.sections) {
      const name = section === 'default' ? 'default' : section.startsWith('profile ') ? section.slice('profile '.length).trim() : undefined;
      if (name === undefined) {
        if (!/^(sso-session|services) /.test(section))
          warnings.push(`${paths.config}: section [${section}] is ignored by the AWS CLI and SDK (write [profile ${section}])`);
        continue;
      }
      const target = settingsOf(name);
      for (const [key, value] of values) target.set(key, value);
    }
  }

  const credentialsText = await readOptional(paths.credentials, warnings);
  if (credentialsText !== undefined) {
    const credentials = parseIni(credentialsText);
    reportIssues(paths.credentials, credentials, warnings);
    // The credentials file wins over the config file for the same profile, as in the SDK.
    for (const [name, values] of credentials.sections) {
      const target = settingsOf(name.replace(/^profile /, ''));
      for (const [key, value] of values) target.set(key, value);
    }
  }

  const profiles: ProfileInfo[] = [];
  for (const [name, settings] of [...merged].sort(([a], [b]) => a.localeCompare(b))) {
    const region = settings.get('region');
    const sourceProfile = settings.get('source_profile');
    const mfaSerial = settings.get('mfa_serial');
    const problem = sourceProfile !== undefined ? sourceChainProblem(name, merged) : undefined;
    if (problem) warnings.push(`profile ${name}: ${problem}`);
    profiles.push({
      name,
      kind: profileKind(settings),
      ...(region ? { region } : {}),
      ...(sourceProfile ? { sourceProfile } : {}),
      ...(mfaSerial ? { mfaSerial } : {}),
      ...(problem ? { problem } : {}),
    });
  }
  return { profiles, warnings, configPath: paths.config, credentialsPath: paths.credentials };
}

/** Environment variables that change which credentials or endpoint the SDK uses (names only, never values). */
export const CREDENTIAL_ENV_NAMES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
  'AWS_DEFAULT_PROFILE',
  'AWS_ROLE_ARN',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
] as const;

/** Names of the credential variables set in `env`. */
export function presentCredentialEnv(env: NodeJS.ProcessEnv): string[] {
  return CREDENTIAL_ENV_NAMES.filter((name) => Boolean(env[name]));
}

/** A DynamoDB endpoint configured for a profile in the shared files (`services` section or `endpoint_url`). */
export interface ProfileEndpoint {
  /** The profile sets `ignore_configured_endpoint_urls = true`. */
  readonly ignore: boolean;
  readonly url?: string;
  /** `services`: its `[services X]` section's `dynamodb = / endpoint_url`; `profile`: its own `endpoint_url`. */
  readonly from?: 'services' | 'profile';
}

function readSections(path: string): ReadonlyMap<string, ReadonlyMap<string, string>> {
  try {
    return parseIni(readFileSync(path, 'utf8')).sections;
  } catch {
    // Missing or unreadable: loadProfiles reports it; for the endpoint it simply configures nothing.
    return new Map();
  }
}

/**
 * The endpoint a profile configures for DynamoDB (or another `service`: `s3`, `athena`), as the SDK's
 * configured-endpoint rules read it (config file over credentials file; the `services` section first).
 * Synchronous because the effective endpoint is computed wherever a connection is labelled; the files are small.
 */
export function profileEndpoint(
  profile: string,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
  service = 'dynamodb',
): ProfileEndpoint {
  const paths = sharedFilePaths(env, home);
  const config = readSections(paths.config);
  const credentials = readSections(paths.credentials);
  const fromConfig =
    config.get(profile === 'default' ? 'default' : `profile ${profile}`) ??
    (profile === 'default' ? config.get('profile default') : undefined);
  const setting = (key: string): string | undefined => fromConfig?.get(key) ?? credentials.get(profile)?.get(key);
  const ignore = setting('ignore_configured_endpoint_urls') === 'true';
  const services = setting('services');
  const servicesUrl = services === undefined ? undefined : config.get(`services ${services}`)?.get(`${service}.endpoint_url`);
  if (servicesUrl) return { ignore, url: servicesUrl, from: 'services' };
  const url = setting('endpoint_url');
  return url ? { ignore, url, from: 'profile' } : { ignore };
}
