/** The CLI's one call into the audit history: a finished audit is remembered, a cancelled one is not. */
import type { AuditReport } from '../../shared/audit/types';
import type { CliIo } from './command';
import { historyTarget, recordAudit } from '../services/history/audit-history';
import { resolveDataDir } from '../services/connections/data-dir';

/**
 * Appends the audit's summary to the data folder's history (see services/history/audit-history.ts).
 * Best effort: a history that cannot be written is one line on stderr, never the audit's exit code.
 */
export async function recordCliAudit(
  io: CliIo,
  report: AuditReport,
  target: { readonly endpoint?: string; readonly profile?: string; readonly region?: string } | undefined,
  source: 'live' | 'export',
): Promise<void> {
  if (io.signal.aborted) return;
  try {
    await recordAudit(resolveDataDir(io.env), report, { target: historyTarget(target ?? {}), source });
  } catch (error) {
    io.stderr(`locksmith: the audit history was not written: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
