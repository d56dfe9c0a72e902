/** Connections: the list, the selection, sandbox start/stop, endpoints, region and write mode. */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ConnectionView, ConnectionsView, SandboxView } from '../../../../shared/contract';
import type { CredentialSource } from '../../../../shared/domain';
import type { AppError, Result } from '../../../../shared/result';
import { useBridge } from '../../bridge/bridge-context';
import { useQuery } from '../../bridge/use-method';

/** Everything the sidebar and header need about connections. */
export interface ConnectionsState {
  readonly view: ConnectionsView | undefined;
  readonly selected: ConnectionView | undefined;
  readonly sandbox: SandboxView | undefined;
  /** Bumped each time the sandbox comes up again: its in-memory tables are new, so views of them reload. */
  readonly sandboxEpoch: number;
  readonly loading: boolean;
  /** The last error of a connection action, shown next to the connections list. */
  readonly error: AppError | undefined;
  /** Which action is running, for progress ("Starting the sandbox…"). */
  readonly busy: string | undefined;
  readonly select: (id: string) => Promise<boolean>;
  readonly check: (id: string) => Promise<void>;
  readonly startSandbox: () => Promise<boolean>;
  readonly stopSandbox: () => Promise<void>;
  readonly addEndpoint: (
    endpoint: string,
    region: string | undefined,
    label: string | undefined,
    credentials?: CredentialSource,
  ) => Promise<Result<ConnectionView>>;
  readonly remove: (id: string) => Promise<void>;
  readonly setRegion: (id: string, region: string) => Promise<void>;
  readonly setWritable: (id: string, writable: boolean, confirm?: string) => Promise<Result<ConnectionView>>;
}

/** Loads and changes connections; keeps the sandbox state live through the `sandbox.status` stream. */
export function useConnections(): ConnectionsState {
  const bridge = useBridge();
  const list = useQuery('connections.list', {});
  const [sandbox, setSandboxState] = useState<SandboxView>();
  const [sandboxEpoch, setSandboxEpoch] = useState(0);
  // Every sandbox update goes through here, so a restart is noticed whichever way it is reported.
  const setSandbox = useCallback((next: SandboxView) => {
    setSandboxState((previous) => {
      if (previous !== undefined && previous.state !== 'running' && next.state === 'running') setSandboxEpoch((n) => n + 1);
      return next;
    });
  }, []);
  const [error, setError] = useState<AppError>();
  // Labels of the actions in flight (they can overlap: a startup check and a click).
  const [busy, setBusy] = useState<readonly string[]>([]);
  const { reload } = list;

  useEffect(() => {
    let live = true;
    bridge.call('sandbox.info', {}).then(
      (result) => live && result.ok && setSandbox(result.value),
      () => undefined,
    );
    const unsubscribe = bridge.subscribe('sandbox.status', {}, (event) => {
      setSandbox(event);
      reload();
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [bridge, reload, setSandbox]);

  // Runs one connection action: shows it as busy, keeps its error, refreshes the list afterwards.
  const act = useCallback(
    async <T>(label: string, call: () => Promise<Result<T>>): Promise<Result<T>> => {
      setBusy((list) => [...list, label]);
      setError(undefined);
      const result = await call();
      setBusy((list) => {
        const at = list.indexOf(label);
        return at < 0 ? list : [...list.slice(0, at), ...list.slice(at + 1)];
      });
      if (!result.ok) setError(result.error);
      reload();
      return result;
    },
    [reload],
  );

  const startSandbox = useCallback(async () => {
    const result = await act('Starting the sandbox (DynamoDB Local) and seeding demo data…', () => bridge.call('sandbox.start', {}));
    if (result.ok) setSandbox(result.value);
    return result.ok && result.value.state === 'running';
  }, [act, bridge, setSandbox]);

  const select = useCallback(
    async (id: string) => {
      // Choosing the sandbox while it is stopped starts it: that is what a newcomer expects.
      if (id === 'sandbox' && sandbox?.state !== 'running') {
        const started = await startSandbox();
        if (!started) return false;
      }
      const result = await act('Connecting…', () => bridge.call('connections.select', { id }));
      if (result.ok) void act('Checking the connection…', () => bridge.call('connections.check', { id }));
      return result.ok;
    },
    [act, bridge, sandbox?.state, startSandbox],
  );

  const view = useMemo(() => honestSandbox(list.data, sandbox), [list.data, sandbox]);
  const selected = view?.connections.find((c) => c.id === view.selectedId);
  return {
    view,
    selected,
    sandbox,
    sandboxEpoch,
    loading: list.loading,
    error: error ?? list.error,
    busy: busy[busy.length - 1],
    select,
    check: async (id) => void (await act('Checking the connection…', () => bridge.call('connections.check', { id }))),
    startSandbox,
    stopSandbox: async () => {
      const result = await act('Stopping the sandbox…', () => bridge.call('sandbox.stop', {}));
      if (result.ok) setSandbox(result.value);
    },
    addEndpoint: (endpoint, region, label, credentials) =>
      act('Adding the endpoint…', () =>
        bridge.call('connections.addEndpoint', {
          endpoint,
          ...(region ? { region } : {}),
          ...(label ? { label } : {}),
          ...(credentials ? { credentials } : {}),
        }),
      ),
    remove: async (id) => void (await act('Removing…', () => bridge.call('connections.remove', { id }))),
    setRegion: async (id, region) => void (await act('Changing the region…', () => bridge.call('connections.setRegion', { id, region }))),
    setWritable: (id, writable, confirm) =>
      act(writable ? 'Allowing writes…' : 'Making read-only…', () =>
        bridge.call('connections.setWritable', { id, writable, ...(confirm !== undefined ? { confirm } : {}) }),
      ),
  };
}

/**
 * The sandbox connection as the sandbox really is: while it is not running it has no endpoint (not
 * "the AWS default") and its state is the sandbox's, whatever the last check said.
 */
export function honestSandbox(view: ConnectionsView | undefined, sandbox: SandboxView | undefined): ConnectionsView | undefined {
  if (!view || !sandbox || sandbox.state === 'running') return view;
  const state: ConnectionView['state'] = sandbox.state === 'starting' ? 'starting' : sandbox.state === 'error' ? 'error' : 'stopped';
  return { ...view, connections: view.connections.map((c) => (c.kind === 'sandbox' ? { ...c, state, endpoint: null } : c)) };
}
