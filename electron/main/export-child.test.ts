import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChildHandle } from '../services/export/run-export-audit';

/** The options each utilityProcess.fork got. */
const forks = vi.hoisted(() => [] as { path: string; options: Record<string, unknown> }[]);

// The Electron binary cannot run here: utilityProcess.fork starts a real Node process with the stdio
// it was given (stdin always ignored, as Electron's), emitting 'exit' with the code like a UtilityProcess.
vi.mock('electron', async () => {
  const { spawn } = await import('node:child_process');
  const { EventEmitter } = await import('node:events');
  return {
    utilityProcess: {
      fork: (path: string, args: string[], options: { execArgv?: string[]; stdio?: string | string[] }) => {
        forks.push({ path, options });
        const out =
          typeof options.stdio === 'string'
            ? ['ignore', options.stdio, options.stdio]
            : (options.stdio ?? ['ignore', 'inherit', 'inherit']);
        const proc = spawn(process.execPath, [...(options.execArgv ?? []), path, ...args], {
          stdio: ['ignore', out[1], out[2]] as ['ignore', 'pipe', 'pipe'],
        });
        const child = Object.assign(new EventEmitter(), {
          pid: proc.pid,
          stdout: proc.stdout,
          stderr: proc.stderr,
          kill: () => proc.kill(),
          postMessage: () => undefined,
        });
        proc.on('exit', (code, signal) => child.emit('exit', code ?? (signal ? 128 : -1)));
        return child;
      },
    },
  };
});

const { utilityLauncher } = await import('./export-child');

let work = '';
const started: ChildHandle[] = [];
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'locksmith-export-child-'));
});
afterEach(() => {
  for (const handle of started.splice(0)) handle.kill(true);
});
afterAll(async () => rm(work, { recursive: true, force: true }));

/** Starts `script` through the launcher; `ended` resolves with how it ended. */
async function launch(name: string, script: string): Promise<{ handle: ChildHandle; ended: Promise<string> }> {
  const path = join(work, name);
  await writeFile(path, script);
  const handle = utilityLauncher({ path, execArgv: [] });
  started.push(handle);
  const ended = new Promise<string>((resolve) => handle.onEnd(resolve));
  return { handle, ended };
}

describe('utilityLauncher', () => {
  it('ignores the child’s stdout and pipes its stderr', async () => {
    await launch('quiet.mjs', '');
    expect(forks.at(-1)?.options).toMatchObject({
      execArgv: [],
      stdio: ['ignore', 'ignore', 'pipe'],
      serviceName: 'Locksmith export audit',
    });
  });

  it('does not block a child that writes more than a pipe holds to stdout, and keeps its stderr for the message', async () => {
    // stdout to a pipe is written synchronously on Linux: an unread pipe stops this child at ~64 KiB.
    const { handle, ended } = await launch(
      'chatty.mjs',
      "process.stdout.write('x'.repeat(1 << 20)); process.stderr.write('Error: boom\\n'); process.exitCode = 3;",
    );
    expect(await ended).toBe('exit 3');
    expect(handle.stderrTail()).toBe('Error: boom');
  });

  it('stops the child with kill(), and kills one that ignores SIGTERM with kill(true)', async () => {
    const busy = 'setInterval(() => undefined, 1000); process.stderr.write("ready\\n");';
    const polite = await launch('polite.mjs', busy);
    polite.handle.kill();
    await expect(polite.ended).resolves.toMatch(/^exit /);

    const stubborn = await launch('stubborn.mjs', `process.on('SIGTERM', () => undefined); ${busy}`);
    // Once it has its SIGTERM handler (it says so on stderr) only SIGKILL ends it: utilityProcess.kill() cannot.
    await vi.waitFor(() => expect(stubborn.handle.stderrTail()).toBe('ready'));
    stubborn.handle.kill(true);
    await expect(stubborn.ended).resolves.toMatch(/^exit /);
  });
});
