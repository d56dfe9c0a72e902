/** The app's `lookup.run` over a request context: who holds a value, as the lookup panel shows it. */
import type { LookupView, SuggestedIndexView } from '../../../shared/contract/views';
import { suggestIndexes } from '../../../shared/conventions/suggest-index';
import { ok, type Result } from '../../../shared/result';
import type { AuditIndexes } from '../audit/audit-index';
import { targetKey } from '../context/client-pool';
import type { ConventionContext } from '../context/request-context';
import { lookupValue } from './lookup';

/** What `lookup.run` asks for, after validation. */
export interface LookupArgs {
  readonly value: string;
  readonly rule?: string | undefined;
  readonly scope?: Readonly<Record<string, string>> | undefined;
  /** Scan for holders where an audit's index could lend them, and where an index finds none (neither sees every recent write). */
  readonly confirm?: boolean | undefined;
}

/** Per rule name, the GSI to add (none for a rule an index already serves). */
function indexSuggestions(ctx: ConventionContext): Map<string, SuggestedIndexView> {
  const out = new Map<string, SuggestedIndexView>();
  if (ctx.convention.rules.length === 0) return out;
  for (const s of suggestIndexes(ctx.table, ctx.convention)) {
    const create = (s.updateTable?.GlobalSecondaryIndexUpdates as readonly { Create: { IndexName: string } }[] | undefined)?.[0]?.Create;
    if (s.awsCli && create) out.set(s.rule, { indexName: create.IndexName, attribute: s.attribute, awsCli: s.awsCli, notes: s.notes });
  }
  return out;
}

/**
 * Looks a value up in the context's table (its GSIs from the one description) and maps the answer to
 * the view; a complete audit of the table under this convention, with no write through Locksmith
 * since, lends its holders (re-read by key) where no GSI serves a rule, unless `confirm` asks for the scan.
 * A rule that needed a scan or the audit carries the GSI that would make it one Query.
 */
export async function lookupView(ctx: ConventionContext, args: LookupArgs, indexes?: AuditIndexes): Promise<Result<LookupView>> {
  const auditIndex =
    args.confirm === true ? undefined : indexes?.find(targetKey(ctx.connectionId, ctx.target), ctx.table.name, ctx.convention);
  const answer = await lookupValue({
    client: ctx.client,
    table: { name: ctx.table.name, gsis: ctx.table.gsis },
    convention: ctx.convention,
    value: args.value,
    ...(args.rule ? { rule: args.rule } : {}),
    ...(args.scope ? { scope: args.scope } : {}),
    ...(auditIndex ? { auditIndex } : {}),
    // `confirm`: an index's "no holder" is checked by a consistent scan too (it may not show a write made a moment ago).
    ...(args.confirm === true ? { confirmAbsenceWithScan: true } : {}),
    errorContext: ctx.errorContext,
  });
  if (!answer.ok) return answer;
  const a = answer.value;
  const suggestions = indexSuggestions(ctx);
  // A scoped rule asked in every scope reads its locks by the scan too: an index would not spare it.
  const suggestionFor = (rule: string) =>
    ctx.convention.rules.some((r) => r.name === rule && r.scope !== undefined) && !args.scope ? undefined : suggestions.get(rule);
  const index = a.rules.map((r) => (r.search.kind === 'gsi' ? r.search.index : undefined)).find(Boolean);
  return ok({
    value: a.value,
    method: a.method === 'gsi' ? 'index' : a.method,
    ...(index ? { indexName: index } : {}),
    ...(a.usedAudit ? { usedAudit: a.usedAudit } : {}),
    complete: a.complete,
    ...(a.reason ? { reason: a.reason } : {}),
    rules: a.rules.map((r) => {
      const lock = r.locks.find((probe) => probe.exists);
      const suggestedIndex = r.search.kind === 'gsi' ? undefined : suggestionFor(r.rule);
      return {
        rule: r.rule,
        normalized: r.normalized,
        ...(r.scope ? { scope: r.scope } : {}),
        verdict: r.verdict,
        ...(lock ? { lock: lock.key } : {}),
        ...(lock?.owner ? { owner: lock.owner } : {}),
        holders: r.holders,
        notes: r.notes,
        ...(r.search.kind === 'audit' ? { asOfAudit: r.search.auditedAt } : {}),
        ...(r.search.kind === 'gsi' ? { byIndex: r.search.index } : {}),
        ...(suggestedIndex ? { suggestedIndex } : {}),
      };
    }),
  });
}
