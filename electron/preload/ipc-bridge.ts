/**
 * The renderer side of the IPC bridge, built from the contract: `call` invokes the method's channel,
 * `subscribe` registers a listener under a client-chosen id (so no event can arrive before the
 * listener exists) and returns the unsubscribe function, `streamPort` has main open a stream on a
 * MessagePort and hands that port to the page. Takes the IPC object as a parameter so it can be
 * tested without Electron; preload.ts passes the real `ipcRenderer` and `window`.
 */
import {
  IPC_CHANNELS,
  isMethodName,
  isStreamName,
  STREAM_PORT_MESSAGE,
  SUBSCRIPTION_ID,
  type LocksmithBridge,
  type StreamEnvelope,
  type StreamPortMessage,
} from '../../shared/contract/api';
import { isResult, lostAnswer } from '../../shared/contract/transport';
import type { Result } from '../../shared/result';
import { err } from '../../shared/result';

/** The subset of `ipcRenderer` the bridge uses (no `send`, no `sendSync`). */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, envelope: StreamEnvelope) => void): unknown;
  /** Main's stream ports: the message (`{ portId }`) and the ports that came with it. */
  onPort(listener: (message: unknown, ports: readonly PortLike[]) => void): unknown;
}

/** What the bridge needs of a MessagePort (this side is compiled without DOM types). */
export interface PortLike {
  close(): void;
}

/** Hands a stream port to the page (preload.ts: a message posted to the page's own window). */
export type HandOverPort = (message: StreamPortMessage, port: PortLike) => void;

/** Builds `window.locksmith` over IPC. */
export function createIpcBridge(
  ipc: IpcRendererLike,
  newId: () => string = () => crypto.randomUUID(),
  handOver: HandOverPort = () => undefined,
): LocksmithBridge {
  const listeners = new Map<string, (event: unknown) => void>();
  // Only a port this page asked for is handed over, once: main is trusted, but a port nobody waits
  // for is closed here rather than left open (its subscription ends with it).
  const awaitedPorts = new Set<string>();
  ipc.onPort((message, ports) => {
    const portId = (message as { portId?: unknown } | null)?.portId;
    const [port, ...extra] = ports;
    if (typeof portId !== 'string' || !awaitedPorts.delete(portId) || !port || extra.length > 0) {
      for (const stray of ports) stray.close();
      return;
    }
    handOver({ type: STREAM_PORT_MESSAGE, portId }, port);
  });
  ipc.on(IPC_CHANNELS.event, (_event, envelope) => {
    const listener = envelope && typeof envelope.subscriptionId === 'string' ? listeners.get(envelope.subscriptionId) : undefined;
    if (!listener) return;
    try {
      listener(envelope.event);
    } catch {
      // A throwing listener must not break delivery to the others.
    }
  });

  const bridge = {
    async call(method: string, args: unknown): Promise<Result<unknown>> {
      if (!isMethodName(method)) return err('validation', `Unknown method ${JSON.stringify(String(method).slice(0, 100))}.`);
      // The transport contract (shared/contract/transport.ts): never rejects; a lost answer to a write is an unknown outcome.
      let answer: unknown;
      try {
        answer = await ipc.invoke(method, args);
      } catch (cause) {
        return {
          ok: false,
          error: lostAnswer(
            method,
            `the main process did not answer: ${cause instanceof Error ? cause.message.slice(0, 200) : 'IPC failed'}`,
          ),
        };
      }
      return isResult(answer) ? answer : { ok: false, error: lostAnswer(method, 'the main process gave no Locksmith answer') };
    },
    subscribe(stream: string, filter: unknown, listener: (event: unknown) => void): () => void {
      if (!isStreamName(stream)) return () => undefined;
      const id = newId();
      listeners.set(id, listener);
      void ipc.invoke(IPC_CHANNELS.subscribe, stream, filter, id).then(
        (result) => {
          if (!(result as Result<unknown>).ok) listeners.delete(id);
        },
        () => listeners.delete(id),
      );
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        listeners.delete(id);
        void ipc.invoke(IPC_CHANNELS.unsubscribe, id).catch(() => undefined);
      };
    },
    async streamPort(stream: string, filter: unknown, portId: unknown): Promise<Result<unknown>> {
      if (!isStreamName(stream)) return err('validation', `Unknown stream ${JSON.stringify(String(stream).slice(0, 100))}.`);
      if (typeof portId !== 'string' || !SUBSCRIPTION_ID.test(portId)) return err('validation', 'Bad port id.', { field: 'portId' });
      awaitedPorts.add(portId);
      let answer: unknown;
      try {
        answer = await ipc.invoke(IPC_CHANNELS.port, stream, filter, portId);
      } catch (cause) {
        answer = err(
          'unreachable',
          `the main process did not answer: ${cause instanceof Error ? cause.message.slice(0, 200) : 'IPC failed'}`,
        );
      }
      const result: Result<unknown> = isResult(answer) ? answer : err('unreachable', 'the main process gave no Locksmith answer');
      // Refused: no port is coming (a late one would be closed on arrival).
      if (!result.ok) awaitedPorts.delete(portId);
      return result;
    },
  };
  // The generic signatures of LocksmithBridge are enforced at the renderer's call sites; main validates every argument.
  return bridge as unknown as LocksmithBridge;
}
