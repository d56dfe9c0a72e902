/**
 * Which shards of a stream to read, from where. At start the watch reads every open shard from
 * LATEST (history is the audit's job); a shard that appears later (a split or a rollover) is read
 * from TRIM_HORIZON so none of its records is missed, but only after its parent is finished — the
 * order DynamoDB Streams requires for records of one item. Pure: DescribeStream's answer in, a plan out.
 */

/** One shard as DescribeStream lists it. */
export interface ShardInfo {
  readonly shardId: string;
  readonly parentShardId?: string;
  /** True when the shard has an ending sequence number (no new records will be added). */
  readonly closed: boolean;
}

/** What the reader knows of a shard: being read, or finished (read to its end, or history at start). */
export type ShardState = 'reading' | 'done';

/** Where to start reading a shard. */
export type StartPosition = 'LATEST' | 'TRIM_HORIZON';

/** What to do after a DescribeStream. */
export interface ShardPlan {
  readonly start: readonly { readonly shardId: string; readonly position: StartPosition }[];
  /** Shards to record as finished without reading (closed at start: history). */
  readonly skip: readonly string[];
  /** Finished shards no longer listed (trimmed after 24 h): drop them so memory stays flat. */
  readonly forget: readonly string[];
}

/** Plans reads from a DescribeStream answer; `initial` is the first describe of this watch. */
export function planShards(known: ReadonlyMap<string, ShardState>, described: readonly ShardInfo[], initial: boolean): ShardPlan {
  const start: { shardId: string; position: StartPosition }[] = [];
  const skip: string[] = [];
  const listed = new Set(described.map((s) => s.shardId));
  for (const shard of described) {
    if (known.has(shard.shardId)) continue;
    if (initial) {
      if (shard.closed) skip.push(shard.shardId);
      else start.push({ shardId: shard.shardId, position: 'LATEST' });
      continue;
    }
    // A child waits for its parent: records of one item must be read in order across a split.
    const parent = shard.parentShardId === undefined ? undefined : known.get(shard.parentShardId);
    if (parent === 'reading') continue;
    const parentPending = shard.parentShardId !== undefined && parent === undefined && listed.has(shard.parentShardId) && !initial;
    if (parentPending) continue;
    start.push({ shardId: shard.shardId, position: 'TRIM_HORIZON' });
  }
  const forget = [...known].filter(([id, state]) => state === 'done' && !listed.has(id)).map(([id]) => id);
  return { start, skip, forget };
}
