/** What a CLI command is: its flags, its help, and a run function. One file per command under commands/. */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AppError } from '../../shared/result';
import type { DynamoTarget } from '../services/dynamo/client';
import type { ErrorContext } from '../services/dynamo/errors';

/** An open connection: the target, its client and the context for error messages. */
export interface Connection {
  readonly target: DynamoTarget;
  readonly client: DynamoDBClient;
  readonly local: boolean;
  readonly errorContext: ErrorContext;
}

/** Exit codes: 0 complete and clean, 1 complete with problems (or a convention warning), 2 error or incomplete. */
export const EXIT_OK = 0;
/** The command completed and found problems, or found that the convention does not explain the table. */
export const EXIT_PROBLEMS = 1;
/** An error, or a result that is not complete (the reason goes to stderr). */
export const EXIT_ERROR = 2;

/** One flag of a command, in node:util parseArgs terms plus help text. */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** The flag may be given several times (its value is then a list, in the order given). */
  readonly multiple?: boolean;
  /** Shown in help: `--table T`. */
  readonly valueName?: string;
  readonly description: string;
}

/** Flags by long name. */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** Parsed flag values by long name. */
export type FlagValues = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

/** Where a command writes; injectable so commands can be run in-process by tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  /** True when stderr is a terminal (progress lines are shown only then). */
  readonly interactive: boolean;
  /** Colour readable output (see style.ts: NO_COLOR, FORCE_COLOR, a TTY); absent means no colour. */
  readonly color?: boolean;
  /** Aborted on SIGINT/SIGTERM. */
  readonly signal: AbortSignal;
  /** stdout without the secret scrubber, for the one line that must hand a secret to the user (serve's URL with its token). */
  readonly revealOnStdout?: (text: string) => void;
}

/** What a command's run function receives. */
export interface CommandContext {
  readonly values: FlagValues;
  readonly io: CliIo;
  readonly debug: boolean;
  /** A connection already open (audit --all-tables runs each table's audit on its one connection); the command leaves it open. */
  readonly connection?: Connection;
}

/** A CLI command. Register it with one line in registry.ts. */
export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  /** The synopsis after `locksmith`, e.g. `audit --table T [--json]`. */
  readonly usage: string;
  /** The command's own flags; the connection flags and --help/--debug are added for every command. */
  readonly flags: FlagSpecs;
  /** Extra help text: details, exit codes, examples. */
  readonly details?: string;
  /** Whether the connection flags (--endpoint, --profile, --region) apply. Default true. */
  readonly connects?: boolean;
  /** Runs the command and returns the exit code; throw CliError for a one-line failure (declare it async: a bad flag then rejects, never throws past the caller). */
  run(context: CommandContext): Promise<number>;
}

/** A failure the CLI prints as one line (plus the fix) and exits 2 with. */
export class CliError extends Error {
  constructor(readonly appError: AppError) {
    super(appError.message);
    this.name = 'CliError';
  }
}

/** Throws a CliError of kind `validation` (bad flags, bad input). */
export function usageError(message: string, field?: string): never {
  throw new CliError(field === undefined ? { kind: 'validation', message } : { kind: 'validation', message, field });
}

/** Unwraps a Result or throws its error as a CliError. */
export function unwrap<T>(result: { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError }): T {
  if (!result.ok) throw new CliError(result.error);
  return result.value;
}

/**
 * The exit code of a complete audit report: 0 only when it has no problem and no convention warning.
 * A warning alone is exit 1, never 0: a CI job reading "clean" would trust a convention the table contradicts.
 */
export function auditExitCode(report: {
  readonly summary: Readonly<Record<string, number>>;
  readonly warnings?: readonly unknown[];
}): number {
  const problems = Object.values(report.summary).reduce((a, b) => a + b, 0);
  return problems > 0 || (report.warnings?.length ?? 0) > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
