/**
 * Lookup latency: the same values looked up with the email GSI, without it (a filtered parallel scan),
 * and without it after a complete audit (the audit's holders re-read by key, as the app does).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Convention } from '../shared/model';
import type { AuditIndex } from '../electron/services/audit/audit-index';
import { runAudit } from '../electron/services/audit/run-audit';
import { lookupValue } from '../electron/services/lookup/lookup';
import { lookupEmail } from './dataset';
import { EMAIL_INDEX } from './table';

/** Latencies of one variant, in ms, in the order they ran. */
export interface LookupSamples {
  readonly gsi: number[];
  readonly scan: number[];
  /** No GSI, after a complete audit of the table (the audit itself not timed here). */
  readonly audit: number[];
}

async function timeLookup(
  client: DynamoDBClient,
  table: string,
  convention: Convention,
  value: string,
  via: 'gsi' | 'scan' | AuditIndex,
  segments: number,
): Promise<number> {
  const started = performance.now();
  const result = await lookupValue({
    client,
    table: { name: table, gsis: via === 'gsi' ? [EMAIL_INDEX] : [] },
    convention,
    value,
    rule: 'EMAIL',
    segments,
    ...(typeof via === 'object' ? { auditIndex: via } : {}),
  });
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(`lookup of ${value} failed: ${result.error.message}`);
  const verdict = result.value.rules[0]?.verdict;
  const method = typeof via === 'object' ? 'audit' : via;
  if (verdict !== 'held' || result.value.method !== method)
    throw new Error(`lookup of ${value} (${method}) answered ${String(verdict)} by ${result.value.method}, expected held by ${method}`);
  return ms;
}

/**
 * `gsiCount` lookups through the index and as many from an audit, and `scanCount` through the scan
 * (each reads the whole table), interleaved so all see the same machine load; each answer is
 * checked ("held", by the method asked for).
 */
export async function benchLookups(
  client: DynamoDBClient,
  table: string,
  items: number,
  convention: Convention,
  gsiCount: number,
  scanCount: number,
  segments: number,
): Promise<LookupSamples> {
  const out: LookupSamples = { gsi: [], scan: [], audit: [] };
  const audit = await runAudit({ client, table, convention, segments });
  if (!audit.index) throw new Error(`the audit for the lookups did not complete: ${audit.report.reason ?? ''}`);
  const perScan = Math.max(1, Math.ceil(gsiCount / Math.max(1, scanCount)));
  let g = 0;
  for (let s = 0; s < scanCount || g < gsiCount; s++) {
    for (let k = 0; k < perScan && g < gsiCount; k++, g++) {
      // Same values both ways, alternating which goes first.
      const value = lookupEmail(items, g, gsiCount);
      const order: ('gsi' | AuditIndex)[] = g % 2 === 0 ? ['gsi', audit.index] : [audit.index, 'gsi'];
      for (const via of order)
        (via === 'gsi' ? out.gsi : out.audit).push(await timeLookup(client, table, convention, value, via, segments));
    }
    if (s < scanCount) out.scan.push(await timeLookup(client, table, convention, lookupEmail(items, s, scanCount), 'scan', segments));
  }
  return out;
}
