/**
 * `audit --export s3://… --engine athena`: the Athena client from the connection's credentials, the
 * audit of athena-engine.ts over the export where it lies on S3, and the report with its `source`,
 * shaped as the DuckDB engine's (the CLI prints both the same way).
 */
import { AthenaClient } from '@aws-sdk/client-athena';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import type { Convention } from '../../../shared/model';
import { athenaAudit } from './athena-engine';
import { awsDataEndpoint } from './aws-data-endpoint';
import type { ExportAuditReport } from './export-audit-types';
import { ExportError, type OpenedExport } from './read-export';

/** Options of an Athena audit from the CLI. */
export interface AthenaRunOptions {
  readonly region: string;
  readonly profile?: string;
  /** The environment whose configured endpoints count (defaults to process.env). */
  readonly env?: NodeJS.ProcessEnv;
  readonly outputLocation: string;
  readonly workgroup?: string;
  readonly database?: string;
  readonly convention: Convention;
  readonly table: string;
  /** The full export, opened from its manifests (the data stays on S3). */
  readonly full: OpenedExport;
  /** Its data folder on S3, `s3://…/AWSDynamoDB/<id>/data/`. */
  readonly dataLocation: string;
  readonly signal?: AbortSignal;
  readonly onStep?: (step: string) => void;
  /** What the user should know: the bytes scanned (the cost), and a table that could not be dropped (`warning`). */
  readonly onNote?: (note: string, warning: boolean) => void;
}

/** Athena's price per TB scanned in most regions (us-east-1, eu-west-1; 10 MB minimum per query): an estimate, labelled as such. */
const USD_PER_TB = 5;

/** Runs the audit on Athena; rejects with an AthenaAuditError (failed, cancelled, refused) or an ExportError. */
export async function auditOnAthena(options: AthenaRunOptions): Promise<{ report: ExportAuditReport; pulled: number }> {
  if (options.full.type !== 'FULL_EXPORT')
    throw new ExportError(
      `${options.full.dir} is an incremental export: the Athena engine audits one full export (use the DuckDB engine for incrementals)`,
      options.full.dir,
    );
  // Athena where the connection's own profile says, never where another profile or the environment points.
  const endpoint = awsDataEndpoint('athena', options.profile, options.env ?? process.env);
  if (!endpoint.ok)
    throw new ExportError(`${endpoint.error.message}${endpoint.error.fix ? ` — to fix: ${endpoint.error.fix}` : ''}`, options.dataLocation);
  const client = new AthenaClient({
    region: options.region,
    credentials: fromNodeProviderChain(options.profile ? { profile: options.profile } : {}),
    ...(endpoint.value ? { endpoint: endpoint.value } : {}),
    ignoreConfiguredEndpointUrls: true,
  });
  try {
    const result = await athenaAudit({
      client,
      convention: options.convention,
      table: options.table,
      dataLocation: options.dataLocation,
      outputLocation: options.outputLocation,
      expectedItems: options.full.summary.itemCount,
      ...(options.workgroup ? { workgroup: options.workgroup } : {}),
      ...(options.database ? { database: options.database } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onStep ? { onStep: options.onStep } : {}),
    });
    const mb = result.scannedBytes / 1e6;
    options.onNote?.(
      `Athena scanned ${mb.toFixed(1)} MB (about $${((result.scannedBytes / 1e12) * USD_PER_TB).toFixed(4)} at $${USD_PER_TB}/TB; your region's price may differ)`,
      false,
    );
    if (result.dropFailed) options.onNote?.(`warning: ${result.dropFailed}`, true);
    const report: ExportAuditReport = {
      ...result.report,
      source: {
        kind: 'export',
        exportArn: options.full.summary.exportArn,
        exportTime: options.full.summary.exportTime,
        itemsRead: result.report.scanned,
      },
    };
    return { report, pulled: result.pulled };
  } finally {
    client.destroy();
  }
}
