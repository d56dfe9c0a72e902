/** Lookup latency: the same values looked up with the email GSI and without it (a filtered parallel scan). */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Convention } from '../shared/model';
import { lookupValue } from '../electron/services/lookup/lookup';
import { lookupEmail } from './dataset';
import { EMAIL_INDEX } from './table';

/** Latencies of one variant, in ms, in the order they ran. */
export interface LookupSamples {
  readonly gsi: number[];
  readonly scan: number[];
}

async function timeLookup(client: DynamoDBClient, table: string, convention: Convention, value: string, withGsi: boolean, segments: number): Promise<number> {
  const started = performance.now();
  const result = await lookupValue({ client, table: { name: table, gsis: withGsi ? [EMAIL_INDEX] : [] }, convention, value, rule: 'EMAIL', segments });
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(`lookup of ${value} failed: ${result.error.message}`);
  const verdict = result.value.rules[0]?.verdict;
  if (verdict !== 'held') throw new Error(`lookup of ${value} (${withGsi ? 'gsi' : 'scan'}) answered ${String(verdict)}, expected held`);
  return ms;
}

/**
 * `gsiCount` lookups through the index and `scanCount` through the scan (each reads the whole
 * table), interleaved so both see the same machine load; each answer is checked ("held").
 */
export async function benchLookups(client: DynamoDBClient, table: string, items: number, convention: Convention, gsiCount: number, scanCount: number, segments: number): Promise<LookupSamples> {
  const out: LookupSamples = { gsi: [], scan: [] };
  const perScan = Math.max(1, Math.ceil(gsiCount / Math.max(1, scanCount)));
  let g = 0;
  for (let s = 0; s < scanCount || g < gsiCount; s++) {
    for (let k = 0; k < perScan && g < gsiCount; k++, g++) out.gsi.push(await timeLookup(client, table, convention, lookupEmail(items, g, gsiCount), true, segments));
    if (s < scanCount) out.scan.push(await timeLookup(client, table, convention, lookupEmail(items, s, scanCount), false, segments));
  }
  return out;
}
