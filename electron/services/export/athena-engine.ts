/**
 * The Athena engine of an export audit: an external table over the export's data folder (the DDL of
 * athena-sql.ts), the same two composed queries (counts, pulled rows) as Athena queries — started,
 * polled with backoff, their results paged — and the rows fed to the same JS engine as DuckDB's, so
 * the report is the one the DuckDB engine writes on the same rows. The table is dropped at the end,
 * on failure and on cancel (the running query is stopped first). Untested against real Athena: the
 * tests mock the SDK at its edge (AWS cannot run here).
 */
import { randomBytes } from 'node:crypto';
import {
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
  type AthenaClient,
  type GetQueryResultsCommandOutput,
} from '@aws-sdk/client-athena';
import type { AuditReport } from '../../../shared/audit/types';
import type { Convention } from '../../../shared/model';
import { athenaDdl, composedQueries } from './athena-sql';
import { ATHENA_DIALECT, sqlIdent } from './sql-items';
import { heldOf } from './check-sql';
import { reportFromPulled, type SqlCounts } from './pulled-report';

/** Options of one Athena export audit. */
export interface AthenaAuditOptions {
  readonly client: AthenaClient;
  readonly convention: Convention;
  /** The audited table's name, as the report names it. */
  readonly table: string;
  /** The full export's data folder, `s3://…/AWSDynamoDB/<id>/data/`. */
  readonly dataLocation: string;
  /** `s3://bucket/prefix` for Athena's query results. */
  readonly outputLocation: string;
  readonly workgroup?: string;
  /** The Glue database the external table is created in (default `default`). */
  readonly database?: string;
  /** manifest-summary.json's itemCount: Athena must count exactly these items, or the report is not complete. */
  readonly expectedItems: number;
  readonly signal?: AbortSignal;
  readonly onStep?: (step: string) => void;
  /** Waits between polls; injectable so that tests do not wait. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The external table's name (default: a fresh `locksmith_<table>_<random>`). */
  readonly tableName?: string;
}

/** The report plus what Athena did. */
export interface AthenaAuditResult {
  readonly report: AuditReport;
  readonly pulled: number;
  /** Bytes Athena scanned over all queries: what the audit costs (Athena bills per byte scanned). */
  readonly scannedBytes: number;
  /** Set when the external table could not be dropped at the end: the name to drop by hand and why. */
  readonly dropFailed?: string;
}

/** An Athena query or call that failed, was cancelled or was refused (AccessDenied, …): never a complete report. */
export class AthenaAuditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AthenaAuditError';
  }
}

/** Poll delays: 250 ms doubling to 5 s (Athena queries take seconds to minutes; GetQueryExecution is throttled per account). */
export function pollDelay(attempt: number): number {
  return Math.min(5_000, 250 * 2 ** attempt);
}

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** A fresh external table name: Glue lowercases names, and two audits must never share one. */
export function externalTableName(table: string): string {
  return `locksmith_${table
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 80)}_${randomBytes(4).toString('hex')}`;
}

function callError(what: string, error: unknown): AthenaAuditError {
  const name = (error as { name?: string }).name ?? 'Error';
  const message = error instanceof Error && error.message && error.message !== name ? `: ${error.message}` : '';
  const fix = /AccessDenied|UnauthorizedOperation|NotAuthorized/i.test(name + message)
    ? ' (needs athena:StartQueryExecution/GetQueryExecution/GetQueryResults/StopQueryExecution, glue:CreateTable/DeleteTable/GetTable, read of the export and write of --athena-output)'
    : '';
  return new AthenaAuditError(`Athena ${what} failed: ${name}${message}${fix}`);
}

/** One query's run: start, poll until it ends, stop it when cancelled. */
class QueryRunner {
  scannedBytes = 0;
  /** Queries Athena accepted: once the CREATE was accepted, the table may exist and must be dropped. */
  started = 0;
  private running: string | undefined;

  constructor(private readonly options: AthenaAuditOptions) {}

  /** Runs `sql` to completion and returns its execution id; throws AthenaAuditError unless it SUCCEEDED. */
  async run(what: string, sql: string): Promise<string> {
    const { client, signal } = this.options;
    if (signal?.aborted) throw new AthenaAuditError('cancelled');
    let id: string | undefined;
    try {
      const started = await client.send(
        new StartQueryExecutionCommand({
          QueryString: sql,
          QueryExecutionContext: { Database: this.options.database ?? 'default' },
          ResultConfiguration: { OutputLocation: this.options.outputLocation },
          ...(this.options.workgroup ? { WorkGroup: this.options.workgroup } : {}),
        }),
      );
      id = started.QueryExecutionId;
    } catch (error) {
      throw callError(`${what} (StartQueryExecution)`, error);
    }
    if (!id) throw new AthenaAuditError(`Athena ${what}: StartQueryExecution returned no QueryExecutionId`);
    this.running = id;
    this.started++;
    const sleep = this.options.sleep ?? defaultSleep;
    for (let attempt = 0; ; attempt++) {
      await sleep(pollDelay(attempt), signal);
      if (signal?.aborted) throw new AthenaAuditError('cancelled');
      let execution;
      try {
        execution = (await client.send(new GetQueryExecutionCommand({ QueryExecutionId: id }))).QueryExecution;
      } catch (error) {
        throw callError(`${what} (GetQueryExecution ${id})`, error);
      }
      const state = execution?.Status?.State;
      if (state === 'SUCCEEDED' || state === 'FAILED' || state === 'CANCELLED') {
        this.running = undefined;
        this.scannedBytes += execution?.Statistics?.DataScannedInBytes ?? 0;
        if (state === 'SUCCEEDED') return id;
        const reason = execution?.Status?.AthenaError?.ErrorMessage ?? execution?.Status?.StateChangeReason ?? 'no reason given';
        throw new AthenaAuditError(`Athena ${what} ${state} (query ${id}): ${reason}`);
      }
    }
  }

