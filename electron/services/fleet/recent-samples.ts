/**
 * Detection samples shared between the requests of one connection: the overview's survey of a table
 * and the audit start of the same table read the same bounded sample (2,000 items from four segments),
 * so a person who opens a table the survey has just sampled — or is sampling — waits for no second read.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/model';
import type { Result } from '../../../shared/result';

/** How long a sample is lent to later requests: long enough for a person to open a table after the overview, short enough to stay current. */
export const SAMPLE_SHARE_MS = 30_000;

interface Shared {
  readonly at: number;
  readonly sample: Promise<Result<Item[]>>;
}

/** Recent samples per client and table: one read in flight or finished within {@link SAMPLE_SHARE_MS} is lent, a failed one never. */
export class RecentSamples {
  private readonly byClient = new WeakMap<DynamoDBClient, Map<string, Shared>>();

  constructor(
    private readonly shareMs = SAMPLE_SHARE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The sample of `table` on `client`: a recent one when there is one, else `read()`'s, kept for the next request. */
  sample(client: DynamoDBClient, table: string, read: () => Promise<Result<Item[]>>): Promise<Result<Item[]>> {
    let tables = this.byClient.get(client);
    if (!tables) this.byClient.set(client, (tables = new Map()));
    const at = this.now();
    const kept = tables.get(table);
    if (kept && at - kept.at < this.shareMs) return kept.sample;
    const sample = read();
    const entry = { at, sample };
    tables.set(table, entry);
    const byTable = tables;
    // A failed read is not lent: the next request reads again (and reports its own error).
    void sample.then((result) => {
      if (!result.ok && byTable.get(table) === entry) byTable.delete(table);
    });
    return sample;
  }
}
