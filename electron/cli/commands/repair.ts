/** `locksmith repair`: audit a table and print (or, with --execute, run) a fix plan, one transaction per fix. */
import type { Outcome } from '../../../shared/transactions/types';
import type { RepairFix, RepairPlan } from '../../../shared/transactions/repair-plan';
import { CONVENTION_FLAGS, optionalInt } from '../args';
import type { CliCommand } from '../command';
import { EXIT_ERROR, EXIT_OK } from '../command';
import { closeSession, incomplete, openTable, progressPrinter } from '../session';
import type { TableSession } from '../session';
import { askOnTerminal, errorExit, EXIT_REFUSED, transactionContext } from './transaction-flow';

/** What happened to one fix when executed. */
interface FixResult {
  readonly fix: RepairFix;
  readonly outcome?: Outcome;
  readonly error?: { readonly kind: string; readonly message: string; readonly field?: string };
}

function planText(table: string, plan: RepairPlan): string {
  const lines = [`Repair plan for ${table}: ${plan.fixes.length} fix(es), ${plan.manual.length} for a human`];
  plan.fixes.forEach((f, i) => lines.push(`  ${i + 1}. ${f.summary}`));
  if (plan.manual.length > 0) lines.push('For a human:', ...plan.manual.map((m) => `  - ${m.problem.kind} ${m.problem.rule ?? ''} \`${m.problem.value}\`: ${m.why}`));
  return `${lines.join('\n')}\n`;
}

function resultText(r: FixResult, i: number): string {
  const what = r.error ? `error: ${r.error.message}` : r.outcome?.status === 'succeeded' ? 'done' : r.outcome?.status === 'refused' ? r.outcome.message : `cancelled: ${r.outcome?.message ?? ''}`;
  return `  ${i + 1}. ${r.fix.summary}: ${what}\n`;
}

/** The last line of `repair --execute`: what happened to every fix, and what is left for a person. */
export function repairSummary(table: string, results: readonly FixResult[], manual: number): string {
  const done = results.filter((r) => r.outcome?.status === 'succeeded').length;
  const failed = results.filter((r) => r.error && errorExit(r.error.kind, r.error.field) !== EXIT_REFUSED).length;
  const refused = results.length - done - failed;
  return `Repair of ${table}: ${done} of ${results.length} fixes done, ${refused} refused, ${failed} failed${manual > 0 ? `; ${manual} left for a human` : ''}.\n`;
}

/** The repair command. */
export const repairCommand: CliCommand = {
  name: 'repair',
  summary: 'Plan (and with --execute, run) fixes for an audit: release orphan locks, claim missing locks; duplicates are listed for a human.',
  usage: 'repair --table T [--preset P | --convention FILE] [--execute [--yes]] [--json] [--allow-writes]',
  flags: {
    table: { type: 'string', valueName: 'T', description: 'the table' },
    ...CONVENTION_FLAGS,
    segments: { type: 'string', valueName: 'N', description: 'parallel scan segments of the audit' },
    execute: { type: 'boolean', description: 'run the fixes (each its own guarded transaction)' },
    yes: { type: 'boolean', description: 'do not ask for the typed confirmation (the table name)' },
    json: { type: 'boolean', description: 'print only JSON on stdout' },
    'allow-writes': { type: 'boolean', description: 'allow writes on an AWS (--profile) connection' },
  },
  details: `
Without --execute nothing is sent: the plan is printed. With --execute, each fix is previewed and
executed as its own transaction (a release still refuses if an account holds the value).
Exit codes: 0 nothing to fix or every fix done, 1 fixes pending, refused or left for a human, 2 error.`,
  async run({ values, io }) {
    const json = values.json === true;
    const segments = optionalInt(values, 'segments', 'repair', 1, 1_000_000);
    let session: TableSession | undefined;
    try {
      session = await openTable(values, io, 'repair');
      const { connection, table } = session;
      const [{ resolveConvention }, { runAudit }, { effectiveEndpoint }, { planRepairs }, service] = await Promise.all([
        import('../convention-source'),
        import('../../services/audit/run-audit'),
        import('../../services/dynamo/client'),
        import('../../../shared/transactions/repair-plan'),
        import('../../services/transactions/service'),
      ]);
      const resolved = await resolveConvention({ client: connection.client, table: table.name, keys: table.keys, values, signal: io.signal, errorContext: connection.errorContext, segments });
      const progress = progressPrinter(io, table.itemCount);
      const run = await runAudit({ client: connection.client, table: table.name, convention: resolved.convention, segments, signal: io.signal, errorContext: connection.errorContext, onProgress: progress.update });
      progress.done();
      if (!run.report.complete) return incomplete(io, run.report.reason ?? 'the audit did not finish: no plan from a partial scan');
      const plan = planRepairs(run.report.problems);
      if (values.execute !== true) {
        io.stdout(json ? `${JSON.stringify({ table: table.name, ...plan })}\n` : planText(table.name, plan));
        return plan.fixes.length + plan.manual.length === 0 ? EXIT_OK : EXIT_REFUSED;
      }
      if (!json) io.stdout(planText(table.name, plan));
      const ctx = transactionContext(connection, values, io.env, effectiveEndpoint(connection.target, io.env).url);
      if (!ctx.writable) {
        io.stderr(`locksmith: connection ${ctx.connection.label} is read-only: nothing was sent — to fix: pass --allow-writes\n`);
        return EXIT_REFUSED;
      }
      if (plan.fixes.length > 0 && values.yes !== true) {
        const typed = await askOnTerminal(io, `Type the table name ${table.name} to run ${plan.fixes.length} fix(es): `);
        if (typed === undefined) {
          io.stderr('locksmith: no terminal to confirm on: nothing was sent — to fix: pass --yes\n');
          return EXIT_ERROR;
        }
        if (typed !== table.name) {
          io.stderr('locksmith: the confirmation did not match: nothing was sent\n');
          return EXIT_ERROR;
        }
      }
      const results: FixResult[] = [];
      for (const fix of plan.fixes) {
        const previewed = await service.previewTransaction(ctx, { table: table.name, convention: resolved.convention, operation: fix.operation });
        if (!previewed.ok) {
          results.push({ fix, error: previewed.error });
        } else {
          const executed = await service.executePreview(ctx, { previewId: previewed.value.id, confirmation: previewed.value.confirm });
          results.push(executed.ok ? { fix, outcome: executed.value } : { fix, error: executed.error });
        }
        if (!json) io.stdout(resultText(results[results.length - 1]!, results.length - 1));
      }
      if (json) io.stdout(`${JSON.stringify({ table: table.name, manual: plan.manual, results })}\n`);
      else io.stdout(repairSummary(table.name, results, plan.manual.length));
      if (results.some((r) => r.error && errorExit(r.error.kind, r.error.field) !== EXIT_REFUSED)) return EXIT_ERROR;
      return results.every((r) => r.outcome?.status === 'succeeded') && plan.manual.length === 0 ? EXIT_OK : EXIT_REFUSED;
    } finally {
      closeSession(session);
    }
  },
};
