/** Generic hooks over bridge methods: a query that loads when its arguments change, and an action run on demand. */
import { useCallback, useEffect, useState } from 'react';
import type { MethodArgs, MethodName, MethodResult } from '../../../shared/contract';
import type { AppError, Result } from '../../../shared/result';
import { useBridge } from './bridge-context';

/** State of a query: the last value, the last error, and whether a call is in flight. */
export interface QueryState<T> {
  readonly data: T | undefined;
  readonly error: AppError | undefined;
  readonly loading: boolean;
  /** Calls again with the same arguments. */
  readonly reload: () => void;
}

/** Calls `method` whenever `args` (compared as JSON) change; `null` args skip the call. */
export function useQuery<M extends MethodName>(method: M, args: MethodArgs<M> | null): QueryState<MethodResult<M>> {
  const bridge = useBridge();
  const [state, setState] = useState<{ data?: MethodResult<M>; error?: AppError; loading: boolean; key: string }>({
    loading: false,
    key: '',
  });
  const [generation, setGeneration] = useState(0);
  const key = args === null ? '' : JSON.stringify(args);

  useEffect(() => {
    if (key === '') return undefined;
    // The key is the arguments as JSON: parsing it back keeps the effect keyed on content, not identity.
    const current = JSON.parse(key) as MethodArgs<M>;
    let live = true;
    setState((s) => ({ ...s, loading: true, key }));
    // The bridge never rejects (shared/contract/transport.ts): a lost answer is an error Result like any other.
    void bridge.call(method, current).then((result: Result<MethodResult<M>>) => {
      if (!live) return;
      setState(result.ok ? { data: result.value, loading: false, key } : { error: result.error, loading: false, key });
    });
    return () => {
      live = false;
    };
  }, [bridge, method, key, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  // Data of other arguments is not this query's data (e.g. the previous table's details).
  const fresh = state.key === key;
  return {
    data: fresh ? state.data : undefined,
    error: fresh ? state.error : undefined,
    loading: key !== '' && (state.loading || !fresh),
    reload,
  };
}

/** State of an action: run it, see whether it is running, its last error and result. */
export interface ActionState<M extends MethodName> {
  readonly run: (args: MethodArgs<M>) => Promise<Result<MethodResult<M>>>;
  readonly pending: boolean;
  readonly error: AppError | undefined;
  readonly data: MethodResult<M> | undefined;
  readonly reset: () => void;
}

/** A method called on demand (buttons, forms); errors are kept for display where the action was started. */
export function useAction<M extends MethodName>(method: M): ActionState<M> {
  const bridge = useBridge();
  const [state, setState] = useState<{ pending: boolean; error?: AppError; data?: MethodResult<M> }>({ pending: false });
  const run = useCallback(
    async (args: MethodArgs<M>): Promise<Result<MethodResult<M>>> => {
      setState({ pending: true });
      const result = await bridge.call(method, args);
      setState(result.ok ? { pending: false, data: result.value } : { pending: false, error: result.error });
      return result;
    },
    [bridge, method],
  );
  const reset = useCallback(() => setState({ pending: false }), []);
  return { run, pending: state.pending, error: state.error, data: state.data, reset };
}
