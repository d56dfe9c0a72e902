/**
 * `locksmith audit --all-tables`: every table at the connection, each one that holds locks audited by
 * the single audit itself (the audit command's own run, on this one connection, with `--json`), a
 * bounded number at once, then one summary. Each audited table's `summary` is therefore exactly what
 * `audit --table` gives for it, and its exit code is the single audit's. (The audit reads its own
 * detection sample after the survey's: a second bounded read, the price of running the very same audit.)
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditReport } from '../../shared/audit/types';
import { optionalInt, optionalString } from './args';
import type { CliCommand, CliIo, FlagValues } from './command';
import { CliError, EXIT_ERROR, EXIT_OK, unwrap, usageError } from './command';
import type { Connection } from './connection';
import { openConnection } from './connection';
import { presetFlag } from './convention-source';
import { fleetText, type TableOutcome } from './all-tables-text';
import { describeTable, listAllTables } from '../services/dynamo/tables';
import { defaultSegments, effectiveEndpoint } from '../services/dynamo/client';

export type { TableOutcome, TableStatus } from './all-tables-text';

/** Tables audited at the same time (each scan runs its own parallel segments). */
export const TABLES_AT_ONCE = 2;

/** The exit code of a table: the single audit's, 2 for one that needs a convention, failed or was not started, 0 for one with nothing to audit. */
export function tableExit(outcome: TableOutcome): number {
  if (outcome.exit !== undefined) return outcome.exit;
  return outcome.status === 'no-locks' || outcome.status === 'empty' ? EXIT_OK : EXIT_ERROR;
}

/** The worst of the tables' exit codes (0 for none). */
export function fleetExit(outcomes: readonly TableOutcome[]): number {
  return outcomes.reduce((worst, o) => Math.max(worst, tableExit(o)), EXIT_OK);
}

const failed = (table: string, reason: string, locks: boolean | null = null): TableOutcome => ({
  table,
  locks,
  status: 'failed',
  complete: false,
  reason,
});

/** A captured io for one table's audit: its JSON report and its error lines, the run's signal. */
function captureFor(io: CliIo): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    env: io.env,
    interactive: false,
    signal: io.signal,
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    out: () => out,
    err: () => err,
  };
}

/** The convention file `<DIR>/<table>.json` for a table, when --convention names a folder and it holds one. */
async function conventionFileFor(dir: string | undefined, table: string): Promise<string | undefined> {
  if (dir === undefined) return undefined;
  const path = join(dir, `${table}.json`);
  const info = await stat(path).catch(() => undefined);
  return info?.isFile() ? path : undefined;
}

/** Surveys and (when it holds locks) audits one table. */
async function oneTable(
  name: string,
  connection: Connection,
  values: FlagValues,
  io: CliIo,
  debug: boolean,
  audit: CliCommand,
): Promise<TableOutcome> {
  if (io.signal.aborted) return { table: name, locks: null, status: 'not-started', complete: false, reason: 'cancelled before it started' };
  const file = await conventionFileFor(optionalString(values, 'convention'), name);
  let convention: TableOutcome['convention'];
  if (file === undefined) {
    // A table with its own convention file needs no survey.
    const { surveyTable } = await import('../services/fleet/survey');
    const described = await describeTable(connection.client, name, { signal: io.signal, errorContext: connection.errorContext });
    if (!described.ok) return failed(name, described.error.message);
    const preset = presetFlag(values);
    const segments = optionalInt(values, 'segments', 'audit', 1, 1_000_000) ?? defaultSegments(connection.target, io.env);
    const surveyed = await surveyTable(connection.client, described.value, {
      segments,
      signal: io.signal,
      errorContext: connection.errorContext,
      ...(preset ? { preset } : {}),
    });
    if (!surveyed.ok) return failed(name, surveyed.error.message);
    const locks = surveyed.value;
    if (locks.kind === 'empty') return { table: name, locks: false, status: 'empty', complete: true, reason: 'the table is empty' };
    if (locks.kind === 'no-locks')
      return {
        table: name,
        locks: false,
        status: 'no-locks',
        complete: true,
        reason: `no lock items in a sample of ${locks.sampled} items`,
      };
    const { detection } = locks;
    convention = { preset: detection.convention.preset, source: preset ? 'preset' : 'detected', confidence: detection.confidence };
    if (detection.confidence < 1) {
      return {
        table: name,
        locks: true,
        status: 'needs-convention',
        convention,
        evidence: detection.evidence,
        complete: false,
        reason: `needs a convention: detection is not sure (confidence ${detection.confidence}); pass --convention DIR with ${name}.json, or --preset`,
      };
    }
  } else convention = { preset: 'file', source: 'file' };
  // The single audit itself, on this connection, as `audit --table <name> --json` (with the table's convention file, if any).
  const capture = captureFor(io);
  const tableValues: FlagValues = { ...values, 'all-tables': undefined, table: name, json: true, convention: file };
  let exit: number;
  try {
    exit = await audit.run({ values: tableValues, io: capture, debug, connection });
  } catch (error) {
    return failed(name, error instanceof CliError ? error.appError.message : error instanceof Error ? error.message : String(error), true);
  }
  let report: AuditReport;
  try {
    report = JSON.parse(capture.out()) as AuditReport;
  } catch {
    return failed(name, /^locksmith: (.+)$/m.exec(capture.err())?.[1] ?? `the audit printed no report (exit ${exit})`, true);
  }
  return {
    table: name,
    locks: true,
    status: 'audited',
    convention: { ...convention, preset: report.convention.preset },
    complete: report.complete,
    ...(report.reason !== undefined ? { reason: report.reason } : {}),
    exit,
    items: report.scanned,
    accounts: report.accounts,
    lockItems: report.locks,
    summary: report.summary,
    ...(Array.isArray((report as { warnings?: unknown }).warnings)
      ? { warnings: (report as unknown as { warnings: unknown[] }).warnings }
      : {}),
  };
}

