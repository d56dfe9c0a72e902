/**
 * The repair service as the bridge calls it: a plan from an audit run's report (complete runs only),
 * executed in the background and followed by polling `repair.status`. Kept apart from the handler
 * table so the bridge's own plumbing stays a few lines.
 */
import type { RepairPlanView, RepairStatusView } from '../../../shared/contract/repair-views';
import type { AuditReport } from '../../../shared/audit/types';
import type { ProblemKind } from '../../../shared/model';
import { err, type Result } from '../../../shared/result';
import type { ResolvedConnection } from '../connections/registry';
import type { TransactionContext } from '../transactions/service';
import { RepairService } from './repair-service';

/** What `repair.plan` asks for, after validation. */
export interface RepairPlanArgs {
  readonly table: string;
  readonly runId: string;
  readonly kinds?: readonly ProblemKind[] | undefined;
  readonly ids?: readonly string[] | undefined;
}

/** The bridge's view of repairs; plans are bound to the connection id they were made on. */
export interface RepairBridge {
  plan(connection: ResolvedConnection, args: RepairPlanArgs): Promise<Result<RepairPlanView>>;
  /** Starts the execution (refused on a read-only connection) and returns its first status. */
  execute(connection: ResolvedConnection, planId: string, confirmation: string): Promise<Result<RepairStatusView>>;
  stop(connectionId: string, planId: string): Promise<Result<RepairStatusView>>;
  status(connectionId: string, planId: string): Promise<Result<RepairStatusView>>;
}

/** What the repair bridge needs from the data services. */
export interface RepairBridgeOptions {
  readonly auditReport: (runId: string) => Promise<Result<AuditReport>>;
  readonly context: (connection: ResolvedConnection) => TransactionContext;
  readonly dataDir?: string;
}

/** Creates the bridge's repair service. */
export function createRepairBridge(options: RepairBridgeOptions): RepairBridge {
  const service = new RepairService(options.dataDir ? { dataDir: options.dataDir } : {});
  return {
    async plan(connection, args) {
      const report = await options.auditReport(args.runId);
      if (!report.ok) return report;
      if (report.value.table !== args.table) return err('validation', `audit run ${args.runId} is of table ${report.value.table}, not ${args.table}`, { field: 'runId' });
      if (!report.value.complete) return err('validation', `the audit did not finish (${report.value.reason ?? 'incomplete'}): no repair plan from a partial scan — audit again`, { field: 'runId' });
      return service.plan(options.context(connection), {
        owner: connection.view.id,
        table: args.table,
        convention: report.value.convention,
        problems: report.value.problems,
        selection: { ...(args.kinds ? { kinds: args.kinds } : {}), ...(args.ids ? { ids: args.ids } : {}) },
      });
    },
    async execute(connection, planId, confirmation) {
      const started = service.start(options.context(connection), { owner: connection.view.id, planId, confirmation });
      return started.ok ? { ok: true, value: started.value.status } : started;
    },
    stop: async (connectionId, planId) => service.stop(connectionId, planId),
    status: async (connectionId, planId) => service.status(connectionId, planId),
  };
}
