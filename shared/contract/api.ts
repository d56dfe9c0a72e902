/**
 * Types derived from the contract (never written twice) and the one interface both transports
 * implement: `window.locksmith` in Electron (preload) and `createHttpBridge` in browser mode.
 */
import type { z } from 'zod';
import type { Result } from '../result';
import type { MethodSpec, StreamSpec } from './spec';
import { methods } from './methods';
import { streams } from './streams';

/** The method table's type. */
export type Methods = typeof methods;
/** Every method name, e.g. `tables.list`. */
export type MethodName = keyof Methods;
/** What the caller passes to a method (schema input). */
export type MethodArgs<M extends MethodName> = z.input<Methods[M]['args']>;
/** What the handler receives after parsing (schema output). */
export type ParsedArgs<M extends MethodName> = z.output<Methods[M]['args']>;
/** The success value of a method. */
export type MethodResult<M extends MethodName> = Methods[M] extends MethodSpec<z.ZodType, infer R> ? R : never;

/** The stream table's type. */
export type Streams = typeof streams;
/** Every stream name, e.g. `audit.events`. */
export type StreamName = keyof Streams;
/** What a subscriber passes to select events. */
export type StreamFilter<S extends StreamName> = z.input<Streams[S]['filter']>;
/** One event of a stream. */
export type StreamEvent<S extends StreamName> = Streams[S] extends StreamSpec<z.ZodType, infer E> ? E : never;

/** Stops a subscription; calling it twice is harmless. */
export type Unsubscribe = () => void;

/** The renderer's whole view of main: `window.locksmith`. */
export interface LocksmithBridge {
  /**
   * Calls a method; never rejects. Service errors come back as `{ ok: false, error }`, and so does a
   * lost or unreadable answer: `outcome: 'unknown'` for a write, `unreachable` for a read (shared/contract/transport.ts).
   */
  call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<Result<MethodResult<M>>>;
  /** Subscribes to a stream; events matching `filter` go to `listener` until the returned function is called. */
  subscribe<S extends StreamName>(stream: S, filter: StreamFilter<S>, listener: (event: StreamEvent<S>) => void): Unsubscribe;
  /**
   * Electron only: asks main for a MessagePort carrying the stream's events, so a Web Worker can be
   * their one subscriber. The port arrives as a window message {@link StreamPortMessage} with this
   * `portId`; closing it ends the subscription. Resolves once main has subscribed (or refused).
   */
  streamPort?<S extends StreamName>(stream: S, filter: StreamFilter<S>, portId: string): Promise<Result<{ subscribed: true }>>;
}

/** All method names, in contract order. */
export const METHOD_NAMES = Object.keys(methods) as MethodName[];
/** All stream names. */
export const STREAM_NAMES = Object.keys(streams) as StreamName[];

/** True when `name` is a contract method (own property only: `__proto__` or `toString` are not methods). */
export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name);
}

/** True when `name` is a contract stream. */
export function isStreamName(name: unknown): name is StreamName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(streams, name);
}

/** A stream event matches a filter when every filter field equals the event's field of the same name (e.g. `runId`). */
export function matchesFilter(filter: Readonly<Record<string, unknown>>, event: unknown): boolean {
  if (typeof event !== 'object' || event === null) return Object.keys(filter).length === 0;
  const fields = event as Readonly<Record<string, unknown>>;
  return Object.entries(filter).every(([key, value]) => fields[key] === value);
}

/** IPC channel names besides the methods themselves (each method's channel is its name). */
export const IPC_CHANNELS = {
  subscribe: 'locksmith:subscribe',
  unsubscribe: 'locksmith:unsubscribe',
  event: 'locksmith:event',
  port: 'locksmith:port',
} as const;

/** What the preload posts to the page's window with a stream's MessagePort (see `LocksmithBridge.streamPort`). */
export interface StreamPortMessage {
  readonly type: typeof STREAM_PORT_MESSAGE;
  readonly portId: string;
}

/** The `type` of a {@link StreamPortMessage}. */
export const STREAM_PORT_MESSAGE = 'locksmith:stream-port';

/** The ids a subscription or stream port may carry over IPC (checked by main and the preload). */
export const SUBSCRIPTION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** An event as delivered over IPC or SSE: which subscription it belongs to and the payload. */
export interface StreamEnvelope {
  readonly subscriptionId: string;
  readonly event: unknown;
}
