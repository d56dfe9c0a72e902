/** Exports of an audit report: JSON (exactly the CLI's `--json` shape) and CSV (one line per problem). */
import type { AuditReport } from '../../../../shared/audit/types';
import type { PlainKey } from '../../../../shared/model';

/** The report as pretty JSON, the same shape `locksmith audit --json` prints. */
export function reportToJson(report: AuditReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

// RFC 4180: quote every field, double inner quotes. A formula start (=, +, -, @, their full-width
// forms like ＝, a tab or CR) — also after leading spaces, no-break or zero-width spaces, which
// spreadsheets skip — is prefixed with ' so a stored value is never evaluated (values are data, never code).
const FORMULA_START = /^(?:\s|\u200B|\u200C|\u200D|\u2060)*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\t\r]/;

/** One CSV field, quoted and neutralised (exported for tests). */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

function keyText(key: PlainKey | undefined): string {
  return key ? JSON.stringify(key) : '';
}

/**
 * The report's problems as CSV: kind, rule, value, lock, accounts, reason; plus a completeness line
 * and, when given, a last `export` line saying where the file came from.
 */
export function reportToCsv(report: AuditReport, provenance?: string): string {
  const lines = [['kind', 'rule', 'value', 'lock', 'accounts', 'reason'].map(csvField).join(',')];
  for (const p of report.problems) {
    lines.push(
      [p.kind, p.rule ?? '', p.value, keyText(p.lock), (p.accounts ?? []).map(keyText).join(' '), p.reason ?? ''].map(csvField).join(','),
    );
  }
  if (!report.complete) lines.push(['incomplete', '', '', '', '', report.reason ?? 'the audit did not finish'].map(csvField).join(','));
  if (provenance !== undefined) lines.push(['export', '', '', '', '', provenance].map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Offers `text` as a file download (a Blob URL: no server round trip, nothing written by main). */
export function downloadText(text: string, fileName: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}
