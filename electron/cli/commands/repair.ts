/** `locksmith repair`: audit a table and print (or, with --execute, run) the batched fix plan the app uses too. */
import type { RepairPlanView, RepairStatusView } from '../../../shared/contract/repair-views';
import { shownText } from '../../../shared/terminal-text';
import { CONVENTION_FLAGS, optionalInt, TABLE_FLAG } from '../args';
import type { CliCommand } from '../command';
import { EXIT_ERROR, EXIT_OK } from '../command';
import { tablePlace } from '../cache-file';
import { closeSession, incomplete, openTable, progressPrinter } from '../session';
import type { TableSession } from '../session';
import { conventionFor } from '../table-command';
import { rememberWarnings } from '../warning-memory';
import { askOnTerminal, conventionGate, conventionOrigin, EXIT_REFUSED, transactionContext } from './transaction-flow';

function planText(plan: RepairPlanView): string {
  const lines = [
    `Repair plan for ${plan.table}: ${plan.fixes.length} fix(es) in ${plan.transactions.length} transaction(s), ${plan.actionCount} action(s); ${plan.manual.length} left for a human`,
  ];
  for (const t of plan.transactions) {
    lines.push(`Transaction ${t.index + 1} (${t.actions.length} actions, ClientRequestToken ${t.clientRequestToken}):`);
    for (const f of t.fixes) lines.push(`  ${f + 1}. ${shownText(plan.fixes[f]?.summary ?? '')}`);
  }
  if (plan.resolved.length > 0)
    lines.push(
      'Already fixed (fresh reads):',
      ...plan.resolved.map((m) => `  - ${m.problem.kind} ${m.problem.rule ?? ''} \`${shownText(m.problem.value)}\`: ${shownText(m.why)}`),
    );
  if (plan.manual.length > 0)
    lines.push(
      'For a human:',
      ...plan.manual.map((m) => `  - ${m.problem.kind} ${m.problem.rule ?? ''} \`${shownText(m.problem.value)}\`: ${shownText(m.why)}`),
    );
  return `${lines.join('\n')}\n`;
}

function transactionText(plan: RepairPlanView, status: RepairStatusView, index: number): string {
  const t = status.transactions[index];
  if (!t) return '';
  const lines = [
    `Transaction ${index + 1} of ${plan.transactions.length}: ${t.state}${t.verified === true ? ', applied and verified' : ''}${t.message ? ` — ${shownText(t.message)}` : ''}`,
  ];
  for (const f of plan.transactions[index]?.fixes ?? []) {
    const outcome = status.fixes[f];
    lines.push(
      `  ${f + 1}. ${shownText(plan.fixes[f]?.summary ?? '')}: ${shownText(outcome?.state === 'succeeded' ? `done, ${outcome.message}` : (outcome?.message ?? ''))}`,
    );
  }
  if (t.differences) lines.push(...t.differences.map((d) => `  NOT verified: ${shownText(d)}`));
  return `${lines.join('\n')}\n`;
}

/** Fixes in transactions that were applied but whose re-read did not show what was written (or failed). */
export function unverifiedFixes(plan: RepairPlanView, status: RepairStatusView): number {
  return status.transactions.reduce(
    (n, t, i) => n + (t.state === 'succeeded' && t.verified !== true ? (plan.transactions[i]?.fixes.length ?? 0) : 0),
    0,
  );
}

/** The last line of `repair --execute`: what happened to every fix, and what is left for a person. */
export function repairSummary(table: string, status: RepairStatusView, manual: number, unverified = 0): string {
  const done = status.fixes.filter((f) => f.state === 'succeeded').length;
  const failed = status.fixes.filter((f) => f.state === 'error').length;
  const unknown = status.fixes.filter((f) => f.state === 'outcome-unknown').length;
  const refused = status.fixes.length - done - failed - unknown;
  return `Repair of ${table}: ${done} of ${status.fixes.length} fixes done${unverified > 0 ? ` (${unverified} NOT verified: re-read them)` : ''}, ${refused} refused, ${failed} failed${unknown > 0 ? `, ${unknown} with an unknown outcome (may have been applied: look them up)` : ''}${manual > 0 ? `; ${manual} left for a human` : ''}${status.phase === 'stopped' ? ' (stopped on request)' : ''}.\n`;
}

