/** The shape of contract entries: an argument schema plus a phantom result type, so types are declared once. */
import type { z } from 'zod';

/** One bridge method: its zod argument schema and (type-only) result type. */
export interface MethodSpec<A extends z.ZodType = z.ZodType, R = unknown> {
  readonly args: A;
  /** True when the method can write to a table or to the user's settings (the fuzz test proves bad input never gets there). */
  readonly writes: boolean;
  /** One line for logs and docs. */
  readonly summary: string;
  /** Phantom: carries the result type, never set at runtime. */
  readonly __result?: R;
}

/** One stream: a zod filter schema (what the subscriber wants) and the (type-only) event type. */
export interface StreamSpec<F extends z.ZodType = z.ZodType, E = unknown> {
  readonly filter: F;
  readonly summary: string;
  /** Phantom: carries the event type. */
  readonly __event?: E;
}

/** Declares a method whose result type is `R`: `method<TablesPage>()(schema, { … })`. */
export function method<R>() {
  return <A extends z.ZodType>(args: A, meta: { writes: boolean; summary: string }): MethodSpec<A, R> => ({ args, ...meta });
}

/** Declares a stream whose events are `E`. */
export function stream<E>() {
  return <F extends z.ZodType>(filter: F, summary: string): StreamSpec<F, E> => ({ filter, summary });
}
