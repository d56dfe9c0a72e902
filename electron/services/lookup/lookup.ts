/**
 * Lookup: is this value free, held, orphaned, unprotected or duplicated? Reads each candidate
 * lock with a consistent GetItem, then finds the holders through a GSI on the rule's attribute
 * when the table has one, else through one filtered parallel scan shared by all rules.
 */
import type { PlainKey } from '../../../shared/model';
import { err, ok } from '../../../shared/result';
import type { Result } from '../../../shared/result';
import { toAppError } from '../dynamo/errors';
import { scanTable } from '../scanner/scanner';
import { holderScanFilter, holderScanProjection } from './holder-scan';
import { auditHolders, holdersIn, queryHolders, readLock, usableAudit } from './holder-reads';
import { planRules } from './lookup-plan';
import type { HolderSearch, LookupAnswer, LookupOptions, RuleLookup } from './lookup-types';
import { collectEveryScope, dedupe, everyScopeResults, ruleResult, valueForms, type Plan, type ScopeFinds } from './lookup-results';

export { foundLockNotes } from './lookup-results';

/** Looks a value up under one rule or all rules of the convention. */
export async function lookupValue(options: LookupOptions): Promise<Result<LookupAnswer>> {
  const { convention, value } = options;
  if (value === '') return err('validation', 'the value must not be empty', { field: 'value' });
  const planned = planRules(options);
  if (!planned.ok) return planned;
  const plans = planned.value;
  try {
    const locks = await Promise.all(plans.map((p) => Promise.all(p.candidates.map((c) => readLock(options, c)))));
    const audit = usableAudit(options);
    // Per rule: a GSI, else the audit's holders (a rule asked in every scope still scans), else the scan.
    const viaAudit = plans.map((p) => !p.gsi && !p.everyScope && audit !== undefined);
    const indexed: (PlainKey[] | undefined)[] = await Promise.all(
      plans.map((p, i) =>
        p.gsi
          ? queryHolders(options, p.gsi, p.rule, p.index, p.normalized, p.scope)
          : viaAudit[i] && audit
            ? auditHolders(options, audit, p)
            : Promise.resolve(undefined),
      ),
    );

    plans.forEach((p, i) => {
      // An index finds stored spellings only, and is eventually consistent (an account written a moment ago may be missing).
      if (p.gsi && options.confirmAbsenceWithScan && (indexed[i]?.length ?? 0) === 0) {
        p.notes.push(`index ${p.gsi.name} found no holder; a consistent scan confirmed the answer`);
        indexed[i] = undefined;
      }
      // An audit cannot know of accounts written after it: absence is certain only from a scan.
      if (viaAudit[i] && options.confirmAbsenceWithScan && (indexed[i]?.length ?? 0) === 0) {
        p.notes.push('the audit found no holder; a scan confirmed the answer');
        viaAudit[i] = false;
        indexed[i] = undefined;
      }
    });
    const scanPlans = plans.filter((_p, i) => indexed[i] === undefined);
    const scanned = new Map<number, PlainKey[]>(scanPlans.map((p) => [p.index, []]));
    const everyScope = new Map<number, ScopeFinds>(scanPlans.filter((p) => p.everyScope).map((p) => [p.index, new Map()]));
    let outcome: Awaited<ReturnType<typeof scanTable>> | undefined;
    if (scanPlans.length > 0) {
      const rules = scanPlans.map((p) => ({ rule: p.rule, index: p.index, normalized: p.normalized, forms: valueForms(p.rule, value) }));
      const scanOf = (table: string, only: readonly Plan[]) => {
        const subset = rules.filter((r) => only.some((p) => p.index === r.index));
        return scanTable({
          client: options.client,
          table,
          segments: options.segments,
          // A holder written a moment ago (the re-check right after a claim) must be seen: the scan reads consistently.
          consistentRead: true,
          projection: holderScanProjection(convention, subset),
          filter: holderScanFilter(subset, convention),
          signal: options.signal,
          onProgress: options.onProgress,
          errorContext: options.errorContext,
          onPage: (items) => {
            for (const p of only) {
              const finds = everyScope.get(p.index);
              if (finds) collectEveryScope(convention, items, p, finds);
              else scanned.get(p.index)?.push(...holdersIn(convention, items, p.index, p.normalized, p.scope));
            }
          },
        });
      };
      // With a lock table, a scoped rule asked in every scope finds its locks there, in a second scan.
      const lockPlans = convention.lockTable === undefined ? [] : scanPlans.filter((p) => p.everyScope);
      const [main, locksScan] = await Promise.all([
        scanOf(options.table.name, scanPlans),
        lockPlans.length > 0 && convention.lockTable ? scanOf(convention.lockTable, lockPlans) : undefined,
      ]);
      outcome = locksScan && !locksScan.complete ? locksScan : main;
      if (outcome.error && outcome.error.kind !== 'cancelled' && outcome.progress.pages === 0) return { ok: false, error: outcome.error };
    }

    const scanSearch: HolderSearch = { kind: 'scan', segments: outcome?.progress.segments ?? 0, complete: outcome?.complete ?? false };
    const results: RuleLookup[] = plans.flatMap((p, i): RuleLookup[] => {
      const finds = everyScope.get(p.index);
      if (finds) return everyScopeResults(convention, p, finds, scanSearch, outcome?.reason);
      const search: HolderSearch =
        indexed[i] !== undefined && p.gsi
          ? { kind: 'gsi', index: p.gsi.name }
          : indexed[i] !== undefined && viaAudit[i] && audit
            ? { kind: 'audit', auditedAt: new Date(audit.finishedAt).toISOString() }
            : scanSearch;
      return [
        ruleResult(
          convention,
          p,
          locks[i] ?? [],
          dedupe(indexed[i] ?? scanned.get(p.index) ?? [], convention),
          search,
          value,
          outcome?.reason,
          p.scope,
        ),
      ];
    });
    const kinds = new Set(results.map((r) => r.search.kind));
    const method = kinds.size >= 2 ? 'mixed' : kinds.has('gsi') ? 'gsi' : kinds.has('audit') ? 'audit' : 'scan';
    const usedAudit = kinds.has('audit') && audit ? new Date(audit.finishedAt).toISOString() : undefined;
    const complete = outcome === undefined || outcome.complete;
    return ok({
      table: options.table.name,
      value,
      method,
      ...(usedAudit ? { usedAudit } : {}),
      complete,
      ...(complete ? {} : { reason: outcome?.reason ?? 'incomplete' }),
      rules: results,
      ...(outcome ? { scan: outcome.progress } : {}),
    });
  } catch (error) {
    return { ok: false, error: toAppError(error, { ...options.errorContext, table: options.table.name }) };
  }
}
