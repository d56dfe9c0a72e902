/** Which inspector rows a filter and a search text keep (pure, used as the table's global filter). */
import type { GroupRow } from '../../../../shared/audit/types';
import type { ProblemKind } from '../../../../shared/model';

/** The filter chosen in the inspector toolbar. */
export type RowFilter = 'all' | 'problems' | ProblemKind;

/** The global filter value: a kind filter and a search text, applied together. */
export interface InspectorFilter {
  readonly filter: RowFilter;
  readonly search: string;
}

/** The problem kinds a row shows (an account's problems, or the stray lock's own kind). */
export function rowProblems(row: GroupRow): readonly ProblemKind[] {
  return row.kind === 'account' ? row.problems : [row.kind];
}

/** All text a search can match on a row: key values, rule values (as stored and normalized), lock keys, owners. */
export function rowSearchText(row: GroupRow): string {
  const parts: string[] = Object.values(row.key).map(String);
  if (row.kind === 'account') {
    for (const lock of row.locks) {
      parts.push(lock.value, lock.normalized);
      if (lock.lock) parts.push(...Object.values(lock.lock).map(String));
      if (lock.owner) parts.push(lock.owner);
    }
  } else {
    parts.push(row.value);
    if (row.owner) parts.push(row.owner);
  }
  return parts.join('\u0000').toLocaleLowerCase();
}

/**
 * True when `row` passes the kind filter and contains the search text (case-insensitive). `cache`
 * keeps each row's search text between calls (rows are immutable, so it never goes stale).
 */
export function rowMatches(row: GroupRow, { filter, search }: InspectorFilter, cache?: WeakMap<GroupRow, string>): boolean {
  const problems = rowProblems(row);
  if (filter === 'problems' && problems.length === 0) return false;
  if (filter !== 'all' && filter !== 'problems' && !problems.includes(filter)) return false;
  const needle = search.trim().toLocaleLowerCase();
  if (needle === '') return true;
  let text = cache?.get(row);
  if (text === undefined) {
    text = rowSearchText(row);
    cache?.set(row, text);
  }
  return text.includes(needle);
}

/**
 * The duplicate group a row belongs to (`RULE=value`), so duplicates can be sorted next to each
 * other and labelled; undefined for rows without a duplicate value.
 */
export function duplicateGroupKey(row: GroupRow): string | undefined {
  if (row.kind !== 'account') return undefined;
  const lock = row.locks.find((l) => l.status === 'duplicate');
  return lock ? `${lock.rule}=${lock.normalized}` : undefined;
}
