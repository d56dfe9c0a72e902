/**
 * Fan-out of stream events (audit deltas, sandbox status, MFA prompts) to subscribers of either
 * transport. Services publish; IPC and SSE subscribe with a filter validated against the contract.
 */
import type { StreamEvent, StreamName } from '../../shared/contract/api';
import { isStreamName, matchesFilter } from '../../shared/contract/api';
import { streams } from '../../shared/contract/streams';
import type { Result } from '../../shared/result';
import { err, ok } from '../../shared/result';
import { scrubKnownSecrets } from '../services/dynamo/secrets';
import { validationError } from './pipeline';

/** Receives events of one subscription. */
export type Deliver = (event: unknown) => void;

/** Publish/subscribe for contract streams. */
export interface StreamHub {
  /** Sends an event to every subscriber of `stream` whose filter matches it. */
  publish<S extends StreamName>(stream: S, event: StreamEvent<S>): void;
  /** Validates the stream name and filter; on success returns the function that ends the subscription. */
  subscribe(stream: unknown, filter: unknown, deliver: Deliver): Result<() => void>;
  /** Number of live subscriptions (tests, leak checks). */
  size(): number;
  /**
   * Registers what a new subscriber must see first (current sandbox state, an open MFA prompt, the
   * rows an audit has produced so far), so subscribing after the fact loses nothing.
   */
  setReplay<S extends StreamName>(stream: S, replay: (filter: Readonly<Record<string, unknown>>) => readonly StreamEvent<S>[]): void;
  /**
   * Tells a service, after each subscription of `stream` begins or ends (a page closed without a word
   * ends its subscriptions too), how many subscriptions now have that filter: what it runs for a page can end with the page.
   */
  setPresence(stream: StreamName, presence: (filter: Readonly<Record<string, unknown>>, listening: number) => void): void;
}

interface Subscription {
  readonly stream: StreamName;
  readonly filter: Readonly<Record<string, unknown>>;
  readonly deliver: Deliver;
}

/**
 * The event as a renderer may see it: every known secret removed from its strings — the same gate
 * method results pass (pipeline.ts), since statuses, reasons and reports carry error text (an
 * S3 or DynamoDB error can echo a session token). An audit delta is skipped: it carries the
 * table's rows only, never error text, and is the one event large enough for the walk to cost.
 */
function scrubbed<E>(event: E): E {
  return (event as { type?: unknown }).type === 'delta' ? event : scrubKnownSecrets(event);
}

/** Creates an empty hub. */
export function createStreamHub(onDeliveryError: (cause: unknown) => void = () => undefined): StreamHub {
  const subscriptions = new Set<Subscription>();
  const replays = new Map<StreamName, (filter: Readonly<Record<string, unknown>>) => readonly unknown[]>();
  const presences = new Map<StreamName, (filter: Readonly<Record<string, unknown>>, listening: number) => void>();
  const sameFilter = (a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean =>
    matchesFilter(a, b) && matchesFilter(b, a);
  const announce = (subscription: Subscription): void => {
    const presence = presences.get(subscription.stream);
    if (!presence) return;
    let listening = 0;
    for (const other of subscriptions)
      if (other.stream === subscription.stream && sameFilter(other.filter, subscription.filter)) listening += 1;
    presence(subscription.filter, listening);
  };
  const drop = (subscription: Subscription): void => {
    if (subscriptions.delete(subscription)) announce(subscription);
  };
  return {
    publish(stream, raw) {
      const event = scrubbed(raw);
      for (const subscription of [...subscriptions]) {
        if (subscription.stream !== stream || !matchesFilter(subscription.filter, event)) continue;
        try {
          subscription.deliver(event);
        } catch (cause) {
          // A dead window or closed socket must not stop delivery to the others.
          drop(subscription);
          onDeliveryError(cause);
        }
      }
    },
    subscribe(stream, filter, deliver) {
      if (!isStreamName(stream)) return err('validation', `Unknown stream ${JSON.stringify(String(stream).slice(0, 100))}.`);
      const parsed = streams[stream].filter.safeParse(filter);
      if (!parsed.success) return validationError(parsed.error);
      const subscription: Subscription = { stream, filter: parsed.data as Record<string, unknown>, deliver };
      subscriptions.add(subscription);
      // Same synchronous turn as the registration: nothing published in between can be lost or doubled.
      for (const replayed of replays.get(stream)?.(subscription.filter) ?? []) {
        if (!matchesFilter(subscription.filter, replayed)) continue;
        const event = scrubbed(replayed);
        try {
          deliver(event);
        } catch (cause) {
          onDeliveryError(cause);
        }
      }
      announce(subscription);
      return ok(() => drop(subscription));
    },
    size: () => subscriptions.size,
    setReplay(stream, replay) {
      replays.set(stream, replay);
    },
    setPresence(stream, presence) {
      presences.set(stream, presence);
    },
  };
}
