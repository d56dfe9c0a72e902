/**
 * Reads of a table shared between the requests of one connection: the overview's survey of a table
 * and the audit start of the same table read the same bounded sample (2,000 items from four segments)
 * and the same description, so a person who opens a table the survey has just read — or is reading —
 * waits for no second read (DynamoDB Local answers DescribeTable by counting the table).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Result } from '../../../shared/result';

/** How long a read is lent to later requests: long enough for a person to open a table after the overview, short enough to stay current. */
export const SAMPLE_SHARE_MS = 30_000;

interface Shared<T> {
  readonly at: number;
  readonly value: Promise<Result<T>>;
}

/** Recent reads of one kind per client and table: one in flight or finished within the share window is lent, a failed one never. */
export class RecentReads<T> {
  private readonly byClient = new WeakMap<DynamoDBClient, Map<string, Shared<T>>>();

  constructor(
    private readonly shareMs = SAMPLE_SHARE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** What `read()` answers for `table` on `client`: a recent answer when there is one, else a new read, kept for the next request. */
  lend(client: DynamoDBClient, table: string, read: () => Promise<Result<T>>): Promise<Result<T>> {
    let tables = this.byClient.get(client);
    if (!tables) this.byClient.set(client, (tables = new Map()));
    const at = this.now();
    const kept = tables.get(table);
    if (kept && at - kept.at < this.shareMs) return kept.value;
    return this.keep(tables, table, at, read());
  }

  /** A recent answer for `table` on `client` when there is one, else `read()`'s, not kept: a borrower reads afresh when nobody lends. */
  borrow(client: DynamoDBClient, table: string, read: () => Promise<Result<T>>): Promise<Result<T>> {
    const kept = this.byClient.get(client)?.get(table);
    return kept && this.now() - kept.at < this.shareMs ? kept.value : read();
  }

  private keep(tables: Map<string, Shared<T>>, table: string, at: number, value: Promise<Result<T>>): Promise<Result<T>> {
    const entry = { at, value };
    tables.set(table, entry);
    // A failed read is not lent: the next request reads again (and reports its own error).
    void value.then((result) => {
      if (!result.ok && tables.get(table) === entry) tables.delete(table);
    });
    return value;
  }
}
