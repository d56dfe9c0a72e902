import { describe, expect, it } from 'vitest';
import { main, mainHelp } from './main';
import { COMMANDS } from './registry';
import { captureIo } from './testing-io';

describe('main', () => {
  it('prints the command list for --help and exits 0', async () => {
    const io = captureIo();
    expect(await main(['--help'], io)).toBe(0);
    expect(io.out()).toBe(mainHelp());
    for (const c of COMMANDS) expect(io.out()).toContain(c.name);
  });

  it('prints help and exits 2 when no command is given', async () => {
    const io = captureIo();
    expect(await main([], io)).toBe(2);
    expect(io.out()).toContain('Usage: locksmith <command>');
  });

  it('rejects an unknown command in one line', async () => {
    const io = captureIo();
    expect(await main(['frobnicate'], io)).toBe(2);
    expect(io.err()).toMatch(/^locksmith: unknown command "frobnicate" \(commands: audit, /);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it.each(COMMANDS.map((c) => c.name))('%s --help prints its options and exits 0', async (name) => {
    const io = captureIo();
    expect(await main([name, '--help'], io)).toBe(0);
    expect(io.out()).toContain(`locksmith ${name}`);
  });

  it('turns a bad flag into one line without a stack, exit 2', async () => {
    const io = captureIo();
    expect(await main(['audit', '--table', 't', '--segments', 'many'], io)).toBe(2);
    expect(io.err()).toBe('locksmith: audit: --segments must be an integer from 1 to 1000000 (got "many")\n');
  });

  it('with --json, a run that ends in an error prints it as JSON on stdout (a script never reads an empty stdout)', async () => {
    const io = captureIo();
    expect(await main(['audit', '--table', 't', '--segments', 'many', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out())).toEqual({
      error: { kind: 'validation', message: 'audit: --segments must be an integer from 1 to 1000000 (got "many")', field: 'segments' },
    });
    expect(io.err()).toBe('locksmith: audit: --segments must be an integer from 1 to 1000000 (got "many")\n');
  });

  it('reports a missing required flag', async () => {
    const io = captureIo();
    expect(await main(['lookup', '--table', 't', '--endpoint', 'http://127.0.0.1:9'], io)).toBe(2);
    expect(io.err()).toBe('locksmith: lookup: --value is required\n');
  });

  it('prints the stack of a CLI error only with --debug', async () => {
    const io = captureIo();
    expect(await main(['audit', '--bogus', '--debug'], io)).toBe(2);
    expect(io.err()).toMatch(/Unknown option '--bogus'[\s\S]*\n\s+at /);
  });
});
