/**
 * The handler table: one entry per contract method, each a thin call into a service.
 * The mapped type `HandlerTable` makes a missing method a compile error.
 */
import type { Convention } from '../../shared/model';
import type { Result } from '../../shared/result';
import { err, ok } from '../../shared/result';
import { checkConvention, checkLockTable } from '../../shared/conventions/file';
import type { BridgeDeps } from './deps';
import type { HandlerTable } from './pipeline';
import type { ResolvedConnection } from '../services/connections/registry';
import { conventionKey } from '../services/connections/settings-store';

/** Error kinds that say something about the connection itself, shown on its sidebar entry. */
const CONNECTION_ERRORS = new Set(['unreachable', 'credentials', 'sso-expired', 'mfa-required']);

/** Builds the handler table over the services. */
export function createHandlers(deps: BridgeDeps): HandlerTable {
  const { connections, data, settings } = deps;

  async function on<T>(connectionId: string, run: (connection: ResolvedConnection) => Promise<Result<T>>): Promise<Result<T>> {
    const resolved = await connections.resolve(connectionId);
    if (!resolved.ok) return resolved;
    const result = await run(resolved.value);
    if (!result.ok && CONNECTION_ERRORS.has(result.error.kind)) connections.markState(connectionId, 'error', result.error);
    return result;
  }

  /** Checks a convention from the caller against the table's real key schema (the schema checked it against its own). */
  async function fitsTable(connection: ResolvedConnection, table: string, convention: Convention): Promise<Result<Convention>> {
    const described = await data.describeTable(connection, table);
    if (!described.ok) return described;
    let checked = checkConvention(convention, described.value.keys);
    if (checked.ok && convention.lockTable !== undefined) {
      const lockTable = await data.describeTable(connection, convention.lockTable);
      if (!lockTable.ok && lockTable.error.kind !== 'not-found') return lockTable;
      checked = checkLockTable(convention, lockTable.ok ? lockTable.value.keys : undefined);
    }
    if (checked.ok) return ok(convention);
    const field = checked.error.field ? `convention.${checked.error.field}` : 'convention';
    const message = checked.error.field && checked.error.message.startsWith(`${checked.error.field}: `) ? `convention.${checked.error.message}` : `convention: ${checked.error.message}`;
    return err('validation', message, { field });
  }

  /** The convention to use: the one passed (checked against the table), else the saved one, else a detected one. */
  async function conventionFor(connection: ResolvedConnection, table: string, given: Convention | undefined): Promise<Result<Convention>> {
    if (given) return fitsTable(connection, table, given);
    const saved = (await settings.read()).conventions[conventionKey(connection.view.id, table)];
    if (saved) return ok(saved);
    const detected = await data.detect(connection, table, undefined);
    return detected.ok ? ok(detected.value.convention) : detected;
  }

  return {
    'app.info': () => deps.app.info().then(ok),
    'app.openExternal': ({ url }) => deps.app.openLink(url).then(ok),

    'connections.list': () => connections.list().then(ok),
    'connections.select': ({ id }) => connections.select(id),
    'connections.check': async ({ id }) => {
      const checked = await on(id, (connection) => data.check(connection));
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

    'tables.list': ({ connectionId, cursor, limit }) => on(connectionId, (c) => data.listTables(c, cursor, limit)),
    'tables.describe': ({ connectionId, table }) => on(connectionId, (c) => data.describeTable(c, table)),
    'items.get': ({ connectionId, table, key }) => on(connectionId, (c) => data.getItem(c, table, key)),
    'items.browse': ({ connectionId, table, ...request }) => on(connectionId, (c) => data.browseItems(c, table, request)),

    'conventions.detect': ({ connectionId, table, sampleSize }) => on(connectionId, (c) => data.detect(c, table, sampleSize)),
    'conventions.get': async ({ connectionId, table }) => ok({ convention: (await settings.read()).conventions[conventionKey(connectionId, table)] ?? null }),
    'conventions.save': ({ connectionId, table, convention }) =>
      on(connectionId, async (c) => {
        const fits = await fitsTable(c, table, convention);
        if (!fits.ok) return fits;
        await settings.update((s) => ({ ...s, conventions: { ...s.conventions, [conventionKey(connectionId, table)]: convention } }));
        return ok({ convention });
      }),

    'audit.start': ({ connectionId, table, convention, segments }) =>
      on(connectionId, async (c) => {
        const chosen = await conventionFor(c, table, convention);
        return chosen.ok ? data.startAudit(c, table, chosen.value, segments) : chosen;
      }),
    'audit.cancel': ({ runId }) => data.cancelAudit(runId),
    'audit.report': ({ runId }) => data.auditReport(runId),

    'watch.start': ({ connectionId, table, convention }) =>
      on(connectionId, async (c) => {
        const chosen = await conventionFor(c, table, convention);
        return chosen.ok ? deps.watches.start(c, table, chosen.value) : chosen;
      }),
    'watch.stop': ({ watchId }) => deps.watches.stop(watchId),

    'lookup.run': ({ connectionId, table, value, rule, scope, convention }) =>
      on(connectionId, async (c) => {
        const chosen = await conventionFor(c, table, convention);
        return chosen.ok ? data.lookup(c, table, chosen.value, value, rule, scope) : chosen;
      }),

    'tx.preview': ({ connectionId, table, request, convention }) =>
      on(connectionId, async (c) => {
        const chosen = await conventionFor(c, table, convention);
        return chosen.ok ? data.preview(c, table, chosen.value, request) : chosen;
      }),
    'tx.execute': ({ previewId, confirmation }) => data.execute(previewId, confirmation, (id) => connections.resolve(id)),
    'tx.decode': ({ text, request }) => data.decode(text, request),
    'repair.plan': ({ connectionId, ...args }) => on(connectionId, (c) => deps.repairs.plan(c, args)),
    'repair.execute': ({ connectionId, planId, confirmation }) => on(connectionId, (c) => deps.repairs.execute(c, planId, confirmation)),
    'repair.stop': ({ connectionId, planId }) => deps.repairs.stop(connectionId, planId),
    'repair.status': ({ connectionId, planId }) => deps.repairs.status(connectionId, planId),
    'activity.list': ({ limit }) => data.activity(limit),

    'mfa.answer': async (answer) => deps.mfa.answer(answer),

    'settings.get': async () => ok((await settings.read()).ui),
    'settings.set': async (change) => {
      const next = await settings.update((s) => ({ ...s, ui: { ...s.ui, ...(change.theme ? { theme: change.theme } : {}) } }));
      return ok(next.ui);
    },
  };
}
