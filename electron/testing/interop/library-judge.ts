/**
 * Shared pieces of the "library is the judge" tests: the CLI run in-process against one table and
 * the audit report it prints, so each test states only what its library writes and what it must
 * then accept.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AuditReport } from '../../../shared/audit/types';
import { main } from '../../cli/main';
import { captureIo } from '../../cli/testing-io';

/** What one in-process CLI run printed and returned. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** A CLI bound to an endpoint and a table (read when called: tables are created in beforeAll), with extra trailing flags. */
export function cliOn(
  endpoint: string,
  table: () => string,
  extra: () => readonly string[] = () => [],
): (args: readonly string[]) => Promise<CliRun> {
  return async (args) => {
    const io = captureIo();
    const code = await main([...args, '--endpoint', endpoint, '--table', table(), ...extra()], io);
    return { code, out: io.out(), err: io.err() };
  };
}

/** Runs `audit --json` and parses the report (nothing may reach stderr). */
export async function auditJson(
  cli: (args: readonly string[]) => Promise<CliRun>,
): Promise<{ code: number; report: AuditReport; err: string }> {
  const run = await cli(['audit', '--json']);
  return { code: run.code, err: run.err, report: JSON.parse(run.out) as AuditReport };
}

/**
 * Exports the table in DynamoDB's export layout (`locksmith export`), then audits that export with
 * the findings confirmed against the live table (`audit --export DIR`, the same connection and table):
 * the report without `source` and `stale`, the stale findings, and the exit code.
 */
export async function exportAuditJson(
  cli: (args: readonly string[]) => Promise<CliRun>,
): Promise<{ code: number; report: AuditReport; stale: readonly unknown[]; err: string }> {
  const out = await mkdtemp(join(tmpdir(), 'locksmith-judge-export-'));
  try {
    const exported = await cli(['export', '--out', out, '--json']);
    if (exported.code !== 0) throw new Error(`locksmith export failed: ${exported.err}`);
    const { dir } = JSON.parse(exported.out) as { dir: string };
    const run = await cli(['audit', '--export', dir, '--json']);
    const { source: _source, stale, ...report } = JSON.parse(run.out) as AuditReport & { source?: unknown; stale?: readonly unknown[] };
    return { code: run.code, err: run.err, report: report as AuditReport, stale: stale ?? [] };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** The table audited from its export (confirmed against the live table) reports exactly what the live audit reports, nothing stale. */
export async function expectExportAuditMatchesLive(cli: (args: readonly string[]) => Promise<CliRun>): Promise<void> {
  const live = await auditJson(cli);
  const fromExport = await exportAuditJson(cli);
  expect(fromExport.err).toBe('');
  expect(fromExport.report).toEqual(live.report);
  expect(fromExport.stale).toEqual([]);
  expect(fromExport.code).toBe(live.code);
}