  /** Stops the query still running (after a cancel or an error while polling); best effort. */
  async stop(): Promise<void> {
    const id = this.running;
    this.running = undefined;
    if (id) await this.options.client.send(new StopQueryExecutionCommand({ QueryExecutionId: id })).catch(() => undefined);
  }

  /** Every result row of a SUCCEEDED query, page by page (NextToken), as name → text (absent for NULL). */
  async *rows(what: string, id: string): AsyncGenerator<Record<string, string | null>[]> {
    let token: string | undefined;
    let first = true;
    do {
      if (this.options.signal?.aborted) throw new AthenaAuditError('cancelled');
      let page: GetQueryResultsCommandOutput;
      try {
        page = await this.options.client.send(
          new GetQueryResultsCommand({ QueryExecutionId: id, MaxResults: 1000, ...(token ? { NextToken: token } : {}) }),
        );
      } catch (error) {
        throw callError(`${what} (GetQueryResults ${id})`, error);
      }
      const names = (page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? []).map((c) => c.Name ?? '');
      let rows = (page.ResultSet?.Rows ?? []).map((r) => Object.fromEntries(names.map((n, i) => [n, r.Data?.[i]?.VarCharValue ?? null])));
      // A SELECT's first page starts with the column names as a row.
      if (first && rows.length > 0 && names.every((n) => rows[0]![n] === n)) rows = rows.slice(1);
      first = false;
      yield rows;
      token = page.NextToken;
    } while (token);
  }
}

/** Runs the export audit on Athena; the report is the shared JS engine's on the pulled rows, with Athena's counts. */
export async function athenaAudit(options: AthenaAuditOptions): Promise<AthenaAuditResult> {
  const { convention } = options;
  const name = options.tableName ?? externalTableName(options.table);
  // Fails before any query for a convention the composed queries cannot express.
  const { counts, pulled } = composedQueries(convention, ATHENA_DIALECT, sqlIdent(name));
  const runner = new QueryRunner(options);
  try {
    options.onStep?.('create table');
    await runner.run('CREATE EXTERNAL TABLE', athenaDdl(convention, name, options.dataLocation));
    options.onStep?.('counts');
    const countsId = await runner.run('counts query', counts);
    let countRow: Record<string, string | null> | undefined;
    for await (const rows of runner.rows('counts query', countsId)) countRow ??= rows[0];
    if (!countRow || countRow.scanned === null || countRow.scanned === undefined)
      throw new AthenaAuditError('Athena counts query returned no row');
    const held = heldOf(convention, countRow);
    const sqlCounts: SqlCounts = {
      scanned: countRow.scanned,
      accounts: countRow.accounts ?? null,
      locks: countRow.locks ?? null,
      ...(held ? { held } : {}),
    };
    if (countRow.nokey === undefined || Number(countRow.nokey ?? 0) !== 0)
      throw new AthenaAuditError(
        `Athena read ${countRow.nokey ?? 'an unknown number of'} items without their partition key ${convention.keys.hash.name}: the external table does not map the export's JSON (no report rather than a wrong one)`,
      );
    if (Number(sqlCounts.scanned) !== options.expectedItems)
      throw new AthenaAuditError(
        `Athena read ${sqlCounts.scanned} items from ${options.dataLocation}, manifest-summary.json says ${options.expectedItems}: a data file is missing or unreadable, or the folder holds other files`,
      );
    options.onStep?.('pulled rows');
    const pulledId = await runner.run('pulled-rows query', pulled);
    const { report, pulled: n } = await reportFromPulled(convention, options.table, sqlCounts, runner.rows('pulled-rows query', pulledId));
    const dropFailed = await drop(options, runner, name);
    return { report, pulled: n, scannedBytes: runner.scannedBytes, ...(dropFailed ? { dropFailed } : {}) };
  } catch (error) {
    await runner.stop();
    const dropFailed = runner.started > 0 ? await drop(options, runner, name) : undefined;
    const failure =
      error instanceof AthenaAuditError ? error : new AthenaAuditError(error instanceof Error ? error.message : String(error));
    if (dropFailed) failure.message += `; and ${dropFailed}`;
    throw failure;
  }
}

/** Drops the external table (never the data: it is EXTERNAL); returns why it could not, naming it. */
async function drop(options: AthenaAuditOptions, runner: QueryRunner, name: string): Promise<string | undefined> {
  options.onStep?.('drop table');
  // Not cancellable: a cancelled audit must still clean up after itself.
  const cleanup = new QueryRunner({ ...options, signal: undefined });
  try {
    await cleanup.run('DROP TABLE', `DROP TABLE IF EXISTS \`${name}\``);
    runner.scannedBytes += cleanup.scannedBytes;
    return undefined;
  } catch (error) {
    return `the external table ${options.database ?? 'default'}.${name} could not be dropped (${(error as Error).message}): drop it by hand`;
  }
}
