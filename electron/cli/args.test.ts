import { describe, expect, it } from 'vitest';
import { commandHelp, optionalInt, optionalPositive, parseFlags, requireString } from './args';
import type { CliCommand } from './command';
import { CliError } from './command';

const command: CliCommand = {
  name: 'demo',
  summary: 'A demo command.',
  usage: 'demo --table T',
  flags: { table: { type: 'string', valueName: 'T', description: 'the table' }, json: { type: 'boolean', description: 'JSON' } },
  run: () => Promise.resolve(0),
};

function failure(fn: () => unknown): CliError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error('expected a CliError');
}

describe('parseFlags', () => {
  it('reads command, connection and common flags', () => {
    expect(parseFlags(command, ['--table', 'accounts', '--json', '--endpoint', 'http://x:1', '--region', 'eu-west-1', '--debug'])).toEqual({
      table: 'accounts',
      json: true,
      endpoint: 'http://x:1',
      region: 'eu-west-1',
      debug: true,
    });
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--table'], /--table/],
    [['stray'], /positional/i],
    [['--json=yes'], /--json/],
  ])('rejects %j as a usage error', (argv, message) => {
    const error = failure(() => parseFlags(command, argv));
    expect(error.appError.kind).toBe('validation');
    expect(error.message).toMatch(message);
    expect(error.message).toContain('locksmith demo --help');
  });

  it('does not offer connection flags to a command that does not connect', () => {
    expect(() => parseFlags({ ...command, connects: false }, ['--endpoint', 'http://x:1'])).toThrow(CliError);
  });
});

describe('flag readers', () => {
  it('requireString names the missing flag', () => {
    expect(failure(() => requireString({}, 'table', 'audit')).message).toBe('audit: --table is required');
  });

  it.each([['0'], ['1.5'], ['-3'], ['abc'], ['1000001']])('optionalInt rejects %s', (value) => {
    expect(failure(() => optionalInt({ segments: value }, 'segments', 'audit', 1, 1_000_000)).message).toMatch(
      /--segments must be an integer from 1 to 1000000/,
    );
  });

  it('optionalInt accepts integers in range and absence', () => {
    expect(optionalInt({ segments: '16' }, 'segments', 'audit', 1, 100)).toBe(16);
    expect(optionalInt({}, 'segments', 'audit', 1, 100)).toBeUndefined();
  });

  it('optionalPositive wants a positive number', () => {
    expect(optionalPositive({ r: '2.5' }, 'r', 'audit')).toBe(2.5);
    expect(() => optionalPositive({ r: '0' }, 'r', 'audit')).toThrow(/positive/);
  });
});

describe('commandHelp', () => {
  it('lists usage, options, connection and general flags', () => {
    const help = commandHelp(command);
    expect(help).toContain('locksmith demo --table T');
    expect(help).toMatch(/--table T\s+the table/);
    expect(help).toContain('--endpoint URL');
    expect(help).toContain('-h, --help');
  });
});
