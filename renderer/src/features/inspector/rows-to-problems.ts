/**
 * The problems the inspector's rows show, as report entries: exports are made from the rows on
 * screen (after any write patched them), so an export never disagrees with the inspector. Pure;
 * the test holds it to the engine's own report on every preset.
 */
import type { AccountGroup, GroupLock, GroupRow } from '../../../../shared/audit/types';
import { compareProblems } from '../../../../shared/audit/derive';
import type { KeySchema, PlainKey, Problem } from '../../../../shared/model';
import { keyId } from '../../../../shared/plain-key';

const hashOf = (key: PlainKey, keys: KeySchema): string => String(key[keys.hash.name] ?? '');

function strayProblem(row: Exclude<GroupRow, AccountGroup>): Problem {
  const base: Problem = { kind: row.kind, value: row.value, lock: row.key, ...(row.rule !== undefined ? { rule: row.rule } : {}), ...(row.scope !== undefined ? { scope: row.scope } : {}) };
  return row.reason !== undefined ? { ...base, reason: row.reason } : base;
}

// One (rule, value) of an account: its missing / duplicate / owner-mismatch problems. A value held by
// several accounts is reported once (by whichever holder comes first), with every holder.
function lockProblems(row: AccountGroup, lock: GroupLock, keys: KeySchema, seen: Set<string>): Problem[] {
  const { rule, normalized: value } = lock;
  // Scoped rules (uniqueness within an org…) carry the scope: one value in two scopes is two problems.
  const at = lock.scope !== undefined ? { rule, value, scope: lock.scope } : { rule, value };
  const duplicate = lock.status === 'duplicate';
  if (duplicate) {
    const id = JSON.stringify([rule, value, lock.scope ?? null]);
    if (seen.has(id)) return [];
    seen.add(id);
  }
  const holders = [row.key, ...(duplicate ? (lock.otherHolders ?? []) : [])].sort((a, b) => (keyId(a, keys) < keyId(b, keys) ? -1 : 1));
  const out: Problem[] = [];
  if (lock.status === 'missing' || (duplicate && lock.lock === undefined)) out.push({ kind: 'missing-lock', ...at, accounts: holders });
  if (duplicate) out.push({ kind: 'duplicate-value', ...at, accounts: holders });
  const owner = lock.owner;
  if (lock.lock !== undefined && owner !== undefined && !holders.some((h) => hashOf(h, keys) === owner)) {
    const heldBy = holders.map((h) => hashOf(h, keys)).join(', ');
    out.push({ kind: 'owner-mismatch', ...at, lock: lock.lock, accounts: holders, reason: `the lock names ${owner}, which does not hold this value; held by ${heldBy}` });
  }
  return out;
}

/** The problems of `rows`, in report order. */
export function problemsOfRows(rows: readonly GroupRow[], keys: KeySchema): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const row of rows) {
    if (row.kind !== 'account') out.push(strayProblem(row));
    else for (const lock of row.locks) out.push(...lockProblems(row, lock, keys, seen));
  }
  return out.sort(compareProblems);
}
