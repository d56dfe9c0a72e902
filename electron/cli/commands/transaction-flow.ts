/**
 * The shared flow of the write commands (claim, release, repair): preview, print, guard, confirm,
 * execute, report. Nothing is sent on --dry-run, on a read-only connection, or without a
 * confirmation (typed on a terminal, or --yes).
 */
import { writableByDefault } from '../../../shared/endpoint-trust';
import type { Convention, PlainKey } from '../../../shared/model';
import type { Result } from '../../../shared/result';
import type { Outcome, Preview, TransactionOperation } from '../../../shared/transactions/types';
import type { TransactionContext } from '../../services/transactions/service';
import { transactionContext as serviceTransactionContext } from '../../services/transactions/transaction-context';
import { connectionContext, type ConnectionContext } from '../../services/context/request-context';
import type { Verification } from '../../../shared/transactions/verify';
import type { CliIo, FlagSpecs, FlagValues } from '../command';
import { EXIT_ERROR, EXIT_OK, EXIT_PROBLEMS, usageError } from '../command';
import type { Connection } from '../connection';

/** Exit code for "refused by a condition or a guard" (taken, stale, still held, read-only). */
export const EXIT_REFUSED = EXIT_PROBLEMS;

/** Flags of every write command. */
export const WRITE_FLAGS: FlagSpecs = {
  'dry-run': {
    type: 'boolean',
    description: 'print the plan and the exact TransactItems, and send nothing (with --json: the whole preview as JSON)',
  },
  yes: { type: 'boolean', description: 'do not ask for the typed confirmation' },
  json: { type: 'boolean', description: 'print only JSON on stdout' },
  'allow-writes': {
    type: 'boolean',
    description:
      'allow writes on an AWS (--profile) connection or an --endpoint on another host; loopback endpoints are writable by default',
  },
};

/** Exit codes of the write commands, for their help text. */
export const WRITE_EXIT_CODES =
  'Exit codes: 0 executed and verified (or --dry-run), 1 refused by a condition or a guard (taken, stale, still held, read-only) or applied but NOT verified on re-read, 2 error (an unknown outcome says so).';

/** Parses a key flag given as JSON, e.g. `--account '{"PK":"ACCT#a1","SK":"PROFILE"}'`. */
export function keyFlag(values: FlagValues, name: string): PlainKey | undefined {
  const text = values[name];
  if (typeof text !== 'string') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return usageError(`--${name}: not JSON; give the item key as JSON, e.g. '{"PK":"ACCT#a1","SK":"PROFILE"}'`, name);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json) || Object.keys(json).length === 0)
    return usageError(`--${name}: give a JSON object of key attributes`, name);
  for (const [k, v] of Object.entries(json)) {
    if (typeof v !== 'string' && typeof v !== 'number') usageError(`--${name}: key attribute ${k} must be a string or a number`, name);
  }
  return json as PlainKey;
}

/** What the CLI says to allow writes on a read-only connection. */
export const CLI_ALLOW_WRITES = 'pass --allow-writes to write through an AWS profile or to an endpoint on another host';

/**
 * The request context of a CLI connection, by the app's read-only policy (`writableByDefault`: a
 * loopback endpoint without a profile) with --allow-writes as the explicit allow. A --profile stays
 * read-only even when its endpoint_url (or AWS_ENDPOINT_URL) points somewhere local.
 */
export function cliConnectionContext(
  connection: Connection,
  values: FlagValues,
  env: NodeJS.ProcessEnv,
  effectiveEndpoint: string | undefined,
): ConnectionContext {
  const { target } = connection;
  const secrets = env.AWS_SECRET_ACCESS_KEY ? [env.AWS_SECRET_ACCESS_KEY, env.AWS_SESSION_TOKEN ?? ''].filter(Boolean) : undefined;
  return connectionContext({
    // One CLI process previews and executes on one connection: its label is its id.
    connectionId: `cli:${target.label}`,
    target,
    client: connection.client,
    writable:
      writableByDefault({ profile: target.profile, endpoint: connection.local ? effectiveEndpoint : undefined }) ||
      values['allow-writes'] === true,
    allowWrites: CLI_ALLOW_WRITES,
    ...(secrets ? { secrets } : {}),
    endpoint: effectiveEndpoint,
    local: connection.local,
  });
}

