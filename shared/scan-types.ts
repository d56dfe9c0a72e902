/** Progress of a parallel scan, reported while it runs. */
export interface ScanProgress {
  readonly items: number;
  readonly pages: number;
  readonly segments: number;
  readonly segmentsDone: number;
  /** Sum of ConsumedCapacity.CapacityUnits when the service reports it (DynamoDB Local does not). */
  readonly capacityUnits: number;
  readonly elapsedMs: number;
  readonly retries: number;
}
