/** Table names of a connection, one page at a time (ListTables pages by cursor). */
import { useCallback, useMemo, useState } from 'react';
import type { TablesPage } from '../../../../shared/contract';
import { useQuery } from '../../bridge/use-method';
import type { AppError } from '../../../../shared/result';

const PAGE_SIZE = 25;

/** The current page, how to move between pages, and the load state. */
export interface TablesState {
  readonly page: TablesPage | undefined;
  readonly pageNumber: number;
  readonly loading: boolean;
  readonly error: AppError | undefined;
  readonly next: (() => void) | undefined;
  readonly previous: (() => void) | undefined;
  readonly reload: () => void;
}

/** Loads the tables of `connectionId` (nothing when undefined); a new connection starts at page one. */
export function useTables(connectionId: string | undefined): TablesState {
  // Cursors of the pages visited so far: [undefined] is the first page.
  const [cursors, setCursors] = useState<{ owner: string | undefined; list: readonly (string | undefined)[] }>({
    owner: connectionId,
    list: [undefined],
  });
  const list = useMemo(() => (cursors.owner === connectionId ? cursors.list : [undefined]), [cursors, connectionId]);
  const cursor = list[list.length - 1];
  const query = useQuery('tables.list', connectionId ? { connectionId, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } : null);
  const nextCursor = query.data?.nextCursor;
  const next = useCallback(() => {
    if (nextCursor) setCursors({ owner: connectionId, list: [...list, nextCursor] });
  }, [connectionId, list, nextCursor]);
  const previous = useCallback(() => setCursors({ owner: connectionId, list: list.slice(0, -1) }), [connectionId, list]);
  return {
    page: query.data,
    pageNumber: list.length,
    loading: query.loading,
    error: query.error,
    next: nextCursor ? next : undefined,
    previous: list.length > 1 ? previous : undefined,
    reload: query.reload,
  };
}
