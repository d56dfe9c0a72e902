/**
 * A fake handler table for tests of what sits in front of it (pipeline, IPC, HTTP, fuzz, attacks):
 * built from the contract, so it never needs a change when a method is added. Every call is
 * recorded by method name; a few methods answer canned values, the rest `not-found`.
 */
import type { MethodName, MethodResult } from '../../../shared/contract/api';
import { METHOD_NAMES } from '../../../shared/contract/api';
import { methods } from '../../../shared/contract/methods';
import type { Result } from '../../../shared/result';
import { err, ok } from '../../../shared/result';
import type { Handler, HandlerTable } from '../pipeline';

/** Canned answers of the fake table (the rest answer `not-found`). */
const CANNED: { readonly [M in MethodName]?: MethodResult<M> } = {
  'tables.list': { tables: ['accounts'] },
  'settings.get': { theme: 'system' },
};

/** Overrides of single methods (e.g. a throwing service). */
export type FakeOverrides = { -readonly [M in MethodName]?: Handler<M> };

/** The fake table, the calls it received (method names, in order) and how many of them were writes. */
export function createFakeHandlers(overrides: FakeOverrides = {}): { handlers: HandlerTable; calls: string[]; writes: () => number } {
  const calls: string[] = [];
  let writes = 0;
  const entry =
    (method: MethodName) =>
    async (args: unknown, context: Parameters<Handler<MethodName>>[1]): Promise<Result<unknown>> => {
      calls.push(method);
      if (methods[method].writes) writes += 1;
      const override = overrides[method] as ((args: unknown, context: unknown) => Promise<Result<unknown>>) | undefined;
      if (override) return override(args, context);
      const canned = (CANNED as Readonly<Record<string, unknown>>)[method];
      return canned === undefined ? err('not-found', `fake: ${method}`) : ok(canned);
    };
  const handlers = Object.fromEntries(METHOD_NAMES.map((method) => [method, entry(method)])) as unknown as HandlerTable;
  return { handlers, calls, writes: () => writes };
}
