/**
 * The one renderer flow of a guarded write: make it (main builds and keeps the exact request: a
 * preview, a repair plan) → the confirmation typed back → execute → the outcome → the written values
 * checked again. The lock form (claims, releases and the lifecycle forms) and repair are this flow
 * with their own calls; a write added later is too.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { namingSent } from '../../../../shared/contract';
import type { AppError, Result } from '../../../../shared/result';

/** Where the flow is: nothing kept yet, making one, kept (awaiting the confirmation), executing, or ended with an outcome. */
export type GuardedWriteStep = 'edit' | 'making' | 'kept' | 'executing' | 'outcome';

/** What a re-check may ask of the flow: whether the page still shows it, and to show an error. */
export interface RecheckHooks {
  readonly alive: () => boolean;
  readonly fail: (error: AppError) => void;
}

/** What one kind of guarded write calls at each step. */
export interface GuardedWriteCalls<Request, Kept, Done> {
  /** Has main make and keep the write. */
  make(request: Request): Promise<Result<Kept>>;
  /** Executes it; `progress` shows a partial outcome while it goes on (a repair's transactions). */
  execute(kept: Kept, confirmation: string, progress: (partial: Done) => void): Promise<Result<Done>>;
  /** How to name what may have been sent when the answer is lost ("ClientRequestToken …", "plan …"). */
  sent(kept: Kept): string;
  /** After an outcome: check the written values again (the outcome stands whatever happens to this; `fail` shows why a check failed). */
  recheck(done: Done, kept: Kept, request: Request, on: RecheckHooks): Promise<void>;
  /** Where a failed execute leaves the flow: an unknown outcome may end it (the write may be going on), else back to the kept write. */
  readonly unknownEnds: boolean;
}

/** State and actions of one guarded write. */
export interface GuardedWrite<Request, Kept, Done> {
  readonly step: GuardedWriteStep;
  readonly kept: Kept | undefined;
  readonly done: Done | undefined;
  readonly error: AppError | undefined;
  readonly make: (request: Request) => Promise<void>;
  readonly execute: (confirmation: string) => Promise<void>;
  /** Back to editing: a new write must be made after any change. */
  readonly edit: () => void;
  /** Shows an error of a step the flow does not run itself (a stop request). */
  readonly fail: (error: AppError) => void;
  readonly setDone: (done: Done) => void;
}

/** Runs one guarded write with `calls` (memoized by the caller: new calls make new actions). */
export function useGuardedWrite<Request, Kept, Done>(calls: GuardedWriteCalls<Request, Kept, Done>): GuardedWrite<Request, Kept, Done> {
  const [step, setStep] = useState<GuardedWriteStep>('edit');
  const [kept, setKept] = useState<Kept>();
  const [done, setDone] = useState<Done>();
  const [error, setError] = useState<AppError>();
  const [request, setRequest] = useState<Request>();
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const make = useCallback(
    async (next: Request) => {
      setStep('making');
      setError(undefined);
      setDone(undefined);
      setRequest(next);
      const result = await calls.make(next);
      if (!alive.current) return;
      if (result.ok) {
        setKept(result.value);
        setStep('kept');
      } else {
        setError(result.error);
        setStep('edit');
      }
    },
    [calls],
  );

  const execute = useCallback(
    async (confirmation: string) => {
      if (kept === undefined || request === undefined) return;
      setStep('executing');
      setError(undefined);
      const result = await calls.execute(kept, confirmation, (partial) => {
        if (alive.current) setDone(partial);
      });
      if (!alive.current) return;
      if (!result.ok) {
        // A lost answer is an unknown outcome (the bridge says so): name the request that may have been applied.
        setError(namingSent(result.error, calls.sent(kept)));
        setStep(calls.unknownEnds && result.error.outcome === 'unknown' ? 'outcome' : 'kept');
        return;
      }
      setDone(result.value);
      setStep('outcome');
      await calls.recheck(result.value, kept, request, {
        alive: () => alive.current,
        fail: (e) => {
          if (alive.current) setError(e);
        },
      });
    },
    [calls, kept, request],
  );

  const edit = useCallback(() => {
    setStep('edit');
    setKept(undefined);
    setDone(undefined);
    setError(undefined);
  }, []);

  const fail = useCallback((e: AppError) => {
    if (alive.current) setError(e);
  }, []);

  return { step, kept, done, error, make, execute, edit, fail, setDone };
}
