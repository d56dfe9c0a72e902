/** Flag parsing (node:util parseArgs, strict) and help text for commands. */
import { parseArgs } from 'node:util';
import type { CliCommand, FlagSpecs, FlagValues } from './command';
import { usageError } from './command';
import { PRESET_NAMES } from '../../shared/model';

/** Flags every connecting command takes. */
export const CONNECTION_FLAGS: FlagSpecs = {
  endpoint: { type: 'string', valueName: 'URL', description: 'DynamoDB Local or another endpoint, e.g. http://localhost:8000' },
  profile: { type: 'string', valueName: 'NAME', description: 'AWS profile from ~/.aws/config (default: $AWS_PROFILE)' },
  region: {
    type: 'string',
    valueName: 'R',
    description: 'AWS region (default: $AWS_REGION, the profile’s region, or us-east-1 for an endpoint)',
  },
};

/** Flags every command takes. */
export const COMMON_FLAGS: FlagSpecs = {
  help: { type: 'boolean', short: 'h', description: 'show this help' },
  debug: { type: 'boolean', description: 'print stack traces and SDK warnings' },
};

/** The flag naming the table a table command works on. */
export const TABLE_FLAG: FlagSpecs = { table: { type: 'string', valueName: 'T', description: 'the table' } };

/** Flags that choose a convention: shared by audit, lookup and the transaction commands. */
export const CONVENTION_FLAGS: FlagSpecs = {
  preset: { type: 'string', valueName: 'P', description: `convention preset: ${PRESET_NAMES.join(', ')}` },
  convention: { type: 'string', valueName: 'FILE', description: 'convention file (JSON); default: detected from a sample' },
};

/** All flags a command accepts. */
export function allFlags(command: CliCommand): FlagSpecs {
  return { ...command.flags, ...(command.connects === false ? {} : CONNECTION_FLAGS), ...COMMON_FLAGS };
}

/** Parses a command's flags strictly: unknown flags, missing values and positionals are usage errors. */
export function parseFlags(command: CliCommand, argv: readonly string[]): FlagValues {
  const specs = allFlags(command);
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, spec] of Object.entries(specs)) {
    options[name] = { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) };
  }
  try {
    const { values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false, allowNegative: false });
    return values as FlagValues;
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    return usageError(
      `${command.name}: ${message.replace(/\. To specify a positional argument.*$/, '')} (see locksmith ${command.name} --help)`,
    );
  }
}

/** A required string flag. */
export function requireString(values: FlagValues, name: string, command: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') return usageError(`${command}: --${name} is required`, name);
  return value;
}

/** An optional string flag. */
export function optionalString(values: FlagValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * `--scope orgId=acme[,tenantId=t1]`: a scoped rule's scope by account attribute; undefined when not given.
 * Only the first `=` of each pair separates (values may contain `=`), commas separate pairs.
 */
export function scopeFlag(values: FlagValues, command: string): Record<string, string> | undefined {
  const text = optionalString(values, 'scope');
  if (text === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1)
      return usageError(`${command}: --scope takes attribute=value pairs (e.g. --scope orgId=acme), not \`${pair}\``, 'scope');
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

/** The --scope flag's spec, for commands that address one scoped value. */
export const SCOPE_FLAG = {
  scope: { type: 'string', valueName: 'ATTR=V', description: 'for a scoped rule: the scope the value is unique within, e.g. orgId=acme' },
} as const;

/** An optional positive integer flag within [min, max]. */
export function optionalInt(values: FlagValues, name: string, command: string, min: number, max: number): number | undefined {
  const value = optionalString(values, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    return usageError(`${command}: --${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`, name);
  }
  return n;
}

/** An optional positive number flag (rates). */
export function optionalPositive(values: FlagValues, name: string, command: string): number | undefined {
  const value = optionalString(values, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    return usageError(`${command}: --${name} must be a positive number (got ${JSON.stringify(value)})`, name);
  return n;
}

function flagLines(specs: FlagSpecs): string[] {
  const rows = Object.entries(specs).map(
    ([name, spec]) =>
      [`${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.valueName ? ` ${spec.valueName}` : ''}`, spec.description] as const,
  );
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

/** The help text of one command. */
export function commandHelp(command: CliCommand): string {
  const lines = [`locksmith ${command.usage}`, '', command.summary, ''];
  if (Object.keys(command.flags).length > 0) lines.push('Options:', ...flagLines(command.flags), '');
  if (command.connects !== false) lines.push('Connection:', ...flagLines(CONNECTION_FLAGS), '');
  lines.push('General:', ...flagLines(COMMON_FLAGS));
  if (command.details) lines.push('', command.details.trim());
  return `${lines.join('\n')}\n`;
}
