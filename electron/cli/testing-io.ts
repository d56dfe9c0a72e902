/** An in-memory CliIo for running commands in-process in tests. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from './command';

let scratch: string | undefined;
/** One throwaway data folder per test process: a command run without LOCKSMITH_DATA_DIR must not write to the user's own (e.g. its key-schema cache). */
function scratchDataDir(): string {
  scratch ??= mkdtempSync(join(tmpdir(), 'locksmith-test-data-'));
  return scratch;
}

/** A CliIo capturing stdout and stderr as strings. */
export interface CapturedIo extends CliIo {
  readonly out: () => string;
  readonly err: () => string;
}

/** Creates a capturing CliIo with the given environment (empty by default, so the host's AWS_* never leak in; the data folder a scratch one unless given). */
export function captureIo(given: NodeJS.ProcessEnv = {}, signal: AbortSignal = new AbortController().signal): CapturedIo {
  const env = given.LOCKSMITH_DATA_DIR ? given : { ...given, LOCKSMITH_DATA_DIR: scratchDataDir() };
  let out = '';
  let err = '';
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    env,
    interactive: false,
    signal,
    out: () => out,
    err: () => err,
  };
}
