/**
 * Shared pieces of the "library is the judge" tests: the CLI run in-process against one table and
 * the audit report it prints, so each test states only what its library writes and what it must
 * then accept.
 */
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
export function cliOn(endpoint: string, table: () => string, extra: () => readonly string[] = () => []): (args: readonly string[]) => Promise<CliRun> {
  return async (args) => {
    const io = captureIo();
    const code = await main([...args, '--endpoint', endpoint, '--table', table(), ...extra()], io);
    return { code, out: io.out(), err: io.err() };
  };
}

/** Runs `audit --json` and parses the report (nothing may reach stderr). */
export async function auditJson(cli: (args: readonly string[]) => Promise<CliRun>): Promise<{ code: number; report: AuditReport; err: string }> {
  const run = await cli(['audit', '--json']);
  return { code: run.code, err: run.err, report: JSON.parse(run.out) as AuditReport };
}
