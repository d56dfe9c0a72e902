/**
 * The request context of the handler table: for a method on a connection, a table, or a table read
 * with a convention, resolves once per call what the service function needs — the connection (its
 * pooled client, writability), the table's description (one DescribeTable), the convention (given:
 * checked once against that description; else saved; else detected, its sample read beside the
 * DescribeTable) — and hands it over typed.
 * A thrown error becomes an AppError with the request's context; connection failures mark the
 * connection's sidebar entry.
 */
import type { Convention } from '../../shared/model';
import type { Result } from '../../shared/result';
import type { ConnectionRegistry } from '../services/connections/registry';
import type { SettingsStore } from '../services/connections/settings-store';
import { savedConvention } from '../services/conventions/convention-methods';
import type { ClientPool } from '../services/context/client-pool';
import type { RecentSamples } from '../services/fleet/recent-samples';
import { chooseConvention, startSample } from '../services/context/convention-choice';
import type { ConnectionContext, ConventionContext, TableContext } from '../services/context/request-context';
import { connectionContext, tableContext } from '../services/context/request-context';
import { effectiveEndpoint, isLocalTarget } from '../services/dynamo/client';
import { toAppError } from '../services/dynamo/errors';
import { describeTable } from '../services/dynamo/tables';

/** Error kinds that say something about the connection itself, shown on its sidebar entry. */
const CONNECTION_ERRORS = new Set(['unreachable', 'credentials', 'sso-expired', 'mfa-required']);

/** A service function over a context. */
type Service<C, A, R> = (ctx: C, args: A) => Promise<Result<R>>;
/** What the handler table gets back: parsed arguments (the service's, plus what the context needs) in, Result out. */
type Bound<Needs, S, R> = <A extends Needs & S>(args: A) => Promise<Result<R>>;

/** Arguments of a method on a connection / on a table / on a table read with a convention. */
type OnConnection = { readonly connectionId: string };
type OnTable = OnConnection & { readonly table: string };
type WithConvention = OnTable & { readonly convention?: Convention | undefined };

/** The context builders the handler table wraps its service functions in. */
export interface RequestContexts {
  /** Resolves `connectionId`. */
  connection<S, R>(run: Service<ConnectionContext, S, R>): Bound<OnConnection, S, R>;
  /** Resolves `connectionId` and describes `table`. */
  table<S, R>(run: Service<TableContext, S, R>): Bound<OnTable, S, R>;
  /** Resolves `connectionId`, describes `table` and chooses the convention. */
  convention<S, R>(run: Service<ConventionContext, S, R>): Bound<WithConvention, S, R>;
  /** Runs on the connection `idOf(args)` names (execute: the one its preview was made on). */
  connectionOf<S, R>(idOf: (args: S) => Result<string>, run: Service<ConnectionContext, S, R>): Bound<unknown, S, R>;
}

/** What resolving needs. */
export interface RequestContextOptions {
  readonly connections: ConnectionRegistry;
  readonly clients: ClientPool;
  readonly settings: SettingsStore;
  readonly env?: NodeJS.ProcessEnv;
  /** Detection samples shared with the overview's survey of the same table. */
  readonly samples?: RecentSamples;
}

/** Builds the context builders. */
export function createRequestContexts(options: RequestContextOptions): RequestContexts {
  const { connections, clients, settings, env, samples } = options;

  /** Resolves the connection, runs `run` on it, turns a throw into an AppError and marks connection failures. */
  async function on<R>(
    connectionId: string,
    table: string | undefined,
    run: (ctx: ConnectionContext) => Promise<Result<R>>,
  ): Promise<Result<R>> {
    const resolved = await connections.resolve(connectionId);
    if (!resolved.ok) return resolved;
    const { view, target } = resolved.value;
    const ctx = connectionContext({
      connectionId,
      label: view.label,
      target,
      client: clients.clientFor(connectionId, target),
      writable: view.writable,
      allowWrites: view.kind === 'profile' ? 'Allow writes for this profile (type its name)' : 'Allow writes for this connection',
      endpoint: effectiveEndpoint(target, env).url,
      local: isLocalTarget(target, env),
    });
    let result: Result<R>;
    try {
      result = await run(ctx);
    } catch (error) {
      result = { ok: false, error: toAppError(error, table === undefined ? ctx.errorContext : { ...ctx.errorContext, table }) };
    }
    if (!result.ok && CONNECTION_ERRORS.has(result.error.kind)) connections.markState(connectionId, 'error', result.error);
    return result;
  }

  async function described(ctx: ConnectionContext, table: string): Promise<Result<TableContext>> {
    const info = await describeTable(ctx.client, table, { local: ctx.local });
    return info.ok ? { ok: true, value: tableContext(ctx, info.value) } : info;
  }

  /** The convention of a request (given, else saved, else detected from a sample started at once) over the described table. */
  async function withConvention<R, A extends WithConvention>(
    ctx: ConnectionContext,
    args: A,
    run: Service<ConventionContext, A, R>,
  ): Promise<Result<R>> {
    const saved = args.convention ? undefined : await savedConvention(settings, args.connectionId, args.table);
    // Detection's sample needs no description: both reads at once.
    const read = (): ReturnType<typeof startSample> =>
      startSample(ctx.client, args.table, { errorContext: { ...ctx.errorContext, table: args.table } });
    const sample = args.convention || saved ? undefined : samples ? samples.sample(ctx.client, args.table, read) : read();
    const withTable = await described(ctx, args.table);
    if (!withTable.ok) return withTable;
    const chosen = await chooseConvention(withTable.value, args.convention, saved, sample);
    return chosen.ok ? run(chosen.value, args) : chosen;
  }

  return {
    connection: (run) => (args) =>
      on(args.connectionId, 'table' in args && typeof args.table === 'string' ? args.table : undefined, (ctx) => run(ctx, args)),
    table: (run) => (args) =>
      on(args.connectionId, args.table, async (ctx) => {
        const withTable = await described(ctx, args.table);
        return withTable.ok ? run(withTable.value, args) : withTable;
      }),
    convention: (run) => (args) => on(args.connectionId, args.table, (ctx) => withConvention(ctx, args, run)),
    connectionOf: (idOf, run) => (args) => {
      const id = idOf(args);
      return id.ok ? on(id.value, undefined, (ctx) => run(ctx, args)) : Promise.resolve(id);
    },
  };
}
