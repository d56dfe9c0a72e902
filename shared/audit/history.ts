/**
 * One line of the audit history: what an audit found, never the items. Both the app's overview and
 * `locksmith history` read it; a line that is not an entry of this shape is skipped, not fatal.
 */
import { PROBLEM_KINDS, type ProblemSummary } from '../model';

/** Where the audited table was: an endpoint URL (no user info), an AWS profile, or the default AWS chain. */
export interface HistoryTarget {
  readonly endpoint?: string;
  readonly profile?: string;
  readonly region?: string;
}

/** Which convention read the table: the preset it came from (or `custom`) and a short id of its exact content. */
export interface HistoryConvention {
  readonly preset: string;
  readonly id: string;
}

/** One completed audit. */
export interface AuditHistoryEntry {
  /** When the audit finished (ISO 8601). */
  readonly time: string;
  readonly table: string;
  readonly target: HistoryTarget;
  readonly convention: HistoryConvention;
  /** A live scan, or a DynamoDB export (not transactionally consistent: the overview says so). */
  readonly source: 'live' | 'export';
  readonly complete: boolean;
  readonly reason?: string;
  /** Items read. */
  readonly items: number;
  readonly accounts: number;
  readonly locks: number;
  readonly summary: ProblemSummary;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const optionalText = (v: unknown): boolean => v === undefined || typeof v === 'string';

/** The entry a parsed JSON value holds, or undefined when it is not one (hand-edited, torn, another version). */
export function asHistoryEntry(value: unknown): AuditHistoryEntry | undefined {
  if (!isRecord(value)) return undefined;
  const { time, table, target, convention, source, complete, reason, items, accounts, locks, summary } = value;
  if (typeof time !== 'string' || Number.isNaN(Date.parse(time)) || typeof table !== 'string' || table === '') return undefined;
  if (!isRecord(target) || !optionalText(target.endpoint) || !optionalText(target.profile) || !optionalText(target.region))
    return undefined;
  if (!isRecord(convention) || typeof convention.preset !== 'string' || typeof convention.id !== 'string') return undefined;
  if ((source !== 'live' && source !== 'export') || typeof complete !== 'boolean' || !optionalText(reason)) return undefined;
  if (!isCount(items) || !isCount(accounts) || !isCount(locks) || !isRecord(summary)) return undefined;
  if (!PROBLEM_KINDS.every((k) => isCount(summary[k]))) return undefined;
  return value as unknown as AuditHistoryEntry;
}

/** The entry of one history line, or undefined for a damaged line. */
export function parseHistoryLine(line: string): AuditHistoryEntry | undefined {
  try {
    return asHistoryEntry(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/** Every problem of an entry, all kinds together. */
export function totalProblems(summary: ProblemSummary): number {
  return PROBLEM_KINDS.reduce((sum, k) => sum + summary[k], 0);
}

/** True when two targets name the same place (the region only when both say one). */
export function sameTarget(a: HistoryTarget, b: HistoryTarget): boolean {
  return (
    (a.endpoint ?? '') === (b.endpoint ?? '') &&
    (a.profile ?? '') === (b.profile ?? '') &&
    (a.region === undefined || b.region === undefined || a.region === b.region)
  );
}

/** The target as people read it: `http://localhost:8000 (us-east-1)`, `profile prod (eu-west-1)`, `aws`. */
export function targetText(target: HistoryTarget): string {
  const where =
    target.endpoint ?? (target.profile !== undefined ? `profile ${target.profile}` : target.region !== undefined ? 'aws' : 'no connection');
  return target.region !== undefined ? `${where} (${target.region})` : where;
}