/** The transaction context of a CLI connection: the services' one mapping over `cliConnectionContext`. */
export function transactionContext(
  connection: Connection,
  values: FlagValues,
  env: NodeJS.ProcessEnv,
  effectiveEndpoint: string | undefined,
): TransactionContext {
  return serviceTransactionContext(cliConnectionContext(connection, values, env, effectiveEndpoint));
}

/** A preview as people read it. */
export function previewText(p: Preview): string {
  const lines = [
    p.summary,
    `  on ${p.connection.label} (region ${p.connection.region}${p.connection.endpoint ? `, endpoint ${p.connection.endpoint}` : ''}), table ${p.table}`,
    ...p.actions.map((a) => `  ${a.index + 1}. ${a.explanation}`),
    'Guarded:',
    ...p.guards.guarded.map((g) => `  - ${g}`),
  ];
  if (p.guards.notGuarded.length > 0) lines.push('Not guarded:', ...p.guards.notGuarded.map((g) => `  - ${g}`));
  lines.push(`Preview ${p.id}, ClientRequestToken ${p.input.ClientRequestToken}, valid until ${p.expiresAt}`);
  return `${lines.join('\n')}\n`;
}

/** An outcome as people read it. */
export function outcomeText(o: Outcome): string {
  switch (o.status) {
    case 'succeeded':
      // The service's message already starts with "done:" ("done: done: 1 action(s)" otherwise).
      return `${o.message.startsWith('done') ? o.message : `done: ${o.message}`}\n`;
    case 'refused':
      return `${o.message}\n`;
    case 'cancelled':
      return `cancelled, nothing was written:\n${o.reasons
        .filter((r) => r.code !== 'None')
        .map((r) => `  action ${r.index + 1}${r.action ? ` (${r.action.operation} ${r.action.keyText})` : ''}: ${r.message}`)
        .join('\n')}\n`;
  }
}

/** What the re-reads after an execute found, as people read it. */
export function verificationText(v: Verification): string {
  if (v.verified) return 'applied and verified: every written item re-read as written\n';
  return `applied, NOT verified:\n${[...v.differences, ...v.unchecked.map((u) => `not checked: ${u}`)].map((d) => `  - ${d}`).join('\n')}\n`;
}

/** The exit code of an outcome. */
export function outcomeExit(o: Outcome): number {
  return o.status === 'succeeded' ? EXIT_OK : EXIT_REFUSED;
}

/** The exit code of an executed write: as for repair, applied but not seen as written on re-read is not a clean exit. */
export function writeExit(o: Outcome, verification: Verification | undefined): number {
  return verification && !verification.verified ? EXIT_REFUSED : outcomeExit(o);
}

/**
 * The exit code of a service error: guards (read-only, still held) are refusals, and so is a value
 * whose lock is not there to release (the table already says what the command wanted); the rest errors.
 */
export function errorExit(kind: string, field?: string): number {
  return kind === 'read-only' || kind === 'conflict' || (kind === 'not-found' && field === 'value') ? EXIT_REFUSED : EXIT_ERROR;
}

