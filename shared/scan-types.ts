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
  /** What a run that is not a scan is doing now (an export audit: "download 3/16 files", "load", a check's name). */
  readonly step?: string;
}
