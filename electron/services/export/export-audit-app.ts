/**
 * The app's audit from an export (`audit.startExport`): the same steps as `locksmith audit --export`
 * (export-prepare.ts, then the DuckDB child of run-export-audit.ts) run as an audit run of the
 * registry, so the inspector shows it over `audit.events` like a live audit: progress (download,
 * verify, load, each check) while it runs, then the problem groups as one delta and `done`.
 * Healthy accounts are never pulled out of DuckDB, so only problem groups are shown.
 * Confirming against the live table is export-confirm-app.ts.
 */
import { randomUUID } from 'node:crypto';
import { isAbsolute, join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { AuditReport } from '../../../shared/audit/types';
import type { AuditStarted } from '../../../shared/contract/views';
import { checkKeysFit } from '../../../shared/conventions/file';
import { detectConvention } from '../../../shared/conventions/detect';
import type { Convention, KeySchema } from '../../../shared/model';
import { emptySummary } from '../../../shared/audit/problem-rules';
import { err, ok, type Result } from '../../../shared/result';
import type { ScanProgress } from '../../../shared/scan-types';
import type { AuditRuns, AuditRunState } from '../audit/audit-runs';
import { DataDirError, ensureDataDir } from '../connections/data-dir';
import type { SettingsStore } from '../connections/settings-store';
import { targetKey } from '../context/client-pool';
import { historyTarget } from '../history/audit-history';
import { savedConvention } from '../conventions/convention-methods';
import type { ConnectionContext } from '../context/request-context';
import { scrubSecrets } from '../dynamo/secrets';
import { describeTable } from '../dynamo/tables';
import { s3Source } from './export-s3-source';
import { inferKeys } from './export-sample';
import { exportConventionRefusal, exportTableRefusal, localExports, prepareExport, type PreparedExport } from './export-prepare';
import type { ExportAuditReport, ExportSource } from './export-audit-types';
import { ExportError } from './read-export';
import { runExportAudit } from './run-export-audit';

/** What `audit.startExport` asks for, after validation. */
export interface StartExportArgs {
  readonly table: string;
  readonly path: string;
  readonly convention?: Convention | undefined;
  readonly memoryMb?: number | undefined;
  readonly s3Endpoint?: string | undefined;
}

/** The stores and folders an export audit uses. */
export interface ExportAuditStores {
  readonly runs: AuditRuns;
  /** The app's data folder: the S3 cache and DuckDB's working files go below its `cache/`. */
  readonly dataDir: string;
  /** Where the table's saved convention is (the app's convention policy: given, else saved, else detected). */
  readonly settings: SettingsStore;
  readonly env?: NodeJS.ProcessEnv | undefined;
}

/** Default DuckDB memory limit of an app run (as the CLI's --memory). */
const DEFAULT_MEMORY_MB = 512;

/** The key schema: the live table's when it can be described, else inferred from the export's items (with the convention's preset). */
async function keysFor(
  ctx: ConnectionContext,
  table: string,
  sample: Parameters<typeof inferKeys>[0],
  convention: Convention | undefined,
): Promise<Result<KeySchema>> {
  const described = await describeTable(ctx.client, table, { local: ctx.local });
  if (described.ok) return ok(described.value.keys);
  const inferred = inferKeys(sample, convention && convention.preset !== 'custom' ? convention.preset : undefined);
  return inferred
    ? ok(inferred.keys)
    : err(
        'validation',
        `${table} cannot be described (${described.error.message}) and the export's items do not say its key schema: choose a convention`,
        { field: 'convention' },
      );
}

/** The app's convention policy on the export: given (checked against the keys), else saved, else detected from the export's sample. */
async function chooseConvention(
  given: Convention | undefined,
  saved: () => Promise<Convention | undefined>,
  keys: KeySchema,
  sample: Parameters<typeof detectConvention>[1],
): Promise<Result<Convention>> {
  if (given) {
    const checked = checkKeysFit(given, keys);
    return checked.ok ? checked : err('validation', `convention: ${checked.error.message}`, { field: 'convention' });
  }
  const kept = await saved();
  if (kept) return ok(kept);
  const detected = detectConvention(keys, sample);
  return detected.ok
    ? ok(detected.value.convention)
    : err('validation', `no convention detected in the export's items: ${detected.error.message}`, { field: 'convention' });
}

/** The report of a run that did not finish: nothing from it is shown as complete (it still says it was of an export). */
function incompleteReport(table: string, convention: Convention, reason: string, source: ExportSource): ExportAuditReport {
  return {
    table,
    complete: false,
    reason,
    convention,
    scanned: 0,
    accounts: 0,
    locks: 0,
    summary: emptySummary(),
    problems: [],
    warnings: [],
    source,
  };
}

/**
 * Opens the export (an s3:// one: its manifests and the sample's files first), chooses the key schema
 * and the convention, then runs the rest in the background as an audit run. A bad path or manifest
 * is a `validation` error naming the file; a bad data file later ends the run incomplete, naming it.
 */
export async function startExportAudit(
  ctx: ConnectionContext,
  stores: ExportAuditStores,
  args: StartExportArgs,
): Promise<Result<AuditStarted>> {
  const s3 = s3Source(ctx, args, stores.env);
  if (!s3.ok) return s3;
  const cache = join(stores.dataDir, 'cache');
  // The cache holds the whole exported table: the data folder's guard applies (0700, refused when others can write).
  try {
    for (const dir of [stores.dataDir, cache, join(cache, 's3')]) await ensureDataDir(dir);
  } catch (error) {
    if (error instanceof DataDirError) return err('validation', error.message, { field: 'path' });
    throw error;
  }
  // One client for the whole run (the sample's files now, the rest in the background): destroyed
  // here when no run starts, by the run when it ends.
  const client = s3.value ? await s3.value() : undefined;
  let opened: Result<Opened>;
  try {
    opened = await openForRun(ctx, stores, args, cache, client);
  } catch (error) {
    client?.destroy();
    throw error;
  }
  if (!opened.ok) {
    client?.destroy();
    return opened;
  }
  const { full, local, convention } = opened.value;
  const runId = `run_${randomUUID().replace(/-/g, '')}`;
  const run = stores.runs.add(runId);
  run.target = targetKey(ctx.connectionId, ctx.target);
  run.history = { target: historyTarget(ctx.target), source: 'export' };
  const { summary } = full;
  const source: ExportSource = { kind: 'export', exportArn: summary.exportArn, exportTime: summary.exportTime, itemsRead: 0 };
  void runInBackground(stores.runs, runId, run, { args, convention, cache, client, local, source });
  return ok({
    runId,
    convention,
    source: { kind: 'export', exportArn: summary.exportArn, exportTime: summary.exportTime, itemCount: summary.itemCount },
  });
}

/** An export opened for a run: its manifests, its local folder (s3://: the sample's files so far), the convention to audit it with. */
interface Opened {
  readonly full: PreparedExport['full'];
  readonly local: readonly string[];
  readonly convention: Convention;
}

/** Opens and samples the export, checks it is of this table, and chooses the key schema and the convention. */
async function openForRun(
  ctx: ConnectionContext,
  stores: ExportAuditStores,
  args: StartExportArgs,
  cache: string,
  client: S3Client | undefined,
): Promise<Result<Opened>> {
  // The contract accepts both path styles; only this machine's own absolute form is read (`C:/x` on Linux is relative).
  if (!args.path.startsWith('s3://') && !isAbsolute(args.path))
    return err('validation', `${args.path} is not an absolute path on this machine`, { field: 'path' });
  let prepared: PreparedExport;
  let local: string[];
  try {
    local = await localExports([args.path], { s3: () => client!, cacheDir: join(cache, 's3'), sampleOnly: true });
    prepared = await prepareExport(local);
  } catch (error) {
    if (error instanceof ExportError) return err('validation', error.message, { field: 'path' });
    throw error;
  }
  const otherTable = exportTableRefusal(prepared.full, args.table);
  if (otherTable) return err('validation', otherTable, { field: 'path' });
  const keys = await keysFor(ctx, args.table, prepared.sample, args.convention);
  if (!keys.ok) return keys;
  const convention = await chooseConvention(
    args.convention,
    () => savedConvention(stores.settings, ctx.connectionId, args.table),
    keys.value,
    prepared.sample,
  );
  if (!convention.ok) return convention;
  const refused = exportConventionRefusal(convention.value, args.table);
  if (refused) return err('validation', refused, { field: 'convention' });
  return ok({ full: prepared.full, local, convention: convention.value });
}

interface Background {
  readonly args: StartExportArgs;
  readonly convention: Convention;
  readonly cache: string;
  /** For an s3:// export: the client the rest of its files come down with (destroyed here). */
  readonly client: S3Client | undefined;
  /** The local folder (an s3:// export: its cache folder, sample files only so far). */
  readonly local: readonly string[];
  /** What an incomplete report says it was of. */
  readonly source: ExportSource;
}

/** The child's step names in words (the checks keep their SQL step names). */
function stepText(step: string): string {
  if (step.startsWith('verify')) return `${step}: every file's MD5, gzip and item count`;
  if (step === 'load') return 'load: reading the items into DuckDB';
  if (step === 'report') return 'report: the problem rows into the audit engine';
  return `check ${step}`;
}

/** The rest of the run: the remaining downloads, the DuckDB child, then the problem groups and `done` (or an incomplete end). */
async function runInBackground(runs: AuditRuns, runId: string, run: AuditRunState, job: Background): Promise<void> {
  const { args, convention } = job;
  const started = performance.now();
  const signal = run.controller.signal;
  let files = { done: 0, total: 0 };
  const progress = (step: string, items = 0): ScanProgress => ({
    items,
    pages: files.done,
    segments: files.total,
    segmentsDone: files.done,
    capacityUnits: 0,
    elapsedMs: Math.round(performance.now() - started),
    retries: 0,
    step,
  });
  let report: AuditReport;
  try {
    let local = [...job.local];
    const { client } = job;
    if (client) {
      try {
        local = await localExports([args.path], {
          s3: () => client,
          cacheDir: join(job.cache, 's3'),
          signal,
          onProgress: (_url, p) => {
            files = { done: p.filesDone, total: p.files };
            runs.progress(runId, run, progress(`download ${p.filesDone}/${p.files} files (${p.filesKept} already cached)`));
          },
        });
      } finally {
        client.destroy();
      }
    }
    const result = await runExportAudit(
      {
        exports: local,
        convention,
        table: args.table,
        cacheDir: join(job.cache, 'export-audit'),
        memoryMb: args.memoryMb ?? DEFAULT_MEMORY_MB,
        rows: true,
      },
      { signal, onStep: (step) => runs.progress(runId, run, progress(stepText(step))) },
    );
    report = result.report;
    const { scanned, accounts, locks, summary } = report;
    runs.delta(
      runId,
      run,
      { upserted: result.rows ?? [], removed: [], counts: { scanned, accounts, locks, summary } },
      progress('done', scanned),
    );
  } catch (error) {
    // S3's and DuckDB's messages can echo what signed the request: scrubbed like every other error.
    const reason = signal.aborted ? 'cancelled' : scrubSecrets(error instanceof Error ? error.message : String(error));
    report = incompleteReport(args.table, convention, `the audit of the export did not finish: ${reason}`, job.source);
  }
  runs.finish(runId, run, report);
}
