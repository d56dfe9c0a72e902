/** `locksmith audit`: scan a table, report every problem; exit 0 clean, 1 problems or a convention warning, 2 error or incomplete. */
import v8 from 'node:v8';
import { shownText } from '../../../shared/terminal-text';
import { CONVENTION_FLAGS, optionalInt, optionalPositive, optionalString } from '../args';
import type { Convention, Item } from '../../../shared/model';
import type { ScanProgress } from '../../../shared/scan-types';
import type { RunAuditOptions } from '../../services/audit/run-audit';
import type { Connection } from '../connection';
import { tablePlace } from '../cache-file';
import { detectionRequest, rememberConvention, startSpeculativeAudit, type SpeculativeAudit } from '../speculative-audit';
import type { CliCommand } from '../command';
import { auditExitCode, unwrap } from '../command';
import { closeSession, incomplete, openTable, progressPrinter } from '../session';
import { conventionFor } from '../table-command';
import { EXPORT_FLAGS } from './audit-export-flags';
import { auditText } from '../report-text';
import { rememberWarnings } from '../warning-memory';
import type { TableSession } from '../session';
import { styleFor } from '../style';
import { fixYoungGeneration } from '../young-generation';
import { recordCliAudit } from '../history-record';

/**
 * MiB per semi-space of V8's young generation during a scan audit (V8's maximum, the default: 16).
 * 1, 2 and 4 all lower the audit's peak RSS about equally, 8 by less (figures: docs/benchmarks.md).
 */
const AUDIT_SEMI_SPACE_MIB = 4;
/**
 * Old-generation growth per full GC during a scan audit (bin/locksmith sets 30 for every command). With
 * the smaller young generation more of each parsed page is promoted before it dies; at 30% that meant
 * measurably more CPU in full GCs, at 50% none (for a little of the saving back).
 */
const AUDIT_HEAP_GROWING_PERCENT = 50;

