/**
 * `locksmith audit --export PATH…`: the audit of a DynamoDB export, in a DuckDB child process, with
 * the live audit's report plus `source`; with a connection and --table, every finding is then
 * confirmed against the live table (consistent reads by key) and those no longer true move to `stale`.
 */
import { join, relative, sep } from 'node:path';
import type { KeySchema } from '../../../shared/model';
import { optionalInt, optionalString } from '../args';
import type { CliIo, FlagValues } from '../command';
import { auditExitCode, CliError, EXIT_OK, usageError } from '../command';
import { closeSession, incomplete, openTable, type TableSession } from '../session';
import { recordCliAudit } from '../history-record';
import { athenaTarget, localExports } from './audit-export-aws';
import { ExportError } from '../../services/export/read-export';
import { inferKeys } from '../../services/export/export-sample';
import { exportConventionRefusal, exportTableRefusal, prepareExport } from '../../services/export/export-prepare';
import { tableFromArn } from '../../services/export/layout';
import { presetFlag, resolveConvention } from '../convention-source';
import { runExportAudit } from '../../services/export/run-export-audit';
import { DataDirError, ensureDataDir, resolveDataDir } from '../../services/connections/data-dir';
import { auditText } from '../report-text';

function exportPaths(values: FlagValues): string[] {
  const raw = values.export;
  return typeof raw === 'string' ? [raw] : Array.isArray(raw) ? [...(raw as readonly string[])] : [];
}

