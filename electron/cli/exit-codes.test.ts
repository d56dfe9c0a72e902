/**
 * Exit codes never lie: whatever fails in whichever command — an exception nothing caught, a
 * rejection nobody awaited, a throw from its run — the CLI exits 2 ("error or incomplete") with one
 * line `locksmith: …`, never Node's 1 ("complete with problems" here) or 0, and the stack only with --debug.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './registry';

const HARNESS = fileURLToPath(new URL('./testing/fault-cli.ts', import.meta.url));

function run(args: readonly string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    // A closed port and no AWS environment: a command that gets as far as the network fails there, not elsewhere.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AWS_')));
    execFile(
      process.execPath,
      ['--import', 'tsx', HARNESS, ...args],
      { env: { ...env, LOCKSMITH_DATA_DIR: '/nonexistent/locksmith-exit-codes' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

/** Arguments that let each command start without reaching anything real (the sandbox refuses port 0 before starting Java; a command that does not connect takes no endpoint). */
const argsOf = async (name: string): Promise<string[]> => {
  if (name === 'sandbox') return ['--port', '0'];
  const command = await COMMANDS.find((c) => c.name === name)!.load();
  return command.connects === false ? [] : ['--endpoint', 'http://127.0.0.1:9'];
};

/** The `locksmith:` lines of stderr (what a person or a CI log reads). */
const errorLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('locksmith:'));

describe.each(['throw', 'reject', 'sync'] as const)('a fault (%s) in a command', (fault) => {
  it.each(COMMANDS.map((c) => c.name))('%s: exit 2 and one line, no stack', async (name) => {
    const result = await run([fault, name, ...(await argsOf(name))]);
    expect(result.code).toBe(2);
    expect(errorLines(result.stderr)).toEqual([`locksmith: unexpected error: injected into ${name} (run with --debug for details)`]);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toContain('a second line');
  });
});

describe('--debug', () => {
  it.each(['throw', 'reject'] as const)('a fault (%s) still exits 2, and prints the stack', async (fault) => {
    const result = await run([fault, 'tables', '--endpoint', 'http://127.0.0.1:9', '--debug']);
    expect(result.code).toBe(2);
    expect(errorLines(result.stderr)[0]).toBe('locksmith: unexpected error: injected into tables');
    expect(result.stderr).toMatch(/^\s+at /m);
  });
});