/** Asks on the terminal for `expected` to be typed back; undefined when there is no terminal. */
export async function askOnTerminal(io: CliIo, question: string): Promise<string | undefined> {
  if (!io.interactive || !process.stdin.isTTY) return undefined;
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/** A convention as the write commands got it: given, a preset, or detected (with its confidence and evidence). */
export interface ConventionInUse {
  readonly convention: Convention;
  readonly source: string;
  readonly detection?: { readonly confidence: number; readonly evidence: readonly string[] };
}

/** Where the convention came from, for the JSON output (what the writes rest on). */
export function conventionOrigin(resolved: ConventionInUse): { source: string; confidence?: number; evidence?: readonly string[] } {
  return {
    source: resolved.source,
    ...(resolved.detection ? { confidence: resolved.detection.confidence, evidence: resolved.detection.evidence } : {}),
  };
}

/**
 * Says what the writes rest on — a detected convention with its confidence and evidence, on stderr
 * before anything else — and refuses to send unattended (`--execute`/`--yes`) from a detection below
 * confidence 1: a wrong guess writes keys the application never checks. Returns the exit code when refused.
 */
export function conventionGate(io: CliIo, values: FlagValues, resolved: ConventionInUse, what: string): number | undefined {
  if ((values.json !== true || io.interactive) && resolved.detection)
    io.stderr(
      `convention ${resolved.source} (confidence ${resolved.detection.confidence}):\n${resolved.detection.evidence.map((e) => `  ${e}`).join('\n')}\n`,
    );
  if (values.yes !== true || resolved.detection === undefined || resolved.detection.confidence >= 1) return undefined;
  io.stderr(
    `locksmith: the convention was detected with confidence ${resolved.detection.confidence}: ${what} from a guess are not sent unattended; nothing was sent — to fix: review \`locksmith detect\`'s output and pass it as --convention FILE, or run without --yes to read the evidence and confirm\n`,
  );
  return EXIT_REFUSED;
}

/** What a write command needs to run its transaction. */
export interface WriteRun {
  readonly io: CliIo;
  readonly values: FlagValues;
  readonly ctx: TransactionContext;
  readonly table: string;
  readonly resolved: ConventionInUse;
  readonly operation: TransactionOperation;
}

function printError(run: WriteRun, error: { kind: string; message: string; fix?: string; field?: string }, preview?: Preview): number {
  if (run.values.json === true) run.io.stdout(`${JSON.stringify({ ...(preview ? { preview } : {}), error })}\n`);
  const refused = errorExit(error.kind, error.field) === EXIT_REFUSED;
  run.io.stderr(`locksmith: ${refused ? 'refused: ' : ''}${error.message}${error.fix ? ` — to fix: ${error.fix}` : ''}\n`);
  return errorExit(error.kind, error.field);
}

/** A dry run as people read it: the plan, the exact request (no copy-as code), and that nothing was sent. */
export function dryRunText(p: Preview): string {
  return `${previewText(p)}Request (TransactWriteItems input):\n${JSON.stringify(p.input, null, 2)}\nDry run: nothing was sent. --json prints the whole preview, with copy-as commands.\n`;
}

/** Preview → (dry run | guards → confirmation → execute) → report; returns the exit code. */
export async function runWrite(run: WriteRun): Promise<number> {
  const { io, values, ctx } = run;
  const json = values.json === true;
  // A dry run sends nothing: it says what it rests on, and is never refused.
  const refused = conventionGate(io, values['dry-run'] === true ? { ...values, yes: false } : values, run.resolved, 'writes');
  if (refused !== undefined) return refused;
  const { previewTransaction, executePreview, readOnlyRefusal } = await import('../../services/transactions/service');
  const previewed: Result<Preview> = await previewTransaction(ctx, {
    table: run.table,
    convention: run.resolved.convention,
    operation: run.operation,
  });
  if (!previewed.ok) return printError(run, previewed.error);
  const preview = previewed.value;
  if (values['dry-run'] === true) {
    io.stdout(json ? `${JSON.stringify(preview, null, 2)}\n` : dryRunText(preview));
    return EXIT_OK;
  }
  if (!json) io.stdout(previewText(preview));
  // --json asking on a terminal: what is typed back confirms what is shown, so the plan goes to stderr.
  else if (values.yes !== true) io.stderr(previewText(preview));
  // Refused before asking for the confirmation, by the same check execute makes.
  const readOnly = readOnlyRefusal(ctx);
  if (readOnly) return printError(run, readOnly, preview);
  let confirmation: string;
  if (values.yes === true) confirmation = preview.confirm;
  else {
    const typed = await askOnTerminal(io, `Type ${preview.confirm} to ${preview.kind} (anything else cancels): `);
    if (typed === undefined)
      return printError(
        run,
        { kind: 'validation', message: 'no terminal to confirm on: nothing was sent', fix: 'pass --yes to confirm non-interactively' },
        preview,
      );
    if (typed !== preview.confirm)
      return printError(run, { kind: 'validation', message: 'the confirmation did not match: nothing was sent' }, preview);
    confirmation = typed;
  }
  const executed = await executePreview(ctx, { previewId: preview.id, confirmation });
  if (!executed.ok) return printError(run, executed.error, preview);
  const outcome = executed.value;
  // "Verified" means verified: every written item re-read (consistently) and compared with what was written.
  const verification =
    outcome.status === 'succeeded'
      ? await (await import('../../services/transactions/verify-writes')).verifyExecuted(ctx.client, preview)
      : undefined;
  io.stdout(
    json
      ? `${JSON.stringify({ convention: conventionOrigin(run.resolved), preview, outcome, ...(verification ? { verification } : {}) })}\n`
      : `${outcomeText(outcome)}${verification ? verificationText(verification) : ''}`,
  );
  return writeExit(outcome, verification);
}