/** Runs the audit of an export; returns the exit code (0 clean, 1 problems or a convention warning, 2 error or incomplete). */
export async function auditFromExport(values: FlagValues, io: CliIo): Promise<number> {
  const json = values.json === true;
  const given = exportPaths(values);
  const memoryMb = optionalInt(values, 'memory', 'audit', 64, 1_048_576) ?? 512;
  const engine = optionalString(values, 'engine') ?? 'duckdb';
  if (engine !== 'duckdb' && engine !== 'athena') usageError(`--engine: duckdb or athena (got ${JSON.stringify(engine)})`, 'engine');
  const printSql = optionalString(values, 'print-sql');
  if (printSql !== undefined && printSql !== 'duckdb' && printSql !== 'athena')
    usageError(`--print-sql: duckdb or athena (got ${JSON.stringify(printSql)})`, 'print-sql');
  const athena = engine === 'athena' && printSql === undefined;
  if (athena) {
    if (!optionalString(values, 'athena-output')?.startsWith('s3://'))
      usageError('--engine athena needs --athena-output s3://bucket/prefix/ for query results', 'athena-output');
    if (given.length !== 1 || !given[0]!.startsWith('s3://'))
      usageError(
        '--engine athena reads one full export where it is, on S3: give one --export s3://… (incrementals and local folders: use the DuckDB engine)',
        'export',
      );
  }
  const connected = typeof values.endpoint === 'string' || typeof values.profile === 'string';
  if (connected && optionalString(values, 'table') === undefined)
    usageError('audit --export with a connection needs --table: the live table the findings are confirmed against', 'table');
  const fail = (message: string): number => {
    if (json) io.stdout(`${JSON.stringify({ complete: false, reason: message })}\n`);
    return incomplete(io, message);
  };
  // The cache holds the whole exported table (PII included): the data folder's guard applies to it
  // (created 0700, tightened when others can read it, refused when others can write to it).
  const dataDir = resolveDataDir(io.env);
  try {
    for (const dir of [dataDir, join(dataDir, 'cache'), join(dataDir, 'cache', 's3')]) await ensureDataDir(dir);
  } catch (error) {
    if (error instanceof DataDirError) throw new CliError({ kind: 'validation', message: error.message });
    throw error;
  }
  let session: TableSession | undefined;
  try {
    let paths: string[];
    try {
      paths = await localExports(given, values, io, join(dataDir, 'cache', 's3'), athena);
    } catch (error) {
      if (error instanceof ExportError) return fail(error.message);
      throw error;
    }
    let full;
    let sample;
    try {
      ({ full, sample } = await prepareExport(paths));
    } catch (error) {
      if (error instanceof ExportError) return fail(error.message);
      throw error;
    }
    const table = optionalString(values, 'table') ?? tableFromArn(full.summary.tableArn ?? full.summary.exportArn) ?? 'export';
    let keys: KeySchema;
    if (connected) {
      // Findings are confirmed against --table: it must be the table the export was taken from.
      const otherTable = exportTableRefusal(full, table);
      if (otherTable) return fail(otherTable);
      session = await openTable(values, io, 'audit');
      keys = session.table.keys;
    } else {
      const inferred = inferKeys(sample, presetFlag(values));
      if (!inferred)
        throw new CliError({
          kind: 'validation',
          field: 'export',
          message: `cannot tell the key schema of the exported table from its items`,
          fix: 'give --preset, or a connection and --table so that DescribeTable says it',
        });
      keys = inferred.keys;
      if (!json) io.stderr(`${inferred.evidence}\n`);
    }
    const resolved = await resolveConvention({ table, keys, values, signal: io.signal, sample: async () => sample });
    const refused = exportConventionRefusal(resolved.convention, table);
    if (refused) return fail(refused);
    if (!json && resolved.detection)
      io.stderr(
        `convention ${resolved.source} (confidence ${resolved.detection.confidence}):\n${resolved.detection.evidence.map((e) => `  ${e}`).join('\n')}\n`,
      );
    // The export's data folder on S3, as the cache mirrors it (`<cache>/<bucket>/<key…>`).
    const location = given[0]!.startsWith('s3://')
      ? `s3://${relative(join(resolveDataDir(io.env), 'cache', 's3'), full.dir)
          .split(sep)
          .join('/')}/data/`
      : undefined;
    if (printSql !== undefined) {
      const { printedSql } = await import('../../services/export/print-sql');
      io.stdout(printedSql(resolved.convention, printSql, table, location));
      return EXIT_OK;
    }
    const started = performance.now();
    const onStep = io.interactive ? (step: string) => io.stderr(`\r${step}…          `) : undefined;
    let result;
    try {
      result = athena
        ? await (
            await import('../../services/export/athena-run')
          ).auditOnAthena({
            ...athenaTarget(values, io),
            convention: resolved.convention,
            table,
            full,
            dataLocation: location!,
            signal: io.signal,
            onStep,
            onNote: (note, warning) => (warning || !json) && io.stderr(`${note}\n`),
          })
        : await runExportAudit(
            {
              exports: paths,
              convention: resolved.convention,
              table,
              cacheDir: join(resolveDataDir(io.env), 'cache', 'export-audit'),
              memoryMb,
            },
            { signal: io.signal, onStep },
          );
    } catch (error) {
      if (io.interactive) io.stderr('\n');
      return fail(error instanceof Error ? error.message : String(error));
    }
    if (io.interactive) io.stderr('\n');
    let report = result.report;
    if (session) {
      const { confirmFindings } = await import('../../services/export/confirm');
      const confirmed = await confirmFindings({
        client: session.connection.client,
        table: session.table.name,
        report,
        signal: io.signal,
        errorContext: session.connection.errorContext,
      });
      if (!confirmed.ok) return fail(`confirming against ${session.table.name} failed: ${confirmed.error.message}`);
      report = confirmed.value;
    }
    await recordCliAudit(io, report, session?.connection.target, 'export');
    if (json) io.stdout(`${JSON.stringify(report)}\n`);
    else {
      const files = report.source.incrementals ? report.source.incrementals.length + 1 : 1;
      const progress = {
        items: report.source.itemsRead,
        pages: files,
        segments: files,
        segmentsDone: files,
        capacityUnits: 0,
        elapsedMs: Math.round(performance.now() - started),
        retries: 0,
      };
      io.stdout(`Export ${report.source.exportArn} at ${report.source.exportTime} (${report.source.itemsRead} items read)\n`);
      io.stdout(auditText(report, progress, resolved.source));
      const stale = (report as { stale?: readonly unknown[] }).stale;
      if (stale) io.stdout(`Confirmed against the live table: ${stale.length} finding(s) no longer true (stale).\n`);
    }
    return auditExitCode(report);
  } finally {
    closeSession(session);
  }
}
