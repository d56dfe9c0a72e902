/** The app's `lookup.run` over a request context: who holds a value, as the lookup panel shows it. */
import type { LookupView } from '../../../shared/contract/views';
import { ok, type Result } from '../../../shared/result';
import type { ConventionContext } from '../context/request-context';
import { lookupValue } from './lookup';

/** What `lookup.run` asks for, after validation. */
export interface LookupArgs {
  readonly value: string;
  readonly rule?: string | undefined;
  readonly scope?: Readonly<Record<string, string>> | undefined;
}

/** Looks a value up in the context's table (its GSIs from the one description) and maps the answer to the view. */
export async function lookupView(ctx: ConventionContext, args: LookupArgs): Promise<Result<LookupView>> {
  const answer = await lookupValue({
    client: ctx.client,
    table: { name: ctx.table.name, gsis: ctx.table.gsis },
    convention: ctx.convention,
    value: args.value,
    ...(args.rule ? { rule: args.rule } : {}),
    ...(args.scope ? { scope: args.scope } : {}),
    errorContext: ctx.errorContext,
  });
  if (!answer.ok) return answer;
  const a = answer.value;
  const index = a.rules.map((r) => (r.search.kind === 'gsi' ? r.search.index : undefined)).find(Boolean);
  return ok({
    value: a.value,
    method: a.method === 'gsi' ? 'index' : a.method,
    ...(index ? { indexName: index } : {}),
    complete: a.complete,
    ...(a.reason ? { reason: a.reason } : {}),
    rules: a.rules.map((r) => {
      const lock = r.locks.find((probe) => probe.exists);
      return { rule: r.rule, normalized: r.normalized, ...(r.scope ? { scope: r.scope } : {}), verdict: r.verdict, ...(lock ? { lock: lock.key } : {}), ...(lock?.owner ? { owner: lock.owner } : {}), holders: r.holders, notes: r.notes };
    }),
  });
}
