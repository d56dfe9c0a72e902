/**
 * The audit history (`audit-history.jsonl` in the data folder, mode 0600): one JSON line per finished
 * audit, live or from an export — table, target, convention, time, counts, complete — and never an
 * item. It is bounded: once the file passes HISTORY_MAX_BYTES it is rewritten with its newest lines
 * up to HISTORY_KEEP_BYTES (a few thousand audits), atomically (a temp file renamed over it).
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditHistoryEntry, HistoryTarget } from '../../../shared/audit/history';
import { parseHistoryLine, sameTarget } from '../../../shared/audit/history';
import type { AuditReport } from '../../../shared/audit/types';
import type { Convention } from '../../../shared/model';
import { ensureDataDir, openNoFollow } from '../connections/data-dir';

/** The history file's name inside the data folder. */
export const HISTORY_FILE = 'audit-history.jsonl';
/** The file is trimmed once it grows past this (1 MiB: ~2,500 entries of ~400 bytes). */
export const HISTORY_MAX_BYTES = 1024 * 1024;
/** What a trim keeps: the newest lines up to this many bytes (room for ~600 appends before the next trim). */
export const HISTORY_KEEP_BYTES = 768 * 1024;

/** The history file of a data folder. */
export function historyPath(dataDir: string): string {
  return join(dataDir, HISTORY_FILE);
}

/** Where a connection points, without anything secret: an endpoint loses user info, query and fragment. */
export function historyTarget(target: { readonly endpoint?: string; readonly profile?: string; readonly region?: string }): HistoryTarget {
  let endpoint = target.endpoint;
  if (endpoint !== undefined) {
    try {
      const url = new URL(endpoint);
      endpoint = `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
    } catch {
      endpoint = 'unreadable endpoint';
    }
  }
  return {
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(target.profile !== undefined && endpoint === undefined ? { profile: target.profile } : {}),
    ...(target.region !== undefined ? { region: target.region } : {}),
  };
}

/** A short id of a convention's exact content: two audits with the same id read the table the same way. */
export function conventionId(convention: Convention): string {
  return createHash('sha256').update(JSON.stringify(convention)).digest('hex').slice(0, 8);
}

/** What a history entry says beyond the report. */
export interface HistoryMeta {
  readonly target: HistoryTarget;
  readonly source: 'live' | 'export';
  /** Default: now. */
  readonly time?: Date;
}

/** The entry for a finished audit's report (counts only: no problems, no keys). */
export function historyEntry(report: AuditReport, meta: HistoryMeta): AuditHistoryEntry {
  return {
    time: (meta.time ?? new Date()).toISOString(),
    table: report.table,
    target: meta.target,
    convention: { preset: report.convention.preset, id: conventionId(report.convention) },
    source: meta.source,
    complete: report.complete,
    ...(report.reason !== undefined ? { reason: report.reason } : {}),
    items: report.scanned,
    accounts: report.accounts,
    locks: report.locks,
    summary: { ...report.summary },
  };
}

// Appends of one process go one at a time (an all-tables audit finishes several at once): a trim never races an append here.
let queue: Promise<void> = Promise.resolve();

/** Appends one entry (folder verified 0700, file 0600, never through a link) and trims the file when it is too big. */
export function appendHistory(dataDir: string, entry: AuditHistoryEntry): Promise<void> {
  const next = queue.then(() => appendNow(dataDir, entry));
  queue = next.catch(() => undefined);
  return next;
}

async function appendNow(dataDir: string, entry: AuditHistoryEntry): Promise<void> {
  await ensureDataDir(dataDir);
  const handle = await openNoFollow(historyPath(dataDir), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
  let size: number;
  try {
    await handle.chmod(0o600);
    await handle.appendFile(`${JSON.stringify(entry)}\n`);
    size = (await handle.stat()).size;
  } finally {
    await handle.close();
  }
  if (size > HISTORY_MAX_BYTES) await trim(dataDir);
}

/** Rewrites the file with its newest lines up to HISTORY_KEEP_BYTES (damaged lines dropped on the way). */
async function trim(dataDir: string): Promise<void> {
  const lines = (await readText(dataDir)).split('\n').filter((line) => parseHistoryLine(line) !== undefined);
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const size = Buffer.byteLength(lines[i]!) + 1;
    if (bytes + size > HISTORY_KEEP_BYTES) break;
    bytes += size;
    kept.push(lines[i]!);
  }
  const temp = `${historyPath(dataDir)}.${process.pid}.tmp`;
  const handle = await openNoFollow(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(
      kept
        .reverse()
        .map((l) => `${l}\n`)
        .join(''),
    );
  } finally {
    await handle.close();
  }
  await rename(temp, historyPath(dataDir)).catch(async (error: unknown) => {
    await unlink(temp).catch(() => undefined);
    throw error;
  });
}

async function readText(dataDir: string): Promise<string> {
  try {
    const handle = await openNoFollow(historyPath(dataDir), constants.O_RDONLY);
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/** Which entries to read. */
export interface HistoryFilter {
  readonly table?: string;
  readonly target?: HistoryTarget;
}

/** The entries, oldest first; a damaged line is skipped; a missing file is an empty history. */
export async function readHistory(dataDir: string, filter: HistoryFilter = {}): Promise<AuditHistoryEntry[]> {
  const entries: AuditHistoryEntry[] = [];
  for (const line of (await readText(dataDir)).split('\n')) {
    if (line.trim() === '') continue;
    const entry = parseHistoryLine(line);
    if (!entry) continue;
    if (filter.table !== undefined && entry.table !== filter.table) continue;
    if (filter.target !== undefined && !sameTarget(entry.target, filter.target)) continue;
    entries.push(entry);
  }
  return entries;
}

/** Records a finished audit; best effort for the caller (the audit's result stands whether or not this works). */
export async function recordAudit(dataDir: string, report: AuditReport, meta: HistoryMeta): Promise<void> {
  await appendHistory(dataDir, historyEntry(report, meta));
}
