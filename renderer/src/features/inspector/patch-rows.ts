/**
 * After a claim or release the affected group is re-checked with a fresh lookup and updated in
 * place: no re-scan of the table. Pure: rows + lookup → rows (and counts adjusted to match).
 */
import { emptySummary, orphanRemains, problemsOfLocks, rowSummaryKinds, statusOfVerdict } from '../../../../shared/audit/problem-rules';
import type { AccountGroup, GroupLock, GroupRow } from '../../../../shared/audit/types';
import type { LookupRuleView, LookupView } from '../../../../shared/contract';
import type { ProblemKind } from '../../../../shared/model';
import type { AuditRows } from './audit-rows';

function patchAccount(row: AccountGroup, rule: LookupRuleView): AccountGroup {
  const status = statusOfVerdict(rule.verdict);
  if (!status) return row;
  let changed = false;
  const locks = row.locks.map((lock): GroupLock => {
    if (lock.rule !== rule.rule || lock.normalized !== rule.normalized || !sameScope(lock.scope, rule.scope) || lock.status === status)
      return lock;
    changed = true;
    const { lock: _old, ...rest } = lock;
    return status === 'missing' || !rule.lock ? { ...rest, status } : { ...rest, status, lock: rule.lock };
  });
  return changed ? { ...row, locks, problems: problemsOfLocks(locks) } : row;
}

/** Applies a lookup's verdicts to the rows: orphans that are gone disappear, holders' lock statuses are refreshed. */
export function patchRowsWithLookup(rows: AuditRows, lookup: LookupView): AuditRows {
  // A lookup whose holder scan did not finish may have missed holders: its verdicts never overwrite a complete audit's rows.
  if (lookup.complete === false) return rows;
  const byId = new Map(rows.byId);
  const summary: Record<ProblemKind, number> = { ...(rows.counts?.summary ?? emptySummary()) };
  let locks = rows.counts?.locks ?? 0;
  let changed = false;
  for (const id of rows.byId.keys()) {
    for (const rule of lookup.rules) {
      const current = byId.get(id);
      if (!current) break;
      const next = patchRow(current, rule);
      if (next === current) continue;
      changed = true;
      for (const kind of rowSummaryKinds(current)) summary[kind] -= 1;
      if (next === null) {
        byId.delete(id);
        locks -= 1;
        break;
      }
      for (const kind of rowSummaryKinds(next)) summary[kind] += 1;
      locks += lockCount(next) - lockCount(current);
      byId.set(id, next);
    }
  }
  if (!changed) return rows;
  // A released or claimed lock is an item gone or added: scanned moves with locks, so that scanned
  // stays accounts + locks (+ the table's other items) after a write.
  const counts = rows.counts ? { ...rows.counts, scanned: rows.counts.scanned + locks - rows.counts.locks, locks, summary } : undefined;
  return { byId, list: Array.from(byId.values()), counts };
}

// null = the row is gone (an orphan whose lock was released, or that is now held).
function patchRow(row: GroupRow, rule: LookupRuleView): GroupRow | null {
  if (row.kind === 'account') return patchAccount(row, rule);
  if (
    row.kind === 'orphan-lock' &&
    row.rule === rule.rule &&
    row.value === rule.normalized &&
    sameScope(row.scope, rule.scope) &&
    !orphanRemains(rule.verdict)
  )
    return null;
  return row;
}

function lockCount(row: GroupRow): number {
  return row.kind === 'account' ? row.locks.filter((l) => l.lock !== undefined).length : 1;
}

// A scoped rule's verdict is about one scope: it must not touch the same value in another org.
function sameScope(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}
