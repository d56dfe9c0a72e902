/**
 * What `watch` reports: a problem that appears, a problem that
 * disappears (each naming the stream record that caused it), and once every shard is being read.
 */
import type { Item, PlainKey, Problem } from '../model';
import { shownText, shownValue } from '../terminal-text';

/** One stream record as the watch needs it (SDK-free, so the decision logic stays pure). */
export interface StreamChange {
  readonly eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  /** The item's key attributes, typed. */
  readonly keys: Item;
  readonly oldImage?: Item;
  readonly newImage?: Item;
  /** ISO time of the stream record (ApproximateCreationDateTime). */
  readonly at: string;
  readonly sequenceNumber: string;
}

/** The write that caused an event: the stream record, by key and time. */
export interface WatchCause {
  readonly eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  readonly keys: PlainKey;
  readonly at: string;
  readonly sequenceNumber: string;
}

/** One line of `watch` output. */
export type WatchEvent =
  | { readonly event: 'problem'; readonly problem: Problem; readonly cause: WatchCause }
  | { readonly event: 'resolved'; readonly problem: Problem; readonly cause: WatchCause }
  | {
      readonly event: 'watching';
      readonly table: string;
      readonly streamArn: string;
      /** With a convention that keeps its locks apart: that table and its stream, read as well. */
      readonly lockTable?: string;
      readonly lockStreamArn?: string;
    };

/**
 * What the watch says besides events: a `gap` (changes the stream no longer holds were missed, so
 * silence since then proves nothing: run an audit) or a re-check being `retrying`.
 */
export interface WatchNotice {
  readonly kind: 'gap' | 'retrying';
  readonly message: string;
}

/**
 * A gap as one `watch --json` line of its own: changes the watch missed (an expired or trimmed
 * position), so a script reading stdout cannot take the silence that follows for "no drift".
 */
export interface WatchGapLine {
  readonly event: 'gap';
  /** What was missed and what to do (run an audit). */
  readonly reason: string;
  /** ISO time the watch noticed it. */
  readonly at: string;
}

/** One line of `watch --json`: an event, or a gap. */
export type WatchLine = WatchEvent | WatchGapLine;

/**
 * How a live watch in the app is doing: reading (`live`), behind its stream (`lagging`), reading
 * again after changes were missed (`gap`, kept until the watch ends: its reason says what to do), or ended (with why).
 */
export type LiveWatchStatus = 'live' | 'lagging' | 'gap' | 'stopped';

/** One event of the app's `watch.events` stream: a watch event or a status change, tagged with its watch. */
export type LiveWatchEvent =
  | (WatchEvent & { readonly watchId: string })
  | { readonly event: 'status'; readonly watchId: string; readonly status: LiveWatchStatus; readonly reason?: string };

/** What `watch.start` answers. */
export interface WatchStarted {
  readonly watchId: string;
  readonly streamArn: string;
  /** The lock table's stream, read as well when the convention keeps its locks apart. */
  readonly lockStreamArn?: string;
  /** The settle window in ms (a problem shows within about two). */
  readonly settleMs: number;
}

/** The key of a problem as text: `PK=…, SK=…` (what the readable lines show). */
function keyText(key: PlainKey | undefined): string {
  if (key === undefined) return '';
  return Object.entries(key)
    .map(([name, value]) => `${shownText(name)}=${shownText(String(value))}`)
    .join(', ');
}

/** One readable line per event (without --json). */
export function eventText(event: WatchEvent): string {
  switch (event.event) {
    case 'watching':
      return `watching ${event.table} (${event.streamArn})${event.lockTable ? ` and its lock table ${event.lockTable} (${event.lockStreamArn ?? ''})` : ''}`;
    case 'problem':
    case 'resolved': {
      const p = event.problem;
      const where = p.lock ? ` lock ${keyText(p.lock)}` : p.accounts ? ` accounts ${p.accounts.map(keyText).join(' | ')}` : '';
      const rule = p.rule === undefined ? '' : `${p.rule} `;
      const c = event.cause;
      return `${event.event === 'problem' ? 'PROBLEM ' : 'RESOLVED'} ${p.kind} ${rule}${shownValue(p.value)}${where} — caused by ${c.eventName} ${keyText(c.keys)} at ${c.at} (#${c.sequenceNumber})`;
    }
  }
}
