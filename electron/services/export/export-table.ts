/** Exporting a table in DynamoDB's export layout from a parallel scan (DynamoDB Local cannot export; tests need fixtures). */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { KeySchema } from '../../../shared/model';
import type { ScanProgress } from '../../../shared/scan-types';
import type { ErrorContext } from '../dynamo/errors';
import { scanTable } from '../scanner/scanner';
import { ExportWriter, type WrittenExport } from './write-export';

/** Options of one table export. */
export interface ExportTableOptions {
  readonly client: DynamoDBClient;
  readonly table: string;
  readonly keys: KeySchema;
  readonly tableArn: string;
  readonly out: string;
  readonly partitions?: number;
  readonly segments?: number;
  readonly signal?: AbortSignal;
  readonly errorContext?: ErrorContext;
  readonly onProgress?: (progress: ScanProgress) => void;
}

/** Default number of data files: enough to read in parallel, few enough for a small table. */
export const DEFAULT_PARTITIONS = 8;

/** Scans the table into a new export folder; rejects (leaving nothing behind) when the scan does not complete. */
export async function exportTable(options: ExportTableOptions): Promise<WrittenExport> {
  const writer = new ExportWriter({
    out: options.out,
    keys: options.keys,
    tableArn: options.tableArn,
    partitions: options.partitions ?? DEFAULT_PARTITIONS,
  });
  await writer.start();
  try {
    const outcome = await scanTable({
      client: options.client,
      table: options.table,
      segments: options.segments,
      signal: options.signal,
      errorContext: options.errorContext,
      onProgress: options.onProgress,
      // Backpressure: a segment waits while a gzip stream is full.
      onPage: (items) => writer.add(items),
    });
    if (!outcome.complete) throw new Error(`export of ${options.table} incomplete: ${outcome.reason ?? 'the scan did not finish'}`);
    return await writer.finish();
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
