/** The CLI dispatcher: `locksmith <command> [flags]`. Errors are one line and exit 2; stacks only with --debug. */
import { parseFlags, commandHelp } from './args';
import { CliError, EXIT_ERROR, EXIT_OK } from './command';
import type { CliIo } from './command';
import { COMMANDS, findCommand } from './registry';
import { rememberEnvSecrets, removeKnownSecrets } from '../services/dynamo/secrets';
import { colorEnabled } from './style';
import { terminalSafe, terminalSafeJson } from '../../shared/terminal-text';

/** The top-level help, built from the registry without loading any command. */
export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'locksmith — inspect and repair DynamoDB uniqueness locks',
    '',
    'Usage: locksmith <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Connection (every command): --endpoint URL | --profile NAME, --region R ($AWS_PROFILE, $AWS_REGION honoured)',
    'Exit codes: 0 complete and clean, 1 complete with problems, 2 error or incomplete.',
    'Run `locksmith <command> --help` for a command’s options.',
    '',
  ].join('\n');
}

/** One line for an error: the message, and the fix when there is one. */
export function errorLine(error: CliError): string {
  const { message, fix } = error.appError;
  return `locksmith: ${message}${fix ? ` — to fix: ${fix}` : ''}\n`;
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], rawIo: CliIo): Promise<number> {
  // Every secret in the environment is known before anything runs; all output passes the scrubber.
  rememberEnvSecrets(rawIo.env);
  // With --json, stdout is always one JSON document: a run that ends without printing one prints its error as one.
  let printed = false;
  let lastError: string | undefined;
  const reveal = rawIo.revealOnStdout ?? rawIo.stdout;
  const json = argv.includes('--json');
  // Item data reaches the terminal through every writer: whatever a formatter missed is marked here,
  // and --json stays the same JSON value with C1/bidi characters written as \u escapes.
  const safeOut = json ? terminalSafeJson : terminalSafe;
  const io: CliIo = {
    ...rawIo,
    revealOnStdout: (text) => {
      printed = true;
      reveal(text);
    },
    stdout: (text) => {
      printed = true;
      rawIo.stdout(safeOut(removeKnownSecrets(text)));
    },
    stderr: (text) => {
      const line = /^locksmith: (.+)$/m.exec(text);
      if (line) lastError = line[1];
      rawIo.stderr(terminalSafe(removeKnownSecrets(text)));
    },
  };
  const jsonError = (error: object): void => {
    if (json && !printed) io.stdout(`${JSON.stringify({ error })}\n`);
  };
  const [name, ...rest] = argv;
  const debug = argv.includes('--debug');
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    const entry = topic === undefined ? undefined : findCommand(topic);
    io.stdout(entry ? commandHelp(await entry.load()) : mainHelp());
    return name === undefined ? EXIT_ERROR : EXIT_OK;
  }
  const entry = findCommand(name);
  if (!entry) {
    io.stderr(`locksmith: unknown command ${JSON.stringify(name)} (commands: ${COMMANDS.map((c) => c.name).join(', ')})\n`);
    return EXIT_ERROR;
  }
  try {
    const command = await entry.load();
    const values = parseFlags(command, rest);
    if (values.help === true) {
      io.stdout(commandHelp(command));
      return EXIT_OK;
    }
    const code = await command.run({ values, io, debug });
    if (code !== EXIT_OK) jsonError({ kind: code === EXIT_ERROR ? 'error' : 'refused', message: lastError ?? `exit ${code}` });
    return code;
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(errorLine(error));
      jsonError(error.appError);
      if (debug && error.stack) io.stderr(`${error.stack}\n`);
      return EXIT_ERROR;
    }
    const message = firstLine(error);
    io.stderr(`locksmith: unexpected error: ${message}${debug ? '' : ' (run with --debug for details)'}\n`);
    jsonError({ kind: 'internal', message });
    if (debug && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    return EXIT_ERROR;
  }
}

/** An error's message as one line (DuckDB's and some SDK messages run over several). */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n').find((line) => line.trim() !== '') ?? text).trim().slice(0, 500);
}

/**
 * What an exception nothing caught (a stray 'error' event, a rejection nobody awaited) does to the
 * process: exit 2 ("error or incomplete") with one line, the stack only with --debug — never Node's
 * own exit 1, which this CLI defines as "complete with problems", and never a run that goes on.
 */
export function guardProcess(debug: boolean, write: (text: string) => void, exit: (code: number) => void): void {
  const fatal = (error: unknown): void => {
    write(removeKnownSecrets(`locksmith: unexpected error: ${firstLine(error)}${debug ? '' : ' (run with --debug for details)'}\n`));
    if (debug && error instanceof Error && error.stack) write(removeKnownSecrets(`${error.stack}\n`));
    exit(EXIT_ERROR);
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
}

/** The process shell around main(): real stdio, signals abort the run, SDK's Node-version warning muted unless --debug. */
export async function runProcess(argv: readonly string[]): Promise<number> {
  // Secrets of the environment are known to the scrubber before anything can fail.
  rememberEnvSecrets(process.env);
  guardProcess(
    argv.includes('--debug'),
    (text) => void process.stderr.write(text),
    (code) => process.exit(code),
  );
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (): void => {
    interrupts++;
    // The first Ctrl+C cancels cleanly (an audit reports itself incomplete); the second one does not wait.
    if (interrupts > 1) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (!argv.includes('--debug')) muteSdkNodeWarning();
  const io: CliIo = {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    interactive: Boolean(process.stderr.isTTY),
    color: colorEnabled(process.env, Boolean(process.stdout.isTTY)),
    signal: controller.signal,
  };
  return main(argv, io);
}

/** The AWS SDK warns on every run under Node 20 that future versions need Node 22; it is noise on a CLI's stderr. */
function muteSdkNodeWarning(): void {
  const original = process.emitWarning.bind(process);
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]): void => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.startsWith('NodeVersionSupportWarning')) return;
    (original as (w: string | Error, ...r: unknown[]) => void)(warning, ...rest);
  }) as typeof process.emitWarning;
}