/** Runs `tasks` at most `limit` at a time, in order of start; results in the tasks' order. */
async function bounded<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

/** Audits every table at the connection; returns the worst exit code (see tableExit). */
export async function auditAllTables(values: FlagValues, io: CliIo, debug: boolean, audit: CliCommand): Promise<number> {
  if (values.table !== undefined) usageError('use either --table or --all-tables, not both', 'table');
  if (values.export !== undefined)
    usageError('--all-tables audits the live tables; an export is one table: use --export without --all-tables', 'export');
  // Flags every table's audit would refuse are refused once, before any table is read.
  presetFlag(values);
  optionalInt(values, 'segments', 'audit', 1, 1_000_000);
  const dir = optionalString(values, 'convention');
  if (dir !== undefined && values.preset !== undefined) usageError('use either --preset or --convention, not both', 'preset');
  if (dir !== undefined && !(await stat(dir).catch(() => undefined))?.isDirectory())
    usageError(`--convention with --all-tables names a folder of <table>.json files; ${dir} is not a folder`, 'convention');
  const connection = await openConnection(values, io);
  try {
    const listed = unwrap(
      await listAllTables(connection.client, { local: connection.local, signal: io.signal, errorContext: connection.errorContext }),
    );
    const endpoint = effectiveEndpoint(connection.target, io.env).url ?? 'aws';
    let done = 0;
    const outcomes = await bounded(listed.names.length, TABLES_AT_ONCE, async (i) => {
      const outcome = await oneTable(listed.names[i]!, connection, values, io, debug, audit);
      done++;
      if (io.interactive) io.stderr(`\r${done}/${listed.names.length} tables   `);
      return outcome;
    });
    if (io.interactive && listed.names.length > 0) io.stderr('\n');
    const cancelled = io.signal.aborted;
    const complete = !cancelled && outcomes.every((o) => o.complete);
    const document = {
      endpoint,
      region: connection.target.region,
      complete,
      ...(cancelled ? { reason: 'cancelled' } : {}),
      tables: outcomes,
      ...(listed.hint ? { hint: listed.hint } : {}),
    };
    io.stdout(values.json === true ? `${JSON.stringify(document)}\n` : fleetText(document));
    const code = fleetExit(outcomes);
    if (code === EXIT_ERROR) {
      const reasons = outcomes.filter((o) => tableExit(o) === EXIT_ERROR).map((o) => `${o.table}: ${o.reason ?? 'incomplete'}`);
      io.stderr(`locksmith: incomplete: ${cancelled ? 'cancelled; ' : ''}${reasons.join('; ')}\n`);
    }
    return code;
  } finally {
    connection.client.destroy();
  }
}
