/** An in-memory CliIo for running commands in-process in tests. */
import type { CliIo } from './command';

/** A CliIo capturing stdout and stderr as strings. */
export interface CapturedIo extends CliIo {
  readonly out: () => string;
  readonly err: () => string;
}

/** Creates a capturing CliIo with the given environment (empty by default, so the host's AWS_* never leak in). */
export function captureIo(env: NodeJS.ProcessEnv = {}, signal: AbortSignal = new AbortController().signal): CapturedIo {
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
