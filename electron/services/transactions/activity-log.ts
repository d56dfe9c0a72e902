/**
 * The local activity log (the Activity tab; "audit" is the table audit's word): one JSON line per
 * executed request (time, connection, region, effective endpoint, table, preview id, token, the exact
 * request, the outcome), in the data folder, mode 0600. Credentials never belong here; anything that
 * looks like one is scrubbed anyway.
 */
import { constants } from 'node:fs';
import { join } from 'node:path';
import type { ActivityStatus } from '../../../shared/domain';
import type { AppError } from '../../../shared/result';
import type { Outcome, TransactWriteInputJson } from '../../../shared/transactions/types';
import { ensureDataDir, openNoFollow, resolveDataDir } from '../connections/data-dir';
import { scrubKnownSecrets } from '../dynamo/secrets';

/** The log file's name inside the data folder: its first name, kept so that existing logs stay readable. */
export const ACTIVITY_LOG_FILE = 'audit-log.jsonl';

/** One line of the activity log. */
export interface ActivityEntry {
  readonly time: string;
  readonly connection: string;
  readonly region: string;
  /** The endpoint the request actually went to; `aws` for the regional AWS endpoint. */
  readonly endpoint: string;
  readonly table: string;
  readonly previewId: string;
  readonly token: string;
  readonly kind: string;
  readonly summary: string;
  readonly request: TransactWriteInputJson;
  /** `outcome-unknown`: the send failed after it may have reached DynamoDB (the error says so); `error`: it did nothing. */
  readonly outcome: Outcome | { readonly status: 'error' | 'outcome-unknown'; readonly error: AppError };
}

/** How a send that failed is logged: `outcome-unknown` when it may have reached DynamoDB (the error says so), else `error`. */
export function failedOutcome(error: AppError): { readonly status: 'error' | 'outcome-unknown'; readonly error: AppError } {
  return { status: error.outcome === 'unknown' ? 'outcome-unknown' : 'error', error };
}

/** Every status this version writes (`error`: the request could not be sent or its answer read). */
const RECORDED = ['succeeded', 'cancelled', 'refused', 'error', 'outcome-unknown'] as const satisfies readonly ActivityStatus[];
// Compile-time: a new outcome status must be added to RECORDED (and so to ActivityStatus) before it can be logged.
const _everyOutcomeRecorded: Exclude<ActivityEntry['outcome']['status'], (typeof RECORDED)[number]> extends never ? true : never = true;
void _everyOutcomeRecorded;

/** The status a read line records; `unknown` when it holds none this version writes (hand-edited, another version). */
export function recordedStatus(entry: { readonly outcome?: unknown }): ActivityStatus {
  const outcome = entry.outcome;
  const status = typeof outcome === 'object' && outcome !== null && 'status' in outcome ? outcome.status : undefined;
  return RECORDED.find((known) => known === status) ?? 'unknown';
}

/** The log file path for a data folder (default: LOCKSMITH_DATA_DIR, else the OS app-data folder). */
export function activityLogPath(dataDir: string = resolveDataDir()): string {
  return join(dataDir, ACTIVITY_LOG_FILE);
}

const SECRET_FIELD = /secret|session.?token|access.?key|password|credential/i;
/** AWS access key ids (long-term AKIA…, temporary ASIA…) wherever they appear in a value. */
const ACCESS_KEY_ID = /\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b/g;

/** Removes access-key-id shapes from every string value (attribute names are the request's, kept as sent). */
function scrubKeyIds(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(ACCESS_KEY_ID, '***');
  if (Array.isArray(value)) return value.map(scrubKeyIds);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubKeyIds(v)]));
}

/**
 * Scrubs an entry before writing: secret values go — every secret the process knows, the
 * connection's own, anything shaped like an access key id — but the request keeps its exact shape:
 * an attribute named `secretAlias` is the user's data, not a credential. Only a top-level field
 * named like a credential (never part of an entry; a bug if present) is masked whole.
 * (A generic "token=…" text rule would also eat the ClientRequestToken, which the log must keep.)
 */
function scrub(entry: ActivityEntry, secrets: readonly string[]): unknown {
  const top = Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, SECRET_FIELD.test(k) ? '***' : v]));
  return scrubKnownSecrets(scrubKeyIds(top), secrets);
}

/** Serializes an entry as one scrubbed JSON line. */
export function activityLine(entry: ActivityEntry, secrets: readonly string[] = []): string {
  return `${JSON.stringify(scrub(entry, secrets))}\n`;
}

/** Appends one entry; the folder is verified (0700, not writable by others) and the file kept 0600, never through a link. */
export async function appendActivity(entry: ActivityEntry, options: { dataDir?: string; secrets?: readonly string[] } = {}): Promise<void> {
  const dir = options.dataDir ?? resolveDataDir();
  await ensureDataDir(dir);
  const handle = await openNoFollow(activityLogPath(dir), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
  try {
    // The mode only applies on creation; a file made by hand or by an old version is tightened too (on the handle: no path to swap).
    await handle.chmod(0o600);
    await handle.appendFile(activityLine(entry, options.secrets));
  } finally {
    await handle.close();
  }
}

/** How much of the file's end is read for recent entries (older ones stay on disk). */
const TAIL_BYTES = 4 * 1024 * 1024;

/** The most recent entries, newest first; a missing file means no activity yet. */
export async function readActivity(options: { limit?: number; dataDir?: string } = {}): Promise<ActivityEntry[]> {
  const limit = Math.max(1, Math.min(options.limit ?? 100, 10_000));
  let text: string;
  try {
    const handle = await openNoFollow(activityLogPath(options.dataDir ?? resolveDataDir()), constants.O_RDONLY);
    try {
      const { size } = await handle.stat();
      const start = Math.max(0, size - TAIL_BYTES);
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      text = buffer.toString('utf8');
      // A tail that starts mid-line drops that partial line.
      if (start > 0) text = text.slice(text.indexOf('\n') + 1);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: ActivityEntry[] = [];
  for (const line of text.split('\n').reverse()) {
    if (line.trim() === '') continue;
    try {
      entries.push(JSON.parse(line) as ActivityEntry);
    } catch {
      // A torn last line (crash mid-append) is skipped, not fatal.
    }
    if (entries.length >= limit) break;
  }
  return entries;
}