/** The repair command. */
export const repairCommand: CliCommand = {
  name: 'repair',
  summary:
    'Plan (and with --execute, run) fixes for an audit: release orphan locks, claim missing locks, in transactions of up to 100 actions; duplicates are listed for a human.',
  usage: 'repair --table T [--preset P | --convention FILE] [--execute [--yes]] [--json] [--allow-writes]',
  flags: {
    ...TABLE_FLAG,
    ...CONVENTION_FLAGS,
    segments: { type: 'string', valueName: 'N', description: 'parallel scan segments of the audit' },
    execute: { type: 'boolean', description: 'run the plan, transaction by transaction' },
    yes: { type: 'boolean', description: 'do not ask for the typed confirmation (the number of actions)' },
    json: { type: 'boolean', description: 'print only JSON on stdout' },
    'allow-writes': { type: 'boolean', description: 'allow writes on an AWS (--profile) connection' },
  },
  details: `
Every fix is read fresh and built exactly as a single claim or release (same guards); problems
already gone are dropped, releases of values an account holds now are left for a human. Fixes are
packed into TransactWriteItems of at most 100 actions, never two actions on one item, each with its
ClientRequestToken. Without --execute nothing is sent: the plan is printed (--json: every
transaction's exact request). With --execute, type the number of actions to confirm; transactions
are sent in order (Ctrl+C stops between two), releases re-checked just before each, every written
item re-read. The convention and, when detected, its confidence and evidence are printed first
(--json: "convention"); with --yes a convention detected with confidence below 1 is refused — pass
a reviewed --convention FILE. A rule the audit warns about (the table contradicts the convention:
its values stand in keys of another layout, or its locks cannot be read) gets no automatic fix: each
of its problems is left for a human with the warning, so a misread convention never writes at scale. Exit codes: 0 nothing to fix or every fix done and verified, 1 fixes
pending, refused, not verified or left for a human, 2 error or an incomplete audit (--json:
{"complete": false, "reason"}).`,
  async run({ values, io }) {
    const json = values.json === true;
    const segments = optionalInt(values, 'segments', 'repair', 1, 1_000_000);
    let session: TableSession | undefined;
    try {
      session = await openTable(values, io, 'repair');
      const { connection, table } = session;
      const [{ runAudit }, { effectiveEndpoint }, { RepairService }] = await Promise.all([
        import('../../services/audit/run-audit'),
        import('../../services/dynamo/client'),
        import('../../services/repair/repair-service'),
      ]);
      const resolved = await conventionFor(session, values, io, segments);
      // The writes rest on the convention: say what it is and how sure detection was, before anything else.
      const refused = conventionGate(io, values.execute === true ? values : { ...values, yes: false }, resolved, 'repairs');
      if (refused !== undefined) return refused;
      const origin = conventionOrigin(resolved);
      const progress = progressPrinter(io, table.itemCount);
      const run = await runAudit({
        client: connection.client,
        table: table.name,
        convention: resolved.convention,
        segments,
        signal: io.signal,
        errorContext: connection.errorContext,
        onProgress: progress.update,
      });
      progress.done();
      if (!run.report.complete) {
        const reason = run.report.reason ?? 'the audit did not finish: no plan from a partial scan';
        if (json) io.stdout(`${JSON.stringify({ complete: false, reason, convention: origin })}\n`);
        return incomplete(io, reason);
      }
      await rememberWarnings(io.env, tablePlace(connection.target, table.name), resolved.convention, run.report);
      const ctx = transactionContext(connection, values, io.env, effectiveEndpoint(connection.target, io.env).url);
      const service = new RepairService();
      const owner = ctx.connection.label;
      const planned = await service.plan(ctx, {
        owner,
        table: table.name,
        convention: resolved.convention,
        problems: run.report.problems,
        warnings: run.report.warnings,
        signal: io.signal,
      });
      if (!planned.ok) {
        io.stderr(`locksmith: ${planned.error.message}\n`);
        return EXIT_ERROR;
      }
      const plan = planned.value;
      const nothing = plan.actionCount === 0 && plan.manual.length === 0;
      if (values.execute !== true) {
        io.stdout(json ? `${JSON.stringify({ ...plan, convention: origin })}\n` : planText(plan));
        return nothing ? EXIT_OK : EXIT_REFUSED;
      }
      if (!json) io.stdout(planText(plan));
      if (plan.actionCount === 0) {
        if (json) io.stdout(`${JSON.stringify({ plan, convention: origin })}\n`);
        return nothing ? EXIT_OK : EXIT_REFUSED;
      }
      if (!ctx.writable) {
        io.stderr(`locksmith: connection ${ctx.connection.label} is read-only: nothing was sent — to fix: pass --allow-writes\n`);
        return EXIT_REFUSED;
      }
      let confirmation = plan.confirmText;
      if (values.yes !== true) {
        const typed = await askOnTerminal(
          io,
          `Type ${plan.confirmText} (the number of actions) to send ${plan.transactions.length} transaction(s): `,
        );
        if (typed === undefined) {
          io.stderr('locksmith: no terminal to confirm on: nothing was sent — to fix: pass --yes\n');
          return EXIT_ERROR;
        }
        if (typed.trim() !== plan.confirmText) {
          io.stderr('locksmith: the confirmation did not match: nothing was sent\n');
          return EXIT_ERROR;
        }
        confirmation = typed.trim();
      }
      if (io.signal.aborted) {
        io.stderr('locksmith: interrupted before the repair started: nothing was sent\n');
        return EXIT_ERROR;
      }
      let printed = 0;
      const started = service.start(ctx, {
        owner,
        planId: plan.planId,
        confirmation,
        onProgress: (status) => {
          for (; printed < status.transactions.length && !['pending', 'sending'].includes(status.transactions[printed]!.state); printed++) {
            if (!json) io.stdout(transactionText(plan, status, printed));
          }
        },
      });
      if (!started.ok) {
        io.stderr(`locksmith: ${started.error.message}\n`);
        return started.error.kind === 'read-only' || started.error.kind === 'conflict' ? EXIT_REFUSED : EXIT_ERROR;
      }
      // Ctrl+C: finish the transaction in flight, send no other.
      const stop = (): void => void service.stop(owner, plan.planId);
      io.signal.addEventListener('abort', stop, { once: true });
      const status = await started.value.done;
      io.signal.removeEventListener('abort', stop);
      const unverified = unverifiedFixes(plan, status);
      if (json) io.stdout(`${JSON.stringify({ plan, status, convention: origin, unverified })}\n`);
      else io.stdout(repairSummary(table.name, status, plan.manual.length, unverified));
      if (status.phase === 'failed' || status.fixes.some((f) => f.state === 'error')) return EXIT_ERROR;
      // Applied but not seen on re-read is not "done": a person looks.
      return status.fixes.every((f) => f.state === 'succeeded') && plan.manual.length === 0 && unverified === 0 ? EXIT_OK : EXIT_REFUSED;
    } finally {
      closeSession(session);
    }
  },
};
