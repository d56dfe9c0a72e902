/**
 * The handler table: one entry per contract method, each one call of a service function — wrapped,
 * for methods on a connection or a table, in the request context that resolves what it needs once
 * (request-context.ts). The mapped type `HandlerTable` makes a missing method a compile error, and
 * handlers.test.ts keeps every method's code here and in its service.
 */
import { ok } from '../../shared/result';
import { auditReport, cancelAudit, startAudit } from '../services/audit/audit-methods';
import { detectView, getSavedConvention, saveConvention } from '../services/conventions/convention-methods';
import { checkConnection, listTablesPage, tableDetails } from '../services/dynamo/table-methods';
import { browseItems, getItem } from '../services/items/item-methods';
import { startExportAudit } from '../services/export/export-audit-app';
import { historyView, surveyView } from '../services/fleet/fleet-methods';
import { confirmExportRun } from '../services/export/export-confirm-app';
import { lookupView } from '../services/lookup/lookup-view';
import { executeRepair, planRepair, repairStatus, stopRepair } from '../services/repair/repair-bridge';
import { activityPage, decodeView, executeView, previewConnection, previewTx } from '../services/transactions/tx-methods';
import type { BridgeDeps } from './deps';
import type { ParsedArgs as Args } from '../../shared/contract/api';
import type { HandlerTable } from './pipeline';
import { createRequestContexts } from './request-context';

/** Builds the handler table over the app's stores. */
export function createHandlers(deps: BridgeDeps): HandlerTable {
  const { connections, settings, runs, tx, repairs } = deps;
  const on = createRequestContexts({ ...deps, samples: runs.samples });

  return {
    'app.info': () => deps.app.info().then(ok),
    'app.openExternal': ({ url }) => deps.app.openLink(url).then(ok),

    'connections.list': () => connections.list().then(ok),
    'connections.select': ({ id }) => connections.select(id),
    'connections.check': async ({ id }) => {
      const checked = await on.connection(checkConnection)({ connectionId: id });
      if (checked.ok) connections.markState(id, 'ok');
      return connections.get(id);
    },
    'connections.addEndpoint': (args) => connections.addEndpoint(args),
    'connections.remove': ({ id }) => connections.remove(id),
    'connections.setRegion': ({ id, region }) => connections.setRegion(id, region),
    'connections.setWritable': ({ id, writable, confirm }) => connections.setWritable(id, writable, confirm),

    'sandbox.start': () => deps.sandbox.start(),
    'sandbox.stop': () => deps.sandbox.stop(),
    'sandbox.info': async () => ok(deps.sandbox.info()),

    'tables.list': on.connection(listTablesPage),
    'tables.describe': on.table(tableDetails),
    // The survey (background, for the overview) yields to an opened table's audit start, DescribeTable included.
    'tables.survey': (args) =>
      runs.opening
        .clear()
        .then(() => on.table((ctx) => surveyView(ctx, { yieldTo: () => runs.opening.clear(), samples: runs.samples }))(args)),
    'items.get': on.table(getItem),
    'items.browse': on.table(browseItems),

    'conventions.detect': on.connection(detectView),
    'conventions.get': (args) => getSavedConvention(settings, args),
    'conventions.save': on.convention((ctx) => saveConvention(ctx, settings)),

    'audit.start': (args) => runs.opening.during(() => on.convention((ctx, a: Args<'audit.start'>) => startAudit(ctx, runs, a))(args)),
    'audit.cancel': (args) => cancelAudit(runs, args),
    'audit.report': (args) => auditReport(runs, args),
    'audit.startExport': on.connection((ctx, args: Args<'audit.startExport'>) =>
      startExportAudit(ctx, { runs, settings, dataDir: tx.dataDir, env: deps.env }, args),
    ),
    'audit.confirmExport': on.table((ctx, args: Args<'audit.confirmExport'>) => confirmExportRun(ctx, runs, args)),

    'watch.start': on.convention((ctx) => deps.watches.start(ctx)),
    'watch.stop': ({ watchId }) => deps.watches.stop(watchId),

    'lookup.run': on.convention((ctx, args: Args<'lookup.run'>) => lookupView(ctx, args, runs.indexes)),

    'tx.preview': on.convention((ctx, args: Args<'tx.preview'>) => previewTx(ctx, tx, args)),
    'tx.execute': on.connectionOf(
      (args: Args<'tx.execute'>) => previewConnection(tx, args.previewId),
      (ctx, args) => executeView(ctx, tx, args),
    ),
    'tx.decode': decodeView,
    'repair.plan': on.connection((ctx, args: Args<'repair.plan'>) => planRepair(ctx, deps, args)),
    'repair.execute': on.connection((ctx, args: Args<'repair.execute'>) => executeRepair(ctx, deps, args)),
    'repair.stop': (args) => stopRepair(repairs, args),
    'repair.status': (args) => repairStatus(repairs, args),
    'history.list': on.connection((ctx, args: Args<'history.list'>) => historyView(ctx, tx.dataDir, args)),
    'activity.list': (args) => activityPage(tx, args),

    'mfa.answer': async (answer) => deps.mfa.answer(answer),

    'settings.get': async () => ok((await settings.read()).ui),
    'settings.set': async ({ theme }) => ok((await settings.update((s) => ({ ...s, ui: { ...s.ui, ...(theme ? { theme } : {}) } }))).ui),
  };
}
