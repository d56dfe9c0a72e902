/** `locksmith history`: what past audits found, oldest first, from the data folder's audit history. */
import type { AuditHistoryEntry } from '../../../shared/audit/history';
import { targetText, totalProblems } from '../../../shared/audit/history';
import { PROBLEM_KINDS } from '../../../shared/model';
import { optionalInt, optionalString } from '../args';
import type { CliCommand } from '../command';
import { EXIT_OK } from '../command';
import { readHistory } from '../../services/history/audit-history';
import { resolveDataDir } from '../../services/connections/data-dir';

/** One entry as one readable line: time, table, where, convention, source, items, problems per kind, complete or why not. */
export function historyLine(entry: AuditHistoryEntry): string {
  const total = totalProblems(entry.summary);
  const kinds = PROBLEM_KINDS.filter((k) => entry.summary[k] > 0).map((k) => `${k} ${entry.summary[k]}`);
  const problems = total === 0 ? 'no problems' : `${total} problem${total === 1 ? '' : 's'} (${kinds.join(', ')})`;
  const state = entry.complete ? 'complete' : `INCOMPLETE — ${entry.reason ?? 'unknown reason'}`;
  return `${entry.time}  ${entry.table}  ${targetText(entry.target)}  ${entry.convention.preset}/${entry.convention.id}  ${entry.source}  ${entry.items} items  ${problems}  ${state}`;
}

/** The history command. */
export const historyCommand: CliCommand = {
  name: 'history',
  summary: 'What past audits found, per table, oldest first (the data folder’s audit history).',
  usage: 'history [--table T] [--last N] [--json]',
  connects: false,
  flags: {
    table: { type: 'string', valueName: 'T', description: 'only the audits of this table' },
    last: { type: 'string', valueName: 'N', description: 'only the newest N audits' },
    json: { type: 'boolean', description: 'print {"entries": [...]} as JSON' },
  },
  details: `
Each finished audit — live or from an export, by the CLI or the app — adds one line to audit-history.jsonl
in the data folder (mode 0600): time, table, connection target (endpoint URL, profile or aws, and region;
never credentials), convention (its preset or "custom", and a short id of its exact content), source (live or
export), items read, accounts, locks, each problem kind's count, complete (or the reason). No item data.
A cancelled audit (Ctrl+C, a table closed in the app) is not recorded. The file is bounded: past 1 MiB it
is trimmed to its newest 768 KiB (a few thousand audits). A damaged line is skipped.
JSON (--json): {"entries": [{"time", "table", "target": {"endpoint"?, "profile"?, "region"?},
  "convention": {"preset", "id"}, "source", "complete", "reason"?, "items", "accounts", "locks", "summary"}]}
Examples:
  locksmith history
  locksmith history --table accounts --last 10 --json`,
  async run({ values, io }) {
    const table = optionalString(values, 'table');
    const last = optionalInt(values, 'last', 'history', 1, 1_000_000);
    const all = await readHistory(resolveDataDir(io.env), table !== undefined ? { table } : {});
    const entries = last === undefined ? all : all.slice(-last);
    if (values.json === true) io.stdout(`${JSON.stringify({ entries })}\n`);
    else if (entries.length === 0) io.stdout(`No audits recorded${table !== undefined ? ` for ${table}` : ''} yet.\n`);
    else io.stdout(`${entries.map(historyLine).join('\n')}\n`);
    return EXIT_OK;
  },
};
