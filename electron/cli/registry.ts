/**
 * The CLI's commands. Adding a command = one file under commands/ exporting a CliCommand, plus
 * one line here. Each loads when it is named, so `locksmith --help` parses no command, no service and no
 * AWS SDK (what that saves: docs/benchmarks.md, "Start-up measures through the model").
 */
import type { CliCommand } from './command';

/** A command as the dispatcher knows it before loading it. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<CliCommand>;
}

/** Every command, in help order. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'audit',
    summary: 'audit a table: every account with its locks, every problem',
    load: async () => (await import('./commands/audit')).auditCommand,
  },
  {
    name: 'lookup',
    summary: 'look one value up: free, held, orphan, unprotected or duplicate',
    load: async () => (await import('./commands/lookup')).lookupCommand,
  },
  {
    name: 'suggest-index',
    summary: 'print the GSI that would make lookups instant: the exact UpdateTable and AWS CLI command',
    load: async () => (await import('./commands/suggest-index')).suggestIndexCommand,
  },
  {
    name: 'detect',
    summary: 'propose a convention file for a table, with the evidence',
    load: async () => (await import('./commands/detect')).detectCommand,
  },
  {
    name: 'claim',
    summary: 'claim a value for an account: write its lock, guarded, previewed, confirmed',
    load: async () => (await import('./commands/claim')).claimCommand,
  },
  {
    name: 'release',
    summary: 'release a value nobody holds: delete its lock, guarded, previewed, confirmed',
    load: async () => (await import('./commands/release')).releaseCommand,
  },
  {
    name: 'change-value',
    summary: 'change an account’s protected value: new lock, old lock deleted, account updated, one transaction',
    load: async () => (await import('./commands/change-value')).changeValueCommand,
  },
  {
    name: 'delete-account',
    summary: 'delete an account with all its locks, one transaction',
    load: async () => (await import('./commands/delete-account')).deleteAccountCommand,
  },
  {
    name: 'repair',
    summary: 'plan (or --execute) fixes for an audit: release orphans, claim missing locks',
    load: async () => (await import('./commands/repair')).repairCommand,
  },
  {
    name: 'watch',
    summary: 'watch a table’s stream: report each problem as a write causes it, and its fix',
    load: async () => (await import('./commands/watch')).watchCommand,
  },
  {
    name: 'export',
    summary: 'write a table in the layout of a DynamoDB export to S3, from a parallel scan',
    load: async () => (await import('./commands/export')).exportCommand,
  },
  {
    name: 'history',
    summary: 'what past audits found, per table, oldest first',
    load: async () => (await import('./commands/history')).historyCommand,
  },
  { name: 'tables', summary: 'list the tables at a connection', load: async () => (await import('./commands/tables')).tablesCommand },
  {
    name: 'serve',
    summary: 'run the app in the browser: the same UI over HTTP on 127.0.0.1, token-protected',
    load: async () => (await import('./commands/serve')).serveCommand,
  },
  {
    name: 'sandbox',
    summary: 'run the bundled DynamoDB Local with demo data until Ctrl+C',
    load: async () => (await import('./commands/sandbox')).sandboxCommand,
  },
];

/** Finds a command by name. */
export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}