/** The audit command. */
export const auditCommand: CliCommand = {
  name: 'audit',
  summary: 'Audit a table: every account with its locks, every orphan, missing, duplicate, mismatched or malformed lock.',
  usage:
    'audit --table T [--preset P | --convention FILE] [--segments N] [--json]\n       audit --all-tables [--preset P | --convention DIR] [--json]\n       audit --export PATH [--export PATH…] [--table T --endpoint URL|--profile P] [--memory MB] [--json]\n       audit --export s3://… --engine athena --athena-output s3://… [--athena-workgroup W] [--athena-database D] [--json]',
  flags: {
    table: { type: 'string', valueName: 'T', description: 'the table to audit' },
    ...CONVENTION_FLAGS,
    segments: { type: 'string', valueName: 'N', description: 'parallel scan segments (default 4 on an endpoint, 8 on AWS)' },
    'pages-per-second': { type: 'string', valueName: 'X', description: 'pace the scan: at most X Scan requests per second' },
    'rcu-per-second': {
      type: 'string',
      valueName: 'X',
      description: 'pace the scan: at most X read capacity units per second (AWS reports capacity)',
    },
    json: { type: 'boolean', description: 'print only the JSON report on stdout' },
    'all-tables': {
      type: 'boolean',
      description:
        'audit every table at the connection that holds locks (see below); --convention then names a folder of <table>.json files',
    },
    ...EXPORT_FLAGS,
  },
  details: `
JSON report (--json): {"table", "complete", "reason"?, "scanned", "accounts", "locks", "convention",
  "summary": {"orphan-lock", "missing-lock", "duplicate-value", "owner-mismatch", "malformed-lock"},
  "problems": [{"kind", "rule"?, "value", "lock"?, "accounts"?, "reason"?}]}
From an export (--export): the same report plus "source": {"exportArn", "exportTime", "itemsRead", "incrementals"?};
  with a connection and --table, findings are re-read by key (consistent reads) and those no longer true move to "stale".
  A missing, truncated or corrupted data file, a wrong manifest or a non-DYNAMODB_JSON export: exit 2, the file named.
  "warnings": [{"rule", "kind": "values-elsewhere"|"locks-misread", "counts": {"held", "healthy", "missing",
  "malformed", "embedded", "unmatched"}, "message"}] — rules the table contradicts (see docs/conventions.md, "The write interlock").
Exit codes: 0 complete, clean and no warning; 1 complete with problems or a convention warning (never 0 while a
  warning stands: repair leaves a warned rule to a person); 2 error or incomplete (reason on stderr).
Every table (--all-tables): the tables are listed (all pages); each is sampled: a table without lock items, or an
  empty one, is listed as such (not audited, not an error); one whose detection is sure (confidence 1), or that has
  a file <DIR>/<table>.json under --convention DIR, is audited exactly as \`audit --table\` would (2 tables at once);
  one whose detection is below confidence 1 is listed with its evidence and not audited: it needs a convention.
  One line per table: table, convention and confidence, items, accounts, locks, each problem count, complete or why not.
  JSON: {"endpoint", "region", "complete", "reason"?, "tables": [{"table", "locks" (holds lock items: true, false,
  null when unknown), "status" (audited | no-locks | empty | needs-convention | failed | not-started), "convention"?:
  {"preset", "source", "confidence"?}, "evidence"?, "complete", "reason"?, "exit"?, "items"?, "accounts"?, "lockItems"?,
  "summary"? (exactly the single audit's)}]}.
  Exit code: the worst table's — each audited table counts with its single audit's exit code; a table that needs a
  convention, failed or was not started counts 2 ("incomplete: needs a convention"); one without locks counts 0.
  Ctrl+C stops the running audits (they count as incomplete) and starts no more; the summary shows what finished.
Examples:
  locksmith audit --endpoint http://localhost:8000 --table accounts
  locksmith audit --profile prod --region eu-west-1 --table users --preset marker --json > report.json
  locksmith audit --endpoint http://localhost:8000 --all-tables --json > fleet.json
  locksmith audit --export ./exports/AWSDynamoDB/01700000000000-abcd1234 --preset uniq --json
  locksmith audit --export ./full --export ./incr1 --profile prod --table users
  locksmith audit --export s3://exports/users --profile prod --table users --engine athena --athena-output s3://athena-results/locksmith/`,
  async run({ values, io, debug, connection: opened }) {
    if (values['all-tables'] === true) return (await import('../all-tables')).auditAllTables(values, io, debug, auditCommand);
    if (values.export !== undefined) return (await import('./audit-export')).auditFromExport(values, io);
    fixYoungGeneration(AUDIT_SEMI_SPACE_MIB);
    v8.setFlagsFromString(`--heap-growing-percent=${AUDIT_HEAP_GROWING_PERCENT}`);
    const json = values.json === true;
    const segmentsFlag = optionalInt(values, 'segments', 'audit', 1, 1_000_000);
    const pagesPerSecond = optionalPositive(values, 'pages-per-second', 'audit');
    const rcuPerSecond = optionalPositive(values, 'rcu-per-second', 'audit');
    let session: TableSession | undefined;
    let sample: Promise<Item[]> | undefined;
    let speculation: SpeculativeAudit | undefined;
    let progress: ReturnType<typeof progressPrinter> | undefined;
    let lastProgress: ScanProgress | undefined;
    const runOptions = (
      connection: Connection,
      table: string,
      convention: Convention,
      segments: number,
      signal: AbortSignal,
    ): RunAuditOptions => ({
      client: connection.client,
      table,
      convention,
      segments,
      signal,
      rateLimit: { pagesPerSecond, capacityUnitsPerSecond: rcuPerSecond },
      errorContext: connection.errorContext,
      // A run started before the convention was confirmed shows progress once it is (from where it got to).
      onProgress: (p) => {
        lastProgress = p;
        progress?.update?.(p);
      },
    });
    try {
      // Detection's sample is read while the table is described (DynamoDB Local counts the table to
      // answer DescribeTable, slow on a large table).
      session = await openTable(
        values,
        io,
        'audit',
        (connection, name) => {
          if (values.convention === undefined) {
            sample = Promise.all([import('../../services/audit/sample'), import('../../services/dynamo/client')]).then(
              async ([{ sampleItems }, { defaultSegments }]) => {
                const segments = segmentsFlag ?? defaultSegments(connection.target, io.env);
                return unwrap(
                  await sampleItems(connection.client, name, undefined, {
                    segments,
                    signal: io.signal,
                    errorContext: connection.errorContext,
                  }),
                );
              },
            );
            // Awaited below only when the table exists; a failure then surfaces there, never as an unhandled rejection.
            sample.catch(() => undefined);
          }
          // The convention detected last time, on its own keys: the audit starts now and counts only if the described
          // keys and detection confirm it. Not for a paced scan: it is long anyway, and a discarded start would spend
          // capacity the user rationed.
          if (values.convention === undefined && pagesPerSecond === undefined && rcuPerSecond === undefined) {
            // Only what the run needs is awaited (an import of a module being loaded is the same load).
            const segments = import('../../services/dynamo/client').then(
              ({ defaultSegments }) => segmentsFlag ?? defaultSegments(connection.target, io.env),
            );
            const request = segments.then((n) => detectionRequest(optionalString(values, 'preset'), n));
            speculation = startSpeculativeAudit(io.env, tablePlace(connection.target, name), request, async (convention, signal) => {
              const [{ runAudit }, n] = await Promise.all([import('../../services/audit/run-audit'), segments]);
              return runAudit(runOptions(connection, name, convention, n, AbortSignal.any([io.signal, signal])));
            });
          }
        },
        opened,
      );
      const { connection, table } = session;
      const [{ runAudit }, { defaultSegments }] = await Promise.all([
        import('../../services/audit/run-audit'),
        import('../../services/dynamo/client'),
      ]);
      const segments = segmentsFlag ?? defaultSegments(connection.target, io.env);
      const resolved = await conventionFor(session, values, io, segments, sample);
      if (!json && resolved.detection)
        io.stderr(
          `convention ${resolved.source} (confidence ${resolved.detection.confidence}):\n${resolved.detection.evidence.map((e) => `  ${shownText(e)}`).join('\n')}\n`,
        );
      progress = progressPrinter(io, table.itemCount);
      let run = await speculation?.confirm(resolved.convention, table.keys);
      if (run && lastProgress) progress.update?.(lastProgress);
      if (debug && speculation)
        io.stderr(
          `locksmith: ${run ? 'the audit started with the convention remembered for this table, confirmed by the sample' : 'no remembered convention confirmed by the sample: the audit starts now'}\n`,
        );
      let remembering: Promise<void> | undefined;
      if (!run) {
        const place = tablePlace(connection.target, table.name);
        if (values.convention === undefined)
          remembering = rememberConvention(
            io.env,
            place,
            detectionRequest(optionalString(values, 'preset'), segments),
            resolved.convention,
          );
        run = await runAudit(runOptions(connection, table.name, resolved.convention, segments, io.signal));
      }
      await remembering;
      progress.done();
      const { report } = run;
      await recordCliAudit(io, report, connection.target, 'live');
      io.stdout(json ? `${JSON.stringify(report)}\n` : auditText(report, run.progress, resolved.source, styleFor(io)));
      if (!report.complete) return incomplete(io, report.reason ?? 'the scan did not finish');
      await rememberWarnings(io.env, tablePlace(connection.target, table.name), resolved.convention, report);
      return auditExitCode(report);
    } finally {
      speculation?.abort();
      if (!opened) closeSession(session);
    }
  },
};
