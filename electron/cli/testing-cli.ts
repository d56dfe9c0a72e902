/** Runs bin/locksmith as a child process for integration tests, with a clean AWS environment. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Path of the CLI launcher. */
export const LOCKSMITH_BIN = fileURLToPath(new URL('../../bin/locksmith', import.meta.url));

/** What a CLI run printed and returned. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The host environment without AWS_* variables, so a developer's profile or endpoint cannot leak into a test. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('AWS_')) env[name] = value;
  return { ...env, ...extra };
}

/** Runs `locksmith <args>` and resolves with its exit code and output (never rejects on a non-zero exit). */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = cleanEnv()): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [LOCKSMITH_BIN, ...args], { env, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        reject(error);
        return;
      }
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}
