/**
 * One measured pass each of: the raw SDK parallel scan (same segments and projection, items
 * dropped), the single-segment scan, the audit in process (as the app runs it, with deltas), and
 * the CLI as a whole process (`locksmith audit --json`, peak RSS from the child itself).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScanCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AuditReport } from '../shared/audit/types';
import type { Convention } from '../shared/model';
import { runAudit, scanProjection, STREAM_ROWS_PER_DELTA } from '../electron/services/audit/run-audit';

/** One timed scan or audit. */
export interface ScanSample {
  readonly ms: number;
  readonly items: number;
  /** CPU time (user + system) the measuring Node process spent, in ms: immune to waiting on a loaded machine. */
  readonly cpuMs: number;
  /** Audit only: ms from start to the first delta carrying rows. */
  readonly firstGroupMs?: number;
  /** Audit with deltas only: bytes of JSON the deltas made (what browser mode streams to the page). */
  readonly streamedBytes?: number;
  /** CLI only: the child's peak resident set size. */
  readonly peakRssBytes?: number;
}

const BIN = fileURLToPath(new URL('../bin/locksmith', import.meta.url));
const RSS_HOOK = fileURLToPath(new URL('./rss-hook.mjs', import.meta.url));

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** Scans with plain ScanCommand calls, `segments` in parallel, doing nothing with the items: the physical limit. */
export async function rawScan(
  client: DynamoDBClient,
  table: string,
  segments: number,
  convention: Convention | undefined,
): Promise<ScanSample> {
  const projection = convention ? scanProjection(convention) : undefined;
  const started = performance.now();
  const cpu = process.cpuUsage();
  let items = 0;
  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      let startKey: Record<string, AttributeValue> | undefined;
      do {
        const page = await client.send(
          new ScanCommand({
            TableName: table,
            ...(segments > 1 ? { Segment: segment, TotalSegments: segments } : {}),
            ...(projection ? { ProjectionExpression: projection.expression, ExpressionAttributeNames: { ...projection.names } } : {}),
            ExclusiveStartKey: startKey,
          }),
        );
        items += page.Count ?? 0;
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    }),
  );
  return { ms: performance.now() - started, items, cpuMs: cpuMs(cpu) };
}

/**
 * The audit through runAudit in this process: with `deltas`, as the app and browser mode run it
 * (rows built for the UI every 100 ms); without, as the CLI runs it (report only).
 */
export async function auditInProcess(
  client: DynamoDBClient,
  table: string,
  segments: number,
  convention: Convention,
  deltas: boolean,
): Promise<ScanSample & { readonly report: AuditReport }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let firstGroupMs: number | undefined;
  let streamedBytes = 0;
  const run = await runAudit({
    client,
    table,
    convention,
    segments,
    ...(deltas
      ? {
          maxRowsPerDelta: STREAM_ROWS_PER_DELTA,
          onDelta: (delta) => {
            // Serialised as browser mode sends it over its event stream (the work the bridge adds).
            streamedBytes += JSON.stringify(delta).length;
            if (firstGroupMs === undefined && delta.upserted.length > 0) firstGroupMs = performance.now() - started;
          },
        }
      : {}),
  });
  const ms = performance.now() - started;
  const cpuSpent = cpuMs(cpu);
  if (!run.report.complete) throw new Error(`the audit did not complete: ${run.report.reason ?? 'unknown'}`);
  return {
    ms,
    items: run.report.scanned,
    cpuMs: cpuSpent,
    report: run.report,
    ...(firstGroupMs === undefined ? {} : { firstGroupMs }),
    ...(deltas ? { streamedBytes } : {}),
  };
}

/**
 * `locksmith audit --json` as a separate process; wall time includes Node, tsx and SDK start-up. A fresh
 * data folder per run unless `dataDir` is given: a shared one keeps the key-schema cache between runs.
 * `env` is added to the child's environment (e.g. LOCKSMITH_CLI_CACHE: another build of the bundle);
 * `bin` is another checkout's bin/locksmith (its sources and bundle).
 */
export async function auditCli(
  endpoint: string,
  table: string,
  segments: number,
  dataDir?: string,
  env: NodeJS.ProcessEnv = {},
  bin: string = BIN,
): Promise<ScanSample & { readonly report: AuditReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'locksmith-bench-'));
  const rssFile = join(dir, 'rss.json');
  const started = performance.now();
  try {
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          RSS_HOOK,
          bin,
          'audit',
          '--endpoint',
          endpoint,
          '--table',
          table,
          '--preset',
          'uniq',
          '--segments',
          String(segments),
          '--json',
        ],
        {
          env: {
            ...process.env,
            ...env,
            LOCKSMITH_BENCH_RSS_FILE: rssFile,
            LOCKSMITH_DATA_DIR: dataDir ?? dir,
            AWS_ACCESS_KEY_ID: 'locksmith',
            AWS_SECRET_ACCESS_KEY: 'locksmith',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.once('error', reject);
      child.once('close', (exitCode) =>
        resolve({ code: exitCode, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
      );
    });
    const ms = performance.now() - started;
    // Exit 1 = complete with problems, which the bench table has on purpose.
    if (code !== 0 && code !== 1) throw new Error(`locksmith audit exited ${String(code)}: ${stderr.trim()}`);
    const report = JSON.parse(stdout) as AuditReport;
    const usage = JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRssBytes: number; cpuMs: number };
    return { ms, items: report.scanned, report, peakRssBytes: usage.maxRssBytes, cpuMs: usage.cpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
